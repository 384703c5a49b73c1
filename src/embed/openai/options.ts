/**
 * Options of the OpenAI-compatible embedder: their defaults, and the one check that turns a bad
 * option into a CONFIG_INVALID error naming the configuration field (`embedder.openai.<field>`).
 */
import { z } from 'zod';

import { parseWith } from '../../domain/zod.js';

/** Options of an `OpenAiEmbedder`. */
export interface OpenAiEmbedderOptions {
  /** API root that `/embeddings` is appended to, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Model name the server knows, e.g. `text-embedding-3-small` or `nomic-embed-text`. */
  model: string;
  /** Vector length to ask for (sent as `dimensions`); learned from a probe request when absent. */
  dimensions?: number;
  /** Sent as `Authorization: Bearer <apiKey>` when given; never logged or put in an error. */
  apiKey?: string;
  /** Most texts per request (default 64). */
  batchSize?: number;
  /** Deadline of one HTTP request in milliseconds (default 30000). */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx, a network error or a timeout (default 3). */
  maxRetries?: number;
  /** Base of the exponential back-off between retries in milliseconds (default 500). */
  retryBaseMs?: number;
  /** Model id stamped on vectors; default `openai:<model>` plus `@<dimensions>` when configured. */
  modelId?: string;
  /** The fetch to call (default: Node's global fetch); for tests and custom transports. */
  fetch?: typeof fetch;
}

/** Options with defaults applied and the base URL without its trailing slash. */
export interface ResolvedOpenAiOptions {
  baseUrl: string;
  model: string;
  dimensions: number | undefined;
  apiKey: string | undefined;
  batchSize: number;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  modelId: string;
  fetch: typeof fetch;
}

/** Default number of texts per request. */
export const DEFAULT_BATCH_SIZE = 64;
/** Default deadline of one request, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default number of retries of a failed request. */
export const DEFAULT_MAX_RETRIES = 3;
/** Default base of the exponential back-off, in milliseconds. */
export const DEFAULT_RETRY_BASE_MS = 500;
/** The OpenAI API takes at most 2048 inputs per embeddings request. */
export const MAX_BATCH_SIZE = 2048;

/** Where these options live in the configuration, for error messages. */
const FIELD_PREFIX = 'embedder.openai';

/** True for an http(s) URL without credentials, query or fragment (safe to quote in errors). */
export function isPlainHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // Credentials in the URL would end up in error messages; a query or fragment cannot take a path.
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === ''
  );
}

const positiveInt = (max: number) =>
  z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`);

/** The endpoint of an OpenAI-compatible server (embeddings here, chat for the decision judge). */
export const endpointFields = {
  base_url: z
    .string('must be a string')
    .refine(
      isPlainHttpUrl,
      'must be an http:// or https:// URL without credentials, query or fragment',
    ),
  model: z.string('must be a string').refine((s) => s.trim() !== '', 'must not be empty'),
};

/** The options as the configuration names them; messages never echo a value (the key is secret). */
const optionsSchema = z.object({
  ...endpointFields,
  dimensions: positiveInt(65_536).optional(),
  api_key: z
    .string('must be a string')
    .min(1, 'must not be empty when given')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces or line breaks')
    .optional(),
  batch_size: positiveInt(MAX_BATCH_SIZE).default(DEFAULT_BATCH_SIZE),
  timeout_ms: positiveInt(3_600_000).default(DEFAULT_TIMEOUT_MS),
  max_retries: z
    .number()
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(10, 'must be at most 10')
    .default(DEFAULT_MAX_RETRIES),
  retry_base_ms: z
    .number()
    .min(0, 'must be at least 0')
    .max(60_000, 'must be at most 60000')
    .default(DEFAULT_RETRY_BASE_MS),
  model_id: z.string('must be a string').min(1, 'must not be empty').optional(),
  fetch: z.custom<typeof fetch>((f) => typeof f === 'function', 'must be a function').optional(),
});

/** Checks the options and applies defaults; throws CONFIG_INVALID naming `embedder.openai.<field>`. */
export function resolveOptions(options: OpenAiEmbedderOptions): ResolvedOpenAiOptions {
  const o = parseWith(
    optionsSchema,
    {
      base_url: options.baseUrl,
      model: options.model,
      dimensions: options.dimensions,
      api_key: options.apiKey,
      batch_size: options.batchSize,
      timeout_ms: options.timeoutMs,
      max_retries: options.maxRetries,
      retry_base_ms: options.retryBaseMs,
      model_id: options.modelId,
      fetch: options.fetch,
    },
    FIELD_PREFIX,
    'CONFIG_INVALID',
  );
  return {
    baseUrl: o.base_url.replace(/\/+$/, ''),
    model: o.model,
    dimensions: o.dimensions,
    apiKey: o.api_key,
    batchSize: o.batch_size,
    timeoutMs: o.timeout_ms,
    maxRetries: o.max_retries,
    retryBaseMs: o.retry_base_ms,
    modelId: o.model_id ?? defaultModelId(o.model, o.dimensions),
    // Looked up per call, so a fetch swapped in after construction (test stubs) is used.
    fetch: o.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}

/** `openai:<model>`, plus `@<dimensions>` when a dimension is asked for. */
export function defaultModelId(model: string, dimensions: number | undefined): string {
  return `openai:${model}${dimensions === undefined ? '' : `@${dimensions}`}`;
}

/**
 * Options of the `openai-compatible` decision adapter: their defaults, and the one check that turns
 * a bad option into a CONFIG_INVALID error naming the field (`recall.decision.openai.<field>`).
 */
import { z } from 'zod';

import { parseWith } from '../../domain/zod.js';
import { endpointFields } from '../../embed/openai/options.js';

/** Options of an `OpenAiJudge`. */
export interface OpenAiJudgeOptions {
  /** API root that `/chat/completions` is appended to, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** Chat model the server knows, e.g. `gpt-4o-mini` or `qwen2.5:7b-instruct`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never logged or put in an error. Empty = none. */
  apiKey?: string;
  /** True when the endpoint needs a key: without one, `unavailable()` is `missing_credentials`. */
  requireKey?: boolean;
  /** Judgments (chat requests) in flight at once (default 4). */
  concurrency?: number;
  /** Deadline of one HTTP request in milliseconds (default 10000); the stage has its own. */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx, a network error or a timeout (default 1). */
  maxRetries?: number;
  /** Base of the exponential back-off between retries in milliseconds (default 200). */
  retryBaseMs?: number;
  /** Ask for token log-probabilities: `auto` (default) stops asking once a server refuses them. */
  logprobs?: 'auto' | boolean;
  /** The fetch to call (default: Node's global fetch); for tests and custom transports. */
  fetch?: typeof fetch;
}

/** Options with defaults applied and the base URL without its trailing slash. */
export interface ResolvedJudgeOptions {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  requireKey: boolean;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  logprobs: 'auto' | boolean;
  fetch: typeof fetch;
}

/** Default number of judgments in flight. */
export const DEFAULT_JUDGE_CONCURRENCY = 4;
/** Default deadline of one request, in milliseconds (a safety net: the stage's deadline is shorter). */
export const DEFAULT_JUDGE_TIMEOUT_MS = 10_000;
/** Default number of retries: one, since the stage's deadline bounds the whole judgment anyway. */
export const DEFAULT_JUDGE_MAX_RETRIES = 1;
/** Default base of the back-off between retries, in milliseconds. */
export const DEFAULT_JUDGE_RETRY_BASE_MS = 200;

/** Where these options live in the configuration, for error messages. */
const FIELD_PREFIX = 'recall.decision.openai';

const int = (min: number, max: number) =>
  z
    .number()
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

/** The options as the configuration names them; messages never echo a value (the key is secret). */
const optionsSchema = z.object({
  ...endpointFields,
  api_key: z
    .string('must be a string')
    .regex(/^[\x21-\x7e]*$/, 'must be printable ASCII without spaces or line breaks')
    .optional(),
  require_key: z.boolean('must be a boolean').default(false),
  concurrency: int(1, 64).default(DEFAULT_JUDGE_CONCURRENCY),
  timeout_ms: int(1, 3_600_000).default(DEFAULT_JUDGE_TIMEOUT_MS),
  max_retries: int(0, 10).default(DEFAULT_JUDGE_MAX_RETRIES),
  retry_base_ms: z
    .number()
    .min(0, 'must be at least 0')
    .max(60_000, 'must be at most 60000')
    .default(DEFAULT_JUDGE_RETRY_BASE_MS),
  logprobs: z
    .union([z.literal('auto'), z.boolean()], "must be 'auto' or a boolean")
    .default('auto'),
  fetch: z.custom<typeof fetch>((f) => typeof f === 'function', 'must be a function').optional(),
});

/** Checks the options and applies defaults; throws CONFIG_INVALID naming the field. */
export function resolveJudgeOptions(options: OpenAiJudgeOptions): ResolvedJudgeOptions {
  const o = parseWith(
    optionsSchema,
    {
      base_url: options.baseUrl,
      model: options.model,
      api_key: options.apiKey,
      require_key: options.requireKey,
      concurrency: options.concurrency,
      timeout_ms: options.timeoutMs,
      max_retries: options.maxRetries,
      retry_base_ms: options.retryBaseMs,
      logprobs: options.logprobs,
      fetch: options.fetch,
    },
    FIELD_PREFIX,
    'CONFIG_INVALID',
  );
  return {
    baseUrl: o.base_url.replace(/\/+$/, ''),
    model: o.model,
    // An empty key (an exported but empty OPENAI_API_KEY) counts as no key.
    apiKey: o.api_key === '' ? undefined : o.api_key,
    requireKey: o.require_key,
    concurrency: o.concurrency,
    timeoutMs: o.timeout_ms,
    maxRetries: o.max_retries,
    retryBaseMs: o.retry_base_ms,
    logprobs: o.logprobs,
    // Looked up per call, so a fetch swapped in after construction (test stubs) is used.
    fetch: o.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}

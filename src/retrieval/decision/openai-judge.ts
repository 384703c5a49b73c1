/**
 * The `openai-compatible` decision adapter (§5.1): an LLM judge over any OpenAI-style chat endpoint
 * (OpenAI, llama.cpp server, vLLM, Ollama). One yes/no chat request per candidate, a few in
 * flight; relevance is P(yes) from the first token's logprobs where the server gives them, else
 * the answer itself. Transport (auth, retries, deadlines, key redaction) is the embedder's client.
 */
import { isEngramError } from '../../domain/errors.js';
import { OpenAiHttpClient } from '../../embed/openai/http-client.js';
import type { RelevanceDocument } from '../rerank/relevance.js';
import type { DecisionAdapter, FallbackReason } from './adapter.js';
import { DecisionError } from './adapter.js';
import { relevanceOf } from './openai-answer.js';
import type { OpenAiJudgeOptions, ResolvedJudgeOptions } from './openai-options.js';
import { resolveJudgeOptions } from './openai-options.js';
import { runPool } from './openai-pool.js';
import { conflictRequest, judgeRequest } from './openai-prompt.js';

export type { OpenAiJudgeOptions } from './openai-options.js';

/** Path of the chat endpoint under the base URL. */
const CHAT_PATH = '/chat/completions';
/** Who is speaking in error messages. */
const LABEL = 'openai-compatible judge';

/** Decision adapter asking an OpenAI-compatible chat model whether each candidate answers. */
export class OpenAiJudge implements DecisionAdapter {
  readonly name = 'openai-compatible';
  private readonly options: ResolvedJudgeOptions;
  /** Set once a server refused the `logprobs` parameter in `auto` mode: stop asking. */
  private logprobsRefused = false;

  /** Checks the options (CONFIG_INVALID naming `recall.decision.openai.<field>`). */
  constructor(options: OpenAiJudgeOptions) {
    this.options = resolveJudgeOptions(options);
  }

  /** `missing_credentials` when a key is required and none is configured; else null. */
  unavailable(): { reason: FallbackReason; message: string } | null {
    if (this.options.requireKey && this.options.apiKey === undefined) {
      return {
        reason: 'missing_credentials',
        message: `${LABEL}: the endpoint needs an API key and none is configured`,
      };
    }
    return null;
  }

  /**
   * One relevance per document, in order. Rejects with a DecisionError on the first failed
   * judgment, or with `signal.reason` as soon as `signal` aborts; either way every request still
   * in flight is aborted and no partial list is returned.
   */
  async judge(
    query: string,
    documents: readonly RelevanceDocument[],
    signal: AbortSignal,
  ): Promise<number[]> {
    const missing = this.unavailable();
    if (missing !== null) throw new DecisionError(missing.reason, missing.message);
    signal.throwIfAborted();
    // A client per judgment, so that aborting it (abortAll) touches this judgment's requests only.
    const client = new OpenAiHttpClient({ ...this.options, label: LABEL });
    try {
      return await runPool(
        documents,
        this.options.concurrency,
        (document) => this.judgeOne(client, query, document),
        signal,
      );
    } finally {
      client.abortAll();
    }
  }

  /** True when the next request should ask for logprobs. */
  private asksLogprobs(): boolean {
    const { logprobs } = this.options;
    return logprobs === true || (logprobs === 'auto' && !this.logprobsRefused);
  }

  private async judgeOne(
    client: OpenAiHttpClient,
    query: string,
    document: RelevanceDocument,
  ): Promise<number> {
    try {
      return relevanceOf(await this.ask(client, query, document));
    } catch (error) {
      throw this.decisionError(error, document.id);
    }
  }

  /**
   * Capability (§10): the probability that `later` contradicts `earlier` (makes it no longer
   * true), asked of the same chat model; consolidation records a supersede only through this.
   */
  async contradicts(earlier: string, later: string, signal: AbortSignal): Promise<number> {
    const missing = this.unavailable();
    if (missing !== null) throw new DecisionError(missing.reason, missing.message);
    signal.throwIfAborted();
    const client = new OpenAiHttpClient({ ...this.options, label: LABEL });
    const abort = () => client.abortAll();
    signal.addEventListener('abort', abort, { once: true });
    try {
      const { model } = this.options;
      return relevanceOf(
        await this.post(client, (lp) => conflictRequest(model, earlier, later, lp)),
      );
    } finally {
      signal.removeEventListener('abort', abort);
      client.abortAll();
    }
  }

  private ask(client: OpenAiHttpClient, query: string, document: RelevanceDocument) {
    const { model } = this.options;
    return this.post(client, (lp) => judgeRequest(model, query, document, lp));
  }

  /** Posts a request; in `auto` mode a request refused for its logprobs is sent again without. */
  private async post(
    client: OpenAiHttpClient,
    body: (logprobs: boolean) => Record<string, unknown>,
  ): Promise<unknown> {
    const logprobs = this.asksLogprobs();
    try {
      return await client.postJson(CHAT_PATH, body(logprobs));
    } catch (error) {
      if (!logprobs || this.options.logprobs !== 'auto' || !refusesLogprobs(error)) throw error;
      this.logprobsRefused = true;
      return client.postJson(CHAT_PATH, body(false));
    }
  }

  /** The fallback reason of a failed judgment, its message naming the candidate, never the key. */
  private decisionError(error: unknown, id: string): DecisionError {
    let reason: FallbackReason = 'adapter_error';
    if (error instanceof DecisionError) reason = error.reason;
    else if (isEngramError(error) && isAuthStatus(error.details.status)) {
      reason = 'missing_credentials';
    }
    const message = error instanceof Error ? error.message : String(error);
    return new DecisionError(reason, this.redact(`${message} (candidate ${id})`));
  }

  /** The client already masks the key in server text; this also covers any other path. */
  private redact(text: string): string {
    const key = this.options.apiKey;
    return key === undefined ? text : text.split(key).join('[redacted]');
  }
}

function isAuthStatus(status: unknown): boolean {
  return status === 401 || status === 403;
}

/**
 * True for a 400/422 whose server text mentions logprobs (`logprobs is not supported`,
 * `top_logprobs: extra inputs are not permitted`...): the server refuses the parameter.
 */
function refusesLogprobs(error: unknown): boolean {
  if (!isEngramError(error)) return false;
  const status = error.details.status;
  if (status !== 400 && status !== 422) return false;
  // The message quotes the URL before `HTTP <status>:`; only the server's text counts.
  const serverText = error.message.slice(error.message.indexOf(`HTTP ${status}:`));
  return /logprob/i.test(serverText);
}

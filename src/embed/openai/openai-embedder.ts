/**
 * The `openai` embedder: sentence vectors from any server that speaks OpenAI's `POST /embeddings`
 * (OpenAI itself, Ollama, vLLM, llama.cpp server...). Batches texts, retries transient failures,
 * learns the vector length from one probe request unless configured, and normalises every vector.
 */
import { invalidInput, isEngramError } from '../../domain/errors.js';
import type { Embedder, EmbedderState } from '../embedder.js';
import { normalize } from '../embedder.js';
import { readEmbeddings } from './embeddings-response.js';
import { OpenAiHttpClient } from './http-client.js';
import type { OpenAiEmbedderOptions, ResolvedOpenAiOptions } from './options.js';
import { resolveOptions } from './options.js';

export type { OpenAiEmbedderOptions } from './options.js';

/** Text of the request that learns the vector length when `dimensions` is not configured. */
export const PROBE_TEXT = 'dimension probe';

/** Embedder calling an OpenAI-compatible `/embeddings` endpoint. */
export class OpenAiEmbedder implements Embedder {
  /** Model id stamped on every vector, e.g. `openai:text-embedding-3-small@512`. */
  readonly modelId: string;
  private readonly options: ResolvedOpenAiOptions;
  private readonly client: OpenAiHttpClient;
  private knownDimension: number | undefined;
  private probing: Promise<void> | undefined;
  private succeeded = false;
  private lastFailure: string | undefined;

  constructor(options: OpenAiEmbedderOptions) {
    this.options = resolveOptions(options);
    this.modelId = this.options.modelId;
    this.knownDimension = this.options.dimensions;
    this.client = new OpenAiHttpClient({ ...this.options, label: 'openai embedder' });
  }

  /** Vector length: the configured `dimensions`, else learned by `prepare`; 0 until known. */
  get dimension(): number {
    return this.knownDimension ?? 0;
  }

  /**
   * Checks that the server answers (and learns the vector length) with one probe request; a no-op
   * once a request has succeeded and none has failed since. Concurrent calls share one probe.
   */
  prepare(): Promise<void> {
    if (this.ready()) return Promise.resolve();
    this.probing ??= this.send([PROBE_TEXT])
      .then(() => undefined)
      .finally(() => {
        this.probing = undefined;
      });
    return this.probing;
  }

  /**
   * One unit vector per text, or null for an empty or whitespace-only text (never sent: servers
   * reject empty input) and for a zero vector. Texts go out in requests of at most `batchSize`.
   */
  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
      throw invalidInput('texts', 'string_array', 'texts must be an array of strings');
    }
    const out = new Array<Float32Array | null>(texts.length).fill(null);
    const sent = texts.flatMap((text, i) => (text.trim() === '' ? [] : [i]));
    if (sent.length === 0) return out;
    if (this.knownDimension === undefined) await this.prepare();
    for (let from = 0; from < sent.length; from += this.options.batchSize) {
      const batch = sent.slice(from, from + this.options.batchSize);
      const vectors = await this.send(batch.map((i) => texts[i]!));
      batch.forEach((i, k) => (out[i] = normalize(vectors[k]!)));
    }
    return out;
  }

  /** What the last request taught, without making one: unavailable (with why) after a failure. */
  state(): EmbedderState {
    const state: EmbedderState = {
      model_id: this.modelId,
      dimension: this.dimension,
      available: this.lastFailure === undefined,
      loaded: this.ready(),
    };
    return this.lastFailure === undefined ? state : { ...state, reason: this.lastFailure };
  }

  /** Aborts requests in flight; they reject with EMBEDDER_UNAVAILABLE (rule `closed`). */
  close(): Promise<void> {
    this.client.abortAll();
    return Promise.resolve();
  }

  /** Ready to serve: the vector length is known and the last request succeeded. */
  private ready(): boolean {
    return this.succeeded && this.lastFailure === undefined && this.knownDimension !== undefined;
  }

  /** One request for `inputs` (all non-empty), its vectors checked and in input order. */
  private async send(inputs: string[]): Promise<Float32Array[]> {
    const { model, dimensions, baseUrl } = this.options;
    const body = {
      model,
      input: inputs,
      encoding_format: 'float',
      ...(dimensions === undefined ? {} : { dimensions }),
    };
    try {
      const answer = await this.client.postJson('/embeddings', body);
      const vectors = readEmbeddings(answer, {
        count: inputs.length,
        dimension: this.knownDimension,
        dimensionSource:
          dimensions === undefined
            ? 'the length the server gave before'
            : 'embedder.openai.dimensions',
        where: `openai embedder: POST ${baseUrl}/embeddings`,
      });
      this.knownDimension ??= vectors[0]?.length;
      this.succeeded = true;
      this.lastFailure = undefined;
      return vectors;
    } catch (error) {
      // Being closed says nothing about the server.
      if (!isEngramError(error) || error.details.rule !== 'closed') {
        this.lastFailure = error instanceof Error ? error.message : String(error);
      }
      throw error;
    }
  }
}

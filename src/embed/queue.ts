/**
 * The per-process embedding queue: serialises calls into one Embedder (the static one is CPU-bound
 * and synchronous inside), serves queries before writes before background work, splits big
 * batches into chunks so a query waits behind at most one chunk, and enforces per-call deadlines.
 */
import { EngramError, invalidInput, isEngramError } from '../domain/errors.js';
import type { Embedder } from './embedder.js';

/** Who is waiting: an interactive query, a memory write, or background (re)indexing. */
export type EmbedPriority = 'query' | 'write' | 'background';

/** Priorities, most urgent first. */
export const EMBED_PRIORITIES: readonly EmbedPriority[] = ['query', 'write', 'background'];

/** Options of one `EmbeddingQueue.embed` call. */
export interface EmbedRequestOptions {
  priority: EmbedPriority;
  /** Deadline for the whole call, including waiting in line and a first-use model load. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The embedder to run the texts through (default: the queue's own); one line serves every model. */
  embedder?: Embedder;
}

/** Counters reported by `EmbeddingQueue.stats`. */
export interface EmbeddingQueueStats {
  /** Calls waiting that have not started, by priority. */
  queued: Record<EmbedPriority, number>;
  /** Calls started (a chunk ran or is running) and not yet settled. */
  in_flight: number;
  completed: number;
  failed: number;
  last_error?: string;
}

/** Options of an EmbeddingQueue. */
export interface EmbeddingQueueOptions {
  /** Texts per embedder call; larger calls are split (default 64). */
  chunkSize?: number;
}

/** Default number of texts handed to the embedder at once. */
export const DEFAULT_CHUNK_SIZE = 64;

type Result = (Float32Array | null)[];

interface Call {
  readonly priority: EmbedPriority;
  readonly embedder: Embedder;
  readonly results: Result;
  pendingChunks: number;
  started: boolean;
  settled: boolean;
  resolve(results: Result): void;
  reject(error: EngramError): void;
  cleanup(): void;
}

interface Chunk {
  readonly call: Call;
  readonly offset: number;
  readonly texts: readonly string[];
}

/** Serialises embedding work, by priority, with deadlines; calls may name their own embedder. */
export class EmbeddingQueue {
  private readonly embedder: Embedder;
  private readonly chunkSize: number;
  private readonly lines: Record<EmbedPriority, Chunk[]> = { query: [], write: [], background: [] };
  private running: Promise<void> | undefined;
  private runningCall: Call | undefined;
  private pumpScheduled = false;
  private readonly prepared = new WeakSet<Embedder>();
  private closed = false;
  private completed = 0;
  private failed = 0;
  private lastError: string | undefined;

  constructor(embedder: Embedder, options: EmbeddingQueueOptions = {}) {
    const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    if (!Number.isInteger(chunkSize) || chunkSize < 1) {
      throw invalidInput('chunkSize', 'positive_integer', 'chunkSize must be a positive integer');
    }
    this.embedder = embedder;
    this.chunkSize = chunkSize;
  }

  /** Embeds texts in priority order; rejects on timeout, abort, close or embedder failure. */
  embed(texts: readonly string[], options: EmbedRequestOptions): Promise<Result> {
    try {
      validate(texts, options);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.closed) return Promise.reject(closedError());
    if (options.signal?.aborted === true) return Promise.reject(this.count(abortedError()));
    if (texts.length === 0) {
      this.completed++;
      return Promise.resolve([]);
    }
    return new Promise<Result>((resolve, reject) => {
      const call = this.enqueue(texts, options, resolve, reject);
      this.arm(call, options);
      // A query finding nothing running starts now: a turn of the event loop would only put the
      // rest of its recall's work ahead of it. Other work waits the turn, so a query arriving in
      // the same turn still goes first.
      if (options.priority === 'query' && this.running === undefined) this.pump();
      else this.schedulePump();
    });
  }

  /** Queue counters, for `status`. */
  stats(): EmbeddingQueueStats {
    const queued = { query: 0, write: 0, background: 0 };
    const seen = new Set<Call>();
    let inFlight = 0;
    for (const priority of EMBED_PRIORITIES) {
      for (const { call } of this.lines[priority]) {
        if (seen.has(call)) continue;
        seen.add(call);
        if (call.started) inFlight++;
        else queued[priority]++;
      }
    }
    const running = this.runningCall;
    if (running !== undefined && !running.settled && !seen.has(running)) inFlight++;
    const stats: EmbeddingQueueStats = {
      queued,
      in_flight: inFlight,
      completed: this.completed,
      failed: this.failed,
    };
    if (this.lastError !== undefined) stats.last_error = this.lastError;
    return stats;
  }

  /** Rejects every waiting call, lets the running chunk finish, and refuses new calls. */
  async close(): Promise<void> {
    this.closed = true;
    for (const priority of EMBED_PRIORITIES) {
      for (const chunk of this.lines[priority]) {
        if (chunk.call !== this.runningCall) this.fail(chunk.call, closedError());
      }
      this.lines[priority] = [];
    }
    await this.running;
    // A call split into chunks cannot finish once its remaining chunks are dropped.
    if (this.runningCall !== undefined) this.fail(this.runningCall, closedError());
  }

  private enqueue(
    texts: readonly string[],
    options: EmbedRequestOptions,
    resolve: (results: Result) => void,
    reject: (error: EngramError) => void,
  ): Call {
    const priority = options.priority;
    const call: Call = {
      priority,
      embedder: options.embedder ?? this.embedder,
      results: new Array<Float32Array | null>(texts.length).fill(null),
      pendingChunks: Math.ceil(texts.length / this.chunkSize),
      started: false,
      settled: false,
      resolve,
      reject,
      cleanup: () => undefined,
    };
    for (let offset = 0; offset < texts.length; offset += this.chunkSize) {
      const slice = texts.slice(offset, offset + this.chunkSize);
      this.lines[priority].push({ call, offset, texts: slice });
    }
    return call;
  }

  /** Starts the deadline timer and abort listener; both are removed when the call settles. */
  private arm(call: Call, options: EmbedRequestOptions): void {
    const { timeoutMs, signal } = options;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => this.fail(call, timeoutError(timeoutMs)), timeoutMs);
    const onAbort = () => this.fail(call, abortedError());
    signal?.addEventListener('abort', onAbort, { once: true });
    call.cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
  }

  /** Runs the next chunk on a later turn of the event loop, so timers and I/O run in between. */
  private schedulePump(): void {
    if (this.pumpScheduled || this.running !== undefined) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.running !== undefined) return;
    const chunk = this.nextChunk();
    if (chunk === undefined) return;
    this.runningCall = chunk.call;
    this.running = this.run(chunk).finally(() => {
      this.running = undefined;
      this.runningCall = undefined;
      if (!this.closed) this.schedulePump();
    });
  }

  private nextChunk(): Chunk | undefined {
    for (const priority of EMBED_PRIORITIES) {
      const chunk = this.lines[priority].shift();
      if (chunk !== undefined) return chunk;
    }
    return undefined;
  }

  private async run(chunk: Chunk): Promise<void> {
    const { call } = chunk;
    call.started = true;
    try {
      if (!this.prepared.has(call.embedder)) {
        await call.embedder.prepare();
        this.prepared.add(call.embedder);
      }
      if (call.settled) return; // Timed out or aborted while the model loaded.
      const vectors = await call.embedder.embed(chunk.texts);
      if (vectors.length !== chunk.texts.length) {
        throw new Error(
          `embedder returned ${vectors.length} vectors for ${chunk.texts.length} texts`,
        );
      }
      if (call.settled) return; // Deadline passed while running: the result is discarded.
      for (let i = 0; i < vectors.length; i++) call.results[chunk.offset + i] = vectors[i] ?? null;
      if (--call.pendingChunks === 0) this.succeed(call);
    } catch (error) {
      this.fail(call, embedderFailure(error));
    }
  }

  private succeed(call: Call): void {
    if (call.settled) return;
    call.settled = true;
    call.cleanup();
    this.completed++;
    call.resolve(call.results);
  }

  /** Rejects a call once and drops its chunks that have not run. */
  private fail(call: Call, error: EngramError): void {
    if (call.settled) return;
    call.settled = true;
    call.cleanup();
    const line = this.lines[call.priority];
    if (line.some((chunk) => chunk.call === call)) {
      this.lines[call.priority] = line.filter((chunk) => chunk.call !== call);
    }
    call.reject(this.count(error));
  }

  private count(error: EngramError): EngramError {
    this.failed++;
    this.lastError = error.message;
    return error;
  }
}

function validate(texts: readonly string[], options: EmbedRequestOptions): void {
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
    throw invalidInput('texts', 'string_array', 'texts must be an array of strings');
  }
  if (!EMBED_PRIORITIES.includes(options?.priority)) {
    throw invalidInput(
      'priority',
      'enum',
      `priority must be one of ${EMBED_PRIORITIES.join(', ')}`,
    );
  }
  const { timeoutMs } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw invalidInput('timeoutMs', 'positive', 'timeoutMs must be a positive number');
  }
}

function timeoutError(timeoutMs: number): EngramError {
  return new EngramError(
    'EMBEDDER_UNAVAILABLE',
    `embedding did not finish within ${timeoutMs} ms`,
    {
      rule: 'semantic_budget_exceeded',
      reason: 'timeout',
    },
  );
}

function abortedError(): EngramError {
  return new EngramError('EMBEDDER_UNAVAILABLE', 'embedding was aborted', {
    rule: 'semantic_budget_exceeded',
    reason: 'aborted',
  });
}

function closedError(): EngramError {
  return new EngramError('EMBEDDER_UNAVAILABLE', 'embedding queue is closed', {
    rule: 'queue_closed',
    reason: 'closed',
  });
}

/** Embedder failures keep their EngramError; anything else means the embedder is unusable. */
function embedderFailure(error: unknown): EngramError {
  if (isEngramError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new EngramError(
    'EMBEDDER_UNAVAILABLE',
    `embedder failed: ${message}`,
    { rule: 'embedder_failed' },
    { cause: error },
  );
}

/**
 * Where extraction runs: in a worker thread (the default), so the language model neither blocks
 * the thread serving requests nor adds its time to writes; or inline, when a worker is not wanted
 * or cannot start (then every extraction runs where it is asked for). One worker serves the whole
 * process, like the one model inline extraction loads.
 */
import type { Worker } from 'node:worker_threads';

import type { Extraction } from '../domain/graph.js';
import { startWorkerScript } from '../domain/worker-script.js';
import { extractMany, type ExtractOptions } from './extract.js';
import type { ExtractRequest } from './extract-worker.js';

/** Extracts the entities of texts. */
export interface Extractor {
  /** True when extraction runs beside the caller's thread (graph upkeep may then be deferred). */
  readonly concurrent: boolean;
  extractMany(texts: readonly string[]): Promise<Extraction[]>;
  close(): Promise<void>;
}

/** Extraction on the caller's thread. */
export class InlineExtractor implements Extractor {
  readonly concurrent = false;

  constructor(private readonly options: ExtractOptions) {}

  async extractMany(texts: readonly string[]): Promise<Extraction[]> {
    return extractMany(texts, this.options);
  }

  async close(): Promise<void> {}
}

type Reply = { id: number; results: Extraction[] } | { id: number; error: string };

const STARTUP_MS = 15_000;

/**
 * The model makes much short-lived garbage (a document object per text): with a young generation
 * larger than V8's default less of it is copied and promoted, which took 15-20% off the thread's
 * CPU time on the LoCoMo turns without raising its resident memory.
 */
const WORKER_LIMITS = { resourceLimits: { maxYoungGenerationSizeMb: 64 } };

/** The extraction worker script beside this module. */
function spawn(): Worker {
  return startWorkerScript(import.meta.url, 'extract-worker', WORKER_LIMITS);
}

/** The process's extraction thread: started on first use, kept (unreferenced) for reuse. */
class SharedWorker {
  private worker: Promise<Worker | null> | undefined;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private next = 0;

  /** The running worker, or null when it cannot run (then callers extract inline). */
  start(): Promise<Worker | null> {
    this.worker ??= new Promise((resolve) => {
      let worker: Worker;
      try {
        worker = spawn();
      } catch {
        return resolve(null);
      }
      const timer = setTimeout(() => {
        void worker.terminate();
        resolve(null);
      }, STARTUP_MS);
      worker.on('message', (m: Reply | { ready: true }) => {
        if ('ready' in m) {
          clearTimeout(timer);
          worker.unref();
          return resolve(worker);
        }
        this.settle(m);
      });
      worker.once('error', () => {
        clearTimeout(timer);
        resolve(null);
      });
      // A worker that stops leaves its work to the callers' threads, and is started anew on use.
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve(null);
        this.worker = undefined;
        for (const [id, done] of this.pending) done({ id, error: 'the extraction worker stopped' });
        this.pending.clear();
      });
    });
    return this.worker;
  }

  private settle(reply: Reply): void {
    this.pending.get(reply.id)?.(reply);
    this.pending.delete(reply.id);
    if (this.pending.size === 0) void this.worker?.then((w) => w?.unref());
  }

  /** Stops the worker unless it owes an answer (it restarts on the next use). */
  async stopIdle(): Promise<void> {
    if (this.pending.size > 0) return;
    await (await this.worker)?.terminate();
  }

  async request(texts: string[], options: ExtractOptions): Promise<Reply | null> {
    const worker = await this.start();
    if (!worker) return null;
    const id = this.next++;
    return new Promise<Reply>((resolve) => {
      // Referenced while it owes an answer, so the process cannot end under a pending write.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, resolve);
      const request: ExtractRequest = { id, texts, options };
      worker.postMessage(request);
    });
  }
}

const shared = new SharedWorker();

/**
 * Starts the process's extraction worker ahead of its first use; the worker loads the language
 * model as it starts. A short-lived process that is about to write (one `engram remember`) calls
 * this first thing, so the model loads while the process reads its configuration and the store.
 */
export function startExtractionWorker(): void {
  void shared.start();
}

/** Stops the worker when nothing waits on it: for a process that started it ahead and won't use it. */
export async function stopExtractionWorker(): Promise<void> {
  await shared.stopIdle();
}

/** Extraction in the process's worker thread; inline when the worker cannot run. */
export class WorkerExtractor implements Extractor {
  readonly concurrent = true;
  private readonly inline: InlineExtractor;
  private closed = false;

  constructor(private readonly options: ExtractOptions) {
    this.inline = new InlineExtractor(options);
  }

  async extractMany(texts: readonly string[]): Promise<Extraction[]> {
    if (texts.length === 0) return [];
    const reply = this.closed ? null : await shared.request([...texts], this.options);
    // Extraction is deterministic, so work the worker could not do is done here the same way.
    return reply && 'results' in reply ? reply.results : this.inline.extractMany(texts);
  }

  /** Whether a worker thread serves the extraction (false when it could not start). */
  async usesWorker(): Promise<boolean> {
    return !this.closed && (await shared.start()) !== null;
  }

  /** Stops using the worker; the shared thread stays for other users (it holds no process open). */
  async close(): Promise<void> {
    this.closed = true;
  }
}

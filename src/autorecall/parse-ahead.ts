/**
 * Parsing a message in a worker thread, so that a short-lived process (one `engram hook
 * user-prompt`) loads the language model beside its other start-up work (the CLI, the
 * configuration, the store, the embedder) instead of after it. The thread can be started before
 * the text is known (`startParseWorker`, called by the CLI's entry) and is shared through a global
 * slot, so the entry and the bundled CLI, which do not share module instances, use one thread.
 * Anything that goes wrong yields null: the caller then parses on its own thread, with the same
 * result.
 */
import type { Worker } from 'node:worker_threads';

import { startWorkerScript } from '../domain/worker-script.js';
import type { ParsedText } from './nlp.js';
import type { ParseRequest } from './parse-worker.js';

type Reply = { id: number; parsed: ParsedText } | { id: number; error: string };

/** How long a parse may take in the worker before the caller parses on its own thread. */
const PARSE_TIMEOUT_MS = 10_000;

/** The process's parse thread and its unanswered requests. */
interface ParseThread {
  worker: Worker | null;
  pending: Map<number, (reply: Reply | null) => void>;
  next: number;
}

const SLOT = Symbol.for('engram.autorecall.parse-thread');
type Slot = { [SLOT]?: ParseThread };

function settleAll(thread: ParseThread): void {
  for (const done of thread.pending.values()) done(null);
  thread.pending.clear();
}

/**
 * Starts the process's parse thread if none runs; it loads the model at once and holds the
 * process open only while a parse is owed.
 */
export function startParseWorker(): void {
  const slot = globalThis as Slot;
  if (slot[SLOT]?.worker) return;
  const thread: ParseThread = { worker: null, pending: new Map(), next: 0 };
  slot[SLOT] = thread;
  let worker: Worker;
  try {
    worker = startWorkerScript(import.meta.url, 'parse-worker');
  } catch {
    return;
  }
  worker.on('message', (reply: Reply) => {
    thread.pending.get(reply.id)?.(reply);
    thread.pending.delete(reply.id);
    if (thread.pending.size === 0) worker.unref();
  });
  const stop = () => {
    thread.worker = null;
    settleAll(thread);
  };
  worker.once('error', stop);
  worker.once('exit', stop);
  // After the listeners: adding a message listener refs the worker again.
  worker.unref();
  thread.worker = worker;
}

/**
 * Parses `text` in the parse thread (started now if the entry did not start it): the parse, or
 * null when the thread could not run or answer in time.
 */
export function parseAhead(text: string): Promise<ParsedText | null> {
  startParseWorker();
  const thread = (globalThis as Slot)[SLOT];
  const worker = thread?.worker;
  if (!thread || !worker) return Promise.resolve(null);
  const id = thread.next++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(null), PARSE_TIMEOUT_MS);
    timer.unref();
    const done = (reply: Reply | null) => {
      clearTimeout(timer);
      thread.pending.delete(id);
      resolve(reply && 'parsed' in reply ? reply.parsed : null);
    };
    thread.pending.set(id, done);
    worker.ref();
    const request: ParseRequest = { id, text };
    worker.postMessage(request);
  });
}

/** Stops the parse thread (a long-running process that parsed ahead once and is done with it). */
export async function stopParseWorker(): Promise<void> {
  const thread = (globalThis as Slot)[SLOT];
  const worker = thread?.worker;
  if (!thread || !worker) return;
  thread.worker = null;
  settleAll(thread);
  await worker.terminate();
}

/**
 * Child processes of the transition benchmark: a phase run to its end (bench/transition/phase.ts),
 * and long-lived ones (a serving process, the embeddings stand-in) that report ready, run until
 * told to stop on stdin, and then report their result. Each speaks in `@@tag <json>` lines.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

import type { Phase } from './phase.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const PHASE = join(ROOT, 'bench', 'transition', 'phase.ts');
const STANDIN = join(ROOT, 'bench', 'transition', 'standin.ts');
/** A process that runs longer than this is killed and the benchmark fails. */
const TIMEOUT_MS = 20 * 60_000;

/** A long-lived child: its ready report, then its result once stopped. */
export interface Running<R, T> {
  pid: number;
  ready: R;
  /** Epoch ms of the spawn. */
  spawned_at: number;
  stop(): Promise<T>;
}

/** Parses `@@tag <json>` lines of a child's stdout as they come. */
function tagged(child: ChildProcess, on: (tag: string, value: unknown) => void): void {
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const match = /^@@(\w+) (.*)$/.exec(line);
      if (match) on(match[1]!, JSON.parse(match[2]!));
    }
  });
}

/** Starts a child speaking in tagged lines; resolves once it reports ready. */
function startTagged<R, T>(args: string[], label: string): Promise<Running<R, T>> {
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
  let ready: (value: R) => void;
  let result: (value: T) => void;
  const readyP = new Promise<R>((done) => (ready = done));
  const resultP = new Promise<T>((done, fail) => {
    result = done;
    child.on('close', (code) => {
      clearTimeout(timer);
      fail(new Error(`${label} exited ${code} without a result: ${stderr.slice(-3_000)}`));
    });
  });
  tagged(child, (tag, value) => {
    if (tag === 'ready') ready(value as R);
    if (tag === 'result') result(value as T);
  });
  return Promise.race([
    readyP,
    resultP.then(() => {
      throw new Error(`${label} ended before it was ready`);
    }),
  ]).then((r) => ({
    pid: child.pid!,
    ready: r,
    spawned_at: spawnedAt,
    stop: async () => {
      child.stdin!.end('stop\n');
      return resultP;
    },
  }));
}

/** Runs one phase in a fresh process and returns its result (with its spawn time, epoch ms). */
export async function runPhase<T>(phase: Phase): Promise<T & { spawned_at: number }> {
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', PHASE, JSON.stringify(phase)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let value: T | undefined;
  tagged(child, (tag, v) => tag === 'result' && (value = v as T));
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearTimeout(timer);
  if (code !== 0 || value === undefined)
    throw new Error(`phase ${phase.phase} exited ${code}: ${stderr.slice(-3_000)}`);
  if (stderr.trim()) process.stderr.write(`phase ${phase.phase} stderr: ${stderr.trim()}\n`);
  return { ...value, spawned_at: spawnedAt };
}

/** Starts a serving phase; resolves once it is warm and recalling. */
export function startServe<R, T>(phase: Extract<Phase, { phase: 'serve' }>) {
  return startTagged<R, T>([PHASE, JSON.stringify(phase)], 'serve');
}

/** What the stand-in reports when stopped. */
export interface StandInResult {
  requests: number;
  texts: number;
  request_sizes: Record<string, number>;
}

/** Starts the embeddings stand-in; resolves with its API root once it listens. */
export function startStandIn(dimension: number) {
  return startTagged<{ url: string; dimension: number }, StandInResult>(
    [STANDIN, String(dimension)],
    'stand-in',
  );
}

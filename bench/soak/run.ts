/**
 * Soak benchmark (`npm run bench:soak`): the engram service (bench/soak/server.ts, SQLite, in its own
 * process on 127.0.0.1) under a steady mixed load of remember, recall, revise, forget and export
 * from several concurrent clients for a bounded time. Reports errors (target 0), the p99 latency of
 * the first minute against the last (drift target <= 1.5x) and the server's resident memory after
 * warm-up against the end (growth target <= 10%), plus warnings the server logged. Results go to
 * bench/results/soak-<date>.{md,json} with the machine's facts.
 *
 * Settings (environment): SOAK_DURATION_S (300), SOAK_WARMUP_S (60), SOAK_CLIENTS (4),
 * SOAK_RATE (offered operations per second over all clients, 20), SOAK_ITEMS (memories stored
 * before the load starts, 5000).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

import { stringify } from 'yaml';

import { createEngram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import { queries, rng, sentences } from '../http/corpus.js';
import { machineFacts } from '../lib/machine.js';
import { type OpName, type Sample, type SoakResult, summarizeRun } from './analysis.js';
import { soakMarkdown } from './report.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 300);
const WARMUP_S = Number(process.env.SOAK_WARMUP_S ?? 60);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 4);
const RATE = Number(process.env.SOAK_RATE ?? 20);
const ITEMS = Number(process.env.SOAK_ITEMS ?? 5000);
const RSS_EVERY_MS = 5_000;

/** The share of each operation in the load. */
const MIX: [OpName, number][] = [
  ['recall', 0.55],
  ['remember', 0.15],
  ['revise', 0.15],
  ['forget', 0.12],
  ['export', 0.03],
];

function cacheDir(): string | undefined {
  const test = join(ROOT, 'node_modules', '.cache', 'engram-test');
  return existsSync(test) ? test : undefined;
}

/** Stores ITEMS memories in process before the server starts; returns their ids. */
async function seed(config: string): Promise<{ ids: string[]; seconds: number }> {
  // Graph extraction inline: the server starts with no work queued from the seeding.
  const engram = createEngram({
    configFile: config,
    config: { graph: { worker: false } },
    env: {},
    logger: silentLogger,
  });
  await engram.prepareModels();
  const started = performance.now();
  const ids: string[] = [];
  const all = sentences(ITEMS);
  for (let i = 0; i < all.length; i += 500) {
    const batch = all.slice(i, i + 500).map((body, j) => ({ body: `${body} (seed ${i + j})` }));
    for (const r of await engram.rememberMany(batch)) if (r.ok) ids.push(r.memory.id);
  }
  await engram.backfill();
  await engram.close();
  return { ids, seconds: Math.round((performance.now() - started) / 10) / 100 };
}

/** Starts the server process; resolves with its URL once it listens. */
function startServer(config: string, log: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench', 'soak', 'server.ts'), config],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ENGRAM_CONFIG: '' } },
  );
  createInterface({ input: child.stderr! }).on('line', (line) => log.push(line));
  return new Promise((resolveStart, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{'))
        resolveStart({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited with ${code}: ${log.join('\n')}`)),
    );
  });
}

/** Resident memory of a process in MiB (Linux /proc). */
function rssMib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

/** Live memory ids shared by the clients (revise and forget pick from it). */
class Pool {
  constructor(private readonly ids: string[]) {}
  pick(r: () => number): string | undefined {
    return this.ids[Math.floor(r() * this.ids.length)];
  }
  add(id: string): void {
    this.ids.push(id);
  }
  take(r: () => number): string | undefined {
    if (this.ids.length === 0) return undefined;
    const i = Math.floor(r() * this.ids.length);
    const id = this.ids[i]!;
    this.ids[i] = this.ids[this.ids.length - 1]!;
    this.ids.pop();
    return id;
  }
  get size(): number {
    return this.ids.length;
  }
}

/** One operation over HTTP: its status (0 for a network error). */
async function perform(
  op: OpName,
  url: string,
  pool: Pool,
  r: () => number,
  text: () => string,
  query: () => string,
): Promise<number> {
  const base = `${url}/v1/spaces/default`;
  const json = (method: string, body: unknown) => ({
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  let res: Response;
  if (op === 'recall') res = await fetch(`${base}/recall`, json('POST', { query: query(), k: 5 }));
  else if (op === 'remember') {
    res = await fetch(`${base}/memories`, json('POST', { body: text() }));
    if (res.ok) pool.add(((await res.json()) as { memory: { id: string } }).memory.id);
    return res.status;
  } else if (op === 'revise')
    res = await fetch(`${base}/memories/${pool.pick(r)}`, json('PATCH', { body: text() }));
  else if (op === 'forget') {
    const id = pool.take(r);
    res = await fetch(`${base}/memories/${id}`, { method: 'DELETE' });
  } else res = await fetch(`${base}/export`);
  await res.arrayBuffer();
  return res.status;
}

function chooser(r: () => number): () => OpName {
  return () => {
    let x = r();
    for (const [op, share] of MIX) if ((x -= share) < 0) return op;
    return 'recall';
  };
}

/** One client: operations at its share of the offered rate until `end`. */
async function client(
  index: number,
  url: string,
  pool: Pool,
  t0: number,
  end: number,
  samples: Sample[],
): Promise<void> {
  const r = rng(1000 + index);
  const choose = chooser(r);
  const bodies = sentences(5000, 500 + index);
  const qs = queries(500, 700 + index);
  let n = 0;
  const text = () => `${bodies[n % bodies.length]} (client ${index}, op ${n})`;
  const query = () => qs[n % qs.length]!;
  const interval = (1000 * CLIENTS) / RATE;
  for (let next = performance.now(); ; next += interval, n++) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    const start = performance.now();
    if (start >= end) return;
    const op = choose();
    let status: number;
    try {
      status = await perform(op, url, pool, r, text, query);
    } catch {
      status = 0;
    }
    samples.push({ op, at_s: (start - t0) / 1000, ms: performance.now() - start, status });
  }
}

async function main(): Promise<void> {
  const machine = machineFacts();
  const dir = mkdtempSync(join(tmpdir(), 'engram-soak-'));
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({
      store: { path: join(dir, 'engram.db') },
      embedder: cacheDir() ? { cache_dir: cacheDir() } : {},
      server: { host: '127.0.0.1', port: 0 },
    }),
  );
  const seeded = await seed(config);
  const log: string[] = [];
  const { child, url } = await startServer(config, log);
  const pool = new Pool(seeded.ids);
  const samples: Sample[] = [];
  const rss: { at_s: number; mib: number }[] = [];
  const t0 = performance.now();
  const sampleRss = () =>
    rss.push({ at_s: (performance.now() - t0) / 1000, mib: rssMib(child.pid!) });
  sampleRss();
  const sampler = setInterval(sampleRss, RSS_EVERY_MS);
  const end = t0 + DURATION_S * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) => client(i, url, pool, t0, end, samples)),
  );
  sampleRss();
  clearInterval(sampler);
  child.kill('SIGTERM');
  const exit = await new Promise<number | null>((done) => child.once('exit', done));
  const result: SoakResult = {
    machine,
    load_average_after: loadavg().map((l) => Math.round(l * 100) / 100),
    settings: {
      duration_s: DURATION_S,
      warmup_s: WARMUP_S,
      clients: CLIENTS,
      rate: RATE,
      items: ITEMS,
      mix: Object.fromEntries(MIX),
    },
    seed_seconds: seeded.seconds,
    live_items_at_end: pool.size,
    server_exit_code: exit,
    ...summarizeRun(samples, rss, log, DURATION_S, WARMUP_S),
  };
  rmSync(dir, { recursive: true, force: true });
  const out = join(ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const date = machine.date.slice(0, 10);
  writeFileSync(join(out, `soak-${date}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(out, `soak-${date}.md`), soakMarkdown(result));
  process.stdout.write(soakMarkdown(result));
}

await main();

/**
 * HTTP recall benchmark (`npm run bench:http`): a 10k-item store of realistic sentences; recall
 * in process (sequential), then over HTTP against the built `engram serve` in its own process,
 * driven by autocannon at 1, 8 and 32 connections. Reports requests/s and p50/p95/p99, the ratio
 * to in-process recall, and the HTTP overhead at p50 (target ≤ 2 ms), measured on paired
 * back-to-back recalls of the same query so that a shared machine's shifting load cancels. Results go to
 * bench/results/http-<date>.{md,json} with the machine's facts.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, freemem, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

import autocannon from 'autocannon';
import { stringify } from 'yaml';

import { createEngram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import { queries, sentences } from './corpus.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = [1, 8, 32];
const QUERY_COUNT = 200;

/** Latency summary of a list of milliseconds. */
interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

function summarize(ms: number[]): Summary {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    count: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
  };
}

function buildDist(): void {
  try {
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        join(ROOT, 'tsconfig.build.json'),
      ],
      { stdio: 'pipe' },
    );
  } catch (err) {
    // Status 2: type errors elsewhere in the tree; tsc still wrote dist/.
    if ((err as { status?: number }).status !== 2) throw err;
  }
}

function cacheDir(): string | undefined {
  const test = join(ROOT, 'node_modules', '.cache', 'engram-test');
  return existsSync(test) ? test : undefined;
}

async function ingest(config: string): Promise<{ seconds: number; perSecond: number }> {
  const engram = createEngram({
    configFile: config,
    env: {},
    logger: silentLogger,
    background: false,
  });
  await engram.prepareModels();
  const all = sentences(ITEMS);
  const started = performance.now();
  for (let i = 0; i < all.length; i += 500)
    await engram.rememberMany(
      all
        .slice(i, i + 500)
        .map((body, j) => ({ body, kind: 'fact', area: `bench/${(i + j) % 20}` })),
    );
  await engram.backfill();
  const seconds = (performance.now() - started) / 1000;
  await engram.close();
  return { seconds: Math.round(seconds * 100) / 100, perSecond: Math.round(ITEMS / seconds) };
}

async function inProcess(config: string, qs: string[]): Promise<Summary & { rps: number }> {
  const engram = createEngram({
    configFile: config,
    env: {},
    logger: silentLogger,
    background: false,
  });
  await engram.prepareModels();
  for (const query of qs) await engram.recall({ query, k: 5 });
  const latencies: number[] = [];
  const started = performance.now();
  while (performance.now() - started < DURATION_S * 1000) {
    const t = performance.now();
    await engram.recall({ query: qs[latencies.length % qs.length]!, k: 5 });
    latencies.push(performance.now() - t);
  }
  const rps = latencies.length / ((performance.now() - started) / 1000);
  await engram.close();
  return { ...summarize(latencies), rps: Math.round(rps) };
}

function startServer(config: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist', 'bin', 'engram.js'), '--config', config, 'serve'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ENGRAM_LOG_LEVEL: 'error' },
    },
  );
  return new Promise((resolvePromise, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/[^\s/]+)\/v1/.exec(out)?.[1];
      if (url) resolvePromise({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`engram serve exited with ${code}`)));
  });
}

async function load(url: string, connections: number, qs: string[], seconds: number) {
  const latencies: number[] = [];
  let i = 0;
  const options: autocannon.Options = {
    url: `${url}/v1/spaces/default/recall`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ query: qs[i++ % qs.length], k: 5 }),
        }),
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolveRun, reject) => {
    const instance = autocannon(options, (err, done) => (err ? reject(err) : resolveRun(done)));
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) latencies.push(ms);
    });
  });
  return {
    connections,
    rps: Math.round(latencies.length / result.duration),
    ...summarize(latencies),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** A recall client: sends one recall, returns the client-side latency and the server's own time. */
type RecallClient = (query: string) => Promise<{ ms: number; server: number }>;

/** The recall client on `fetch` (undici, bundled with Node). */
function fetchClient(url: string): RecallClient {
  return async (query) => {
    const t = performance.now();
    const res = await fetch(`${url}/v1/spaces/default/recall`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, k: 5 }),
    });
    const body = (await res.json()) as { timings_ms: { total: number } };
    return { ms: performance.now() - t, server: body.timings_ms.total };
  };
}

/** The recall client on `node:http` with a keep-alive agent, as a lean service client would be. */
function nodeHttpClient(url: string): { client: RecallClient; close: () => void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(url);
  const client: RecallClient = (query) =>
    new Promise((resolveCall, reject) => {
      const t = performance.now();
      const payload = JSON.stringify({ query, k: 5 });
      const req = httpRequest(
        {
          host: hostname,
          port,
          path: '/v1/spaces/default/recall',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => {
            const body = JSON.parse(text) as { timings_ms: { total: number } };
            resolveCall({ ms: performance.now() - t, server: body.timings_ms.total });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { client, close: () => agent.destroy() };
}

/** Paired overhead of one client. */
interface Overhead {
  /** HTTP recall minus the in-process recall of the same query, run back to back. */
  paired: Summary;
  /** Client latency minus the server's own `timings_ms.total`. */
  direct: Summary;
}

/**
 * Paired overhead, robust to a machine whose load shifts: for each query, one in-process recall
 * and one HTTP recall per client back to back (rotating which goes first), on the same store.
 * Reports, per client, the distribution of (HTTP - in-process) and of (client latency - the
 * server's own recall time).
 */
async function pairedOverhead(config: string, url: string, qs: string[], n: number) {
  const engram = createEngram({
    configFile: config,
    env: {},
    logger: silentLogger,
    background: false,
  });
  await engram.prepareModels();
  for (const query of qs.slice(0, 50)) await engram.recall({ query, k: 5 });
  const lean = nodeHttpClient(url);
  const clients: [string, RecallClient][] = [
    ['node:http', lean.client],
    ['fetch', fetchClient(url)],
  ];
  const paired = clients.map(() => [] as number[]);
  const direct = clients.map(() => [] as number[]);
  for (let j = 0; j < n; j++) {
    const query = qs[j % qs.length]!;
    const local = async () => {
      const t = performance.now();
      await engram.recall({ query, k: 5 });
      return performance.now() - t;
    };
    for (let c = 0; c < clients.length; c++) {
      const call = clients[c]![1];
      let inProc: number;
      let http: { ms: number; server: number };
      if ((j + c) % 2 === 0) {
        inProc = await local();
        http = await call(query);
      } else {
        http = await call(query);
        inProc = await local();
      }
      paired[c]!.push(http.ms - inProc);
      direct[c]!.push(http.ms - http.server);
    }
  }
  lean.close();
  await engram.close();
  return Object.fromEntries(
    clients.map(([name], c) => [
      name,
      { paired: summarize(paired[c]!), direct: summarize(direct[c]!) },
    ]),
  ) as Record<'node:http' | 'fetch', Overhead>;
}

function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memory_gb: Math.round(totalmem() / 1e9),
    free_memory_gb: Math.round(freemem() / 1e9),
    load_average: loadavg().map((x) => Math.round(x * 100) / 100),
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

type LoadResult = Awaited<ReturnType<typeof load>>;

/** Everything one run measured. */
interface Results {
  date: string;
  items: number;
  duration_s: number;
  machine: ReturnType<typeof machine>;
  machine_after: ReturnType<typeof machine>;
  ingest: { seconds: number; perSecond: number };
  in_process: Summary & { rps: number };
  http: LoadResult[];
  overhead_p50_ms: number;
  p50_difference_ms: number;
  /** Per client: node:http (keep-alive agent) and fetch. */
  overhead: Record<'node:http' | 'fetch', Overhead>;
  target_overhead_p50_ms: number;
}

function report(r: Results): string {
  const rows = r.http
    .map(
      (h) =>
        `| HTTP, ${h.connections} conn | ${h.rps} | ${h.p50} | ${h.p95} | ${h.p99} | ${(h.rps / r.in_process.rps).toFixed(2)} | ${h.non2xx + h.errors} |`,
    )
    .join('\n');
  const m = r.machine;
  const o = r.overhead['node:http'];
  const overheadRows = Object.entries(r.overhead)
    .map(
      ([name, x]) =>
        `| ${name} | ${x.paired.p50} | ${x.paired.p95} | ${x.paired.p99} | ${x.direct.p50} | ${x.direct.p95} |`,
    )
    .join('\n');
  return `# HTTP recall benchmark, ${r.date}

${r.items} items of generated sentences (bench/http/corpus.ts), SQLite store, static embedder, k = 5,
${QUERY_COUNT} distinct queries in rotation, ${r.duration_s} s per run. The server is the built
\`engram serve\` in its own process; autocannon runs in the benchmark process. Ingest: ${r.ingest.seconds} s
(${r.ingest.perSecond} items/s, embedding included).

| run | requests/s | p50 ms | p95 ms | p99 ms | ratio to in-process req/s | errors |
|---|---|---|---|---|---|---|
| in process, sequential | ${r.in_process.rps} | ${r.in_process.p50} | ${r.in_process.p95} | ${r.in_process.p99} | 1.00 | 0 |
${rows}

**HTTP overhead at p50: ${r.overhead_p50_ms} ms** (target ≤ 2 ms): the median over ${o.paired.count}
queries of (HTTP recall − in-process recall of the same query, run back to back on the same store,
1 connection, a \`node:http\` client with a keep-alive agent).

| client | paired overhead p50 ms | p95 ms | p99 ms | client latency − server \`timings_ms.total\`, p50 ms | p95 ms |
|---|---|---|---|---|---|
${overheadRows}

The \`fetch\` row is Node's bundled undici client, measured interleaved with the first in the
same loop: the difference between the rows is the client library's own cost. (The difference of
the two unpaired p50s in the first table, ${r.p50_difference_ms} ms, is measured minutes apart with
autocannon as the client and moves with the machine's load.)

Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB RAM, ${m.os}, Node ${m.node}. Load average
before ${m.load_average.join(' / ')}, after ${r.machine_after.load_average.join(' / ')}: the machine is
shared with other work, so absolute numbers are noisy; with 2 cores, the load generator and the server
compete for CPU at 8 and 32 connections, so those rows understate the server.
`;
}

async function main(): Promise<void> {
  const before = machine();
  process.stderr.write('bench:http building dist/...\n');
  buildDist();
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-http-'));
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({
      store: { path: join(dir, 'engram.db') },
      embedder: { cache_dir: cacheDir() },
      server: { port: 0 },
    }),
  );
  let server: ChildProcess | undefined;
  try {
    process.stderr.write(`bench:http ingesting ${ITEMS} items...\n`);
    const ingested = await ingest(config);
    const qs = queries(QUERY_COUNT);
    process.stderr.write('bench:http in-process recall...\n');
    const local = await inProcess(config, qs);
    const started = await startServer(config);
    server = started.child;
    await load(started.url, 8, qs, 3); // warm-up: vector mirror, JIT, connections
    const http = [];
    for (const c of CONNECTIONS) {
      process.stderr.write(`bench:http autocannon, ${c} connections...\n`);
      http.push(await load(started.url, c, qs, DURATION_S));
    }
    process.stderr.write('bench:http paired in-process / HTTP recalls...\n');
    const overhead = await pairedOverhead(config, started.url, qs, 1000);
    const results: Results = {
      date: new Date().toISOString(),
      items: ITEMS,
      duration_s: DURATION_S,
      machine: before,
      machine_after: machine(),
      ingest: ingested,
      in_process: local,
      http,
      overhead_p50_ms: overhead['node:http'].paired.p50,
      p50_difference_ms: Math.round((http[0]!.p50 - local.p50) * 1000) / 1000,
      overhead,
      target_overhead_p50_ms: 2,
    };
    const out = join(ROOT, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    const stamp = results.date.slice(0, 10);
    writeFileSync(join(out, `http-${stamp}.json`), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(out, `http-${stamp}.md`), report(results));
    process.stdout.write(report(results));
  } finally {
    if (server) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:http failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});

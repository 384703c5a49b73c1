/**
 * CLI start-up benchmark (`npm run bench:cli`): process wall time of the built `engram` for
 * `--version`, `--help`, `search` and `remember` against a 10k-memory SQLite store, 20 runs each,
 * interleaved. Builds dist/ first when it is missing or older than src/. Reports p50/p95/min with
 * the machine's facts and its load before and after, in bench/results/cli-<date>.{md,json}.
 * Targets on a quiet machine: --version and --help p50 ≤ 150 ms; search and remember ≤ 400 ms;
 * the user-prompt hook's p95 ≤ 300 ms, measured in its own process and asking an `engram serve`
 * that the bench starts on the same store (auto-recall on, a new conversation every run, so every
 * run searches).
 * BENCH_BASELINE_CLI=<another build's main.js> (and BENCH_BASELINE_LABEL, what it is) also
 * measures that build, run for run beside this one, so a loaded machine still shows the difference.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

import { stringify } from 'yaml';

import { bundleCli } from '../../scripts/build/bundle-cli.mjs';
import { createEngram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import { queries, sentences } from '../http/corpus.js';
import { machineFacts } from '../lib/machine.js';
import { percentile } from '../lib/metrics.js';
import { cliReport, type CliResults, type CommandTimes, type Target } from './report.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'bin', 'engram.js');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
const BASELINE = process.env.BENCH_BASELINE_CLI ? resolve(process.env.BENCH_BASELINE_CLI) : null;
/**
 * The code caches of the measured builds, in a folder of this run: each build's first (warm-up)
 * run of a command writes its cache, never an earlier run elsewhere (a test's `--help`, say).
 */
const CODE_CACHE = mkdtempSync(join(tmpdir(), 'engram-bench-cli-cache-'));

/** The newest modification time of the files under a folder. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile())
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  return latest;
}

/** Compiles src/ to dist/ and bundles the CLI, unless the bundle is newer than every source file. */
async function ensureBuilt(): Promise<void> {
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newest(join(ROOT, 'src'))) return;
  process.stderr.write('bench:cli building dist/...\n');
  try {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
      stdio: 'pipe',
    });
  } catch (err) {
    // Status 2: type errors somewhere in the tree; tsc still wrote dist/.
    if ((err as { status?: number }).status !== 2) throw err;
  }
  await bundleCli(join(ROOT, 'dist'));
}

/** The shared word-vector cache of the tests when present (skips building it again). */
function cacheDir(): string | undefined {
  const test = join(ROOT, 'node_modules', '.cache', 'engram-test');
  return existsSync(test) ? test : undefined;
}

/** Writes the configuration and fills the store with generated memories; returns seconds taken. */
async function prepareStore(config: string): Promise<number> {
  const engram = createEngram({ configFile: config, env: {}, logger: silentLogger });
  await engram.prepareModels();
  const started = performance.now();
  const all = sentences(ITEMS);
  for (let i = 0; i < all.length; i += 500)
    await engram.rememberMany(
      all
        .slice(i, i + 500)
        .map((body, j) => ({ body, kind: 'fact', area: `bench/${(i + j) % 20}` })),
      { strict: true },
    );
  await engram.backfill();
  await engram.configureAutoRecall({ enabled: true });
  await engram.close({ drainMs: 60_000 });
  return Math.round((performance.now() - started) / 10) / 100;
}

/** Milliseconds of CPU the finished children of this process used (Linux), else null. */
function childCpuMs(): number | null {
  try {
    // Fields after the command name: cutime and cstime are the 14th and 15th (clock ticks).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

/** One benchmarked command: its label, its target, and its arguments for run `i` of a build. */
interface Bench {
  command: string;
  target: Target;
  args: (i: number, build: number) => string[];
  /** What the command reads on stdin in run `i` of a build, if anything. */
  stdin?: (i: number, build: number) => string;
}

/** A Claude Code user-prompt event: a new conversation every run, so none is in its cooldown. */
function promptEvent(query: string, tag: string): string {
  return JSON.stringify({
    session_id: `bench-${process.pid}-${tag}`,
    transcript_path: '/tmp/transcript.jsonl',
    cwd: '/tmp',
    hook_event_name: 'UserPromptSubmit',
    prompt: query,
  });
}

function benches(config: string, server: string): Bench[] {
  const qs = queries(RUNS + WARMUP);
  const texts = sentences(RUNS + WARMUP, 4242);
  const p50 = (ms: number): Target => ({ stat: 'p50', ms });
  return [
    { command: 'engram --version', target: p50(150), args: () => ['--version'] },
    { command: 'engram --help', target: p50(150), args: () => ['--help'] },
    {
      command: 'engram search "<query>"',
      target: p50(400),
      args: (i) => ['--config', config, 'search', qs[i]!],
    },
    {
      command: 'engram remember "<text>"',
      target: p50(400),
      // A new text for every run of every build: a duplicate would take a shorter path.
      args: (i, build) => ['--config', config, 'remember', `${texts[i]!} (note ${i}.${build})`],
    },
    {
      command: 'engram hook user-prompt',
      target: { stat: 'p95', ms: 300 },
      args: () => ['--config', config, 'hook', 'user-prompt'],
      stdin: (i, build) => promptEvent(qs[i]!, `local-${build}-${i}`),
    },
    {
      command: 'engram hook user-prompt --server <url>',
      target: { stat: 'p95', ms: 300 },
      args: () => ['--config', config, 'hook', 'user-prompt', '--server', server],
      stdin: (i, build) => promptEvent(qs[i]!, `server-${build}-${i}`),
    },
  ];
}

/**
 * Starts `engram serve` on the store at any free port; resolves with the process and its URL once
 * its embedder is ready (the health check says so), so no measured run waits for it.
 */
async function startServer(config: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, '--config', config, 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s/]+)\/v1/u.exec(out);
      if (m) resolveUrl(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`engram serve exited ${code}: ${stderr}`)));
  });
  for (;;) {
    const health = (await (await fetch(`${url}/v1/health`)).json()) as {
      components?: { embedder?: { loaded?: boolean } };
    };
    if (health.components?.embedder?.loaded) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs a CLI once; returns its wall and CPU milliseconds. */
function runOnce(
  cli: string,
  args: string[],
  stdin?: string,
): { wall: number; cpu: number | null } {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    XDG_CACHE_HOME: CODE_CACHE,
  };
  const cpuBefore = childCpuMs();
  const started = performance.now();
  const child = spawnSync(process.execPath, [cli, ...args], {
    env,
    encoding: 'utf8',
    input: stdin ?? '',
  });
  const wall = performance.now() - started;
  const cpuAfter = childCpuMs();
  if (child.status !== 0 || (stdin !== undefined && !child.stdout.includes('additionalContext')))
    throw new Error(
      `engram ${args.join(' ')} exited ${child.status} (${child.stdout.length} characters out): ${child.stderr}`,
    );
  const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return { wall, cpu };
}

const round = (x: number) => Math.round(x * 10) / 10;

function summarize(bench: Bench, wall: number[], cpu: (number | null)[]): CommandTimes {
  const cpus = cpu.filter((x): x is number => x !== null);
  return {
    command: bench.command,
    runs: wall.length,
    wall_ms: {
      p50: round(percentile(wall, 50)),
      p95: round(percentile(wall, 95)),
      min: round(Math.min(...wall)),
      max: round(Math.max(...wall)),
    },
    cpu_ms:
      cpus.length === cpu.length
        ? {
            p50: round(percentile(cpus, 50)),
            p95: round(percentile(cpus, 95)),
            min: Math.min(...cpus),
          }
        : null,
    target: bench.target,
  };
}

/**
 * Runs every command of every build `RUNS` times after `WARMUP` runs, round-robin, so that shifts
 * in the machine's load hit every command and build alike. Returns the times per build.
 */
function measure(list: Bench[], builds: string[]): CommandTimes[][] {
  const wall = builds.map(() => list.map(() => [] as number[]));
  const cpu = builds.map(() => list.map(() => [] as (number | null)[]));
  for (let i = 0; i < WARMUP + RUNS; i++)
    list.forEach((bench, b) =>
      builds.forEach((cli, k) => {
        const t = runOnce(cli, bench.args(i, k), bench.stdin?.(i, k));
        if (i < WARMUP) return;
        wall[k]![b]!.push(t.wall);
        cpu[k]![b]!.push(t.cpu);
      }),
    );
  return builds.map((_, k) => list.map((bench, b) => summarize(bench, wall[k]![b]!, cpu[k]![b]!)));
}

async function main(): Promise<void> {
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-cli-'));
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({ store: { path: join(dir, 'engram.db') }, embedder: { cache_dir: cacheDir() } }),
  );
  try {
    process.stderr.write(`bench:cli writing ${ITEMS} memories...\n`);
    const storeSeconds = await prepareStore(config);
    const machine = machineFacts();
    const server = await startServer(config);
    process.stderr.write(`bench:cli ${RUNS} runs of each command...\n`);
    let measured: CommandTimes[][];
    try {
      measured = measure(benches(config, server.url), BASELINE ? [CLI, BASELINE] : [CLI]);
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
    const [commands, baseline] = measured;
    const results: CliResults = {
      date: machine.date,
      cli: relative(ROOT, CLI),
      items: ITEMS,
      store_seconds: storeSeconds,
      warmup_runs: WARMUP,
      machine,
      load_average_after: loadavg().map((l) => Math.round(l * 100) / 100),
      commands: commands!,
      baseline:
        BASELINE && baseline
          ? {
              label: process.env.BENCH_BASELINE_LABEL ?? 'another build',
              cli: BASELINE,
              commands: baseline,
            }
          : null,
    };
    const out = join(ROOT, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    const stamp = results.date.slice(0, 10);
    writeFileSync(join(out, `cli-${stamp}.json`), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(out, `cli-${stamp}.md`), cliReport(results));
    process.stdout.write(cliReport(results));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(CODE_CACHE, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:cli failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});

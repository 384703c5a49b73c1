/**
 * What moving WAL checkpoints to a worker thread does to recall (`store.checkpoint_thread`,
 * src/store/sqlite/checkpointer.ts): two copies of a store the scale benchmark built, one with the
 * thread (the default) and one with SQLite's own checkpoints in the committing call, asked the same
 * new questions in turn, so the machine's load falls on both alike. Each copy first answers
 * `--warmup` other questions, enough commits (one access write per recall) for the thread to run.
 * Reports wall p50 / p95 / p99 / max of the recall call and the recalls over 15 ms. Writes
 * bench/results/checkpoints-<date>.md and .json.
 *
 *   npm run bench:scale -- --sizes 100000 --dir /tmp/scale    (once: builds the store)
 *   npx tsx bench/scale/checkpoints.ts --store /tmp/scale/scale-100000.db [--queries 600] [--out DIR]
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

import { createEngram, type Engram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import { machineFacts, writeResults } from '../lib/machine.js';
import { queries } from './corpus.js';
import { percentile } from './stats.js';

const VARIANTS = [
  { name: 'checkpoint thread (the default)', thread: true },
  { name: 'checkpoints in the committing call', thread: false },
] as const;

/** A recall slower than this is a stall beside the usual few milliseconds. */
const SLOW_MS = 15;

const round = (n: number) => Math.round(n * 100) / 100;

/** Copies the store file and its index files into a fresh folder; returns the copy's path. */
function copyStore(store: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-checkpoints-'));
  const name = basename(store);
  for (const file of readdirSync(dirname(store)))
    if (file === name || file.startsWith(`${name}.`))
      cpSync(join(dirname(store), file), join(dir, file));
  return join(dir, name);
}

function open(path: string, thread: boolean): Engram {
  return createEngram({
    env: {},
    logger: silentLogger,
    background: false,
    config: {
      // As the scale benchmark's HNSW phase: the index on at any size.
      store: { path, ann: { enabled: true, min_items: 1 }, checkpoint_thread: thread },
    },
  });
}

/** Waits until the in-memory keyword index answers (it builds in the background). */
async function keywordIndexReady(engram: Engram): Promise<void> {
  for (;;) {
    const index = (await engram.status()).store.keyword_index;
    if (!index || (index.state === 'ready' && index.pending === 0)) return;
    await sleep(500);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      store: { type: 'string' },
      queries: { type: 'string', default: '600' },
      warmup: { type: 'string', default: '300' },
      seed: { type: 'string', default: '42' },
      out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
    },
  });
  if (!values.store || !existsSync(values.store))
    throw new Error('--store: the path of a store built by `npm run bench:scale -- --dir DIR`');
  const machine = machineFacts();
  const copies = VARIANTS.map(() => copyStore(values.store!));
  const engrams = VARIANTS.map((v, i) => open(copies[i]!, v.thread));
  try {
    for (const engram of engrams) {
      await engram.prepareModels();
      await engram.recall({ query: 'warm up', k: 10 });
      await keywordIndexReady(engram);
      for (const query of queries(Number(values.seed) + 1, Number(values.warmup)))
        await engram.recall({ query, k: 10 });
    }
    const asked = queries(Number(values.seed), Number(values.queries));
    const times: number[][] = VARIANTS.map(() => []);
    for (const query of asked)
      for (const [i, engram] of engrams.entries()) {
        const t = performance.now();
        await engram.recall({ query, k: 10 });
        times[i]!.push(performance.now() - t);
      }
    const rows = VARIANTS.map((v, i) => ({
      name: v.name,
      p50_ms: round(percentile(times[i]!, 0.5)),
      p95_ms: round(percentile(times[i]!, 0.95)),
      p99_ms: round(percentile(times[i]!, 0.99)),
      max_ms: round(Math.max(...times[i]!)),
      slow: times[i]!.filter((ms) => ms > SLOW_MS).length,
    }));
    const [thread, inCall] = rows as [(typeof rows)[0], (typeof rows)[0]];
    const ratio = (k: 'p50_ms' | 'p95_ms' | 'p99_ms' | 'max_ms') =>
      Math.round((thread[k] / inCall[k]) * 100) / 100;
    mkdirSync(values.out, { recursive: true });
    const stem = join(values.out, `checkpoints-${machine.date.slice(0, 10)}`);
    const payload = {
      machine,
      store: basename(values.store),
      questions: asked.length,
      warmup: Number(values.warmup),
      rows,
      ratio: {
        p50: ratio('p50_ms'),
        p95: ratio('p95_ms'),
        p99: ratio('p99_ms'),
        max: ratio('max_ms'),
      },
    };
    writeResults(stem, machine, payload, [
      `# WAL checkpoints in a worker thread — ${machine.date.slice(0, 10)}`,
      '',
      `Two copies of \`${payload.store}\` (built by \`npm run bench:scale\`), the HNSW index on, ` +
        `each warmed up with ${payload.warmup} other questions (one access write per recall, so ` +
        `the thread runs), then asked the same ${payload.questions} new questions in turn: ` +
        '`recall` with k = 10 through the public API, wall time of the call. Slow: recalls over ' +
        `${SLOW_MS} ms.`,
      '',
      '| variant | p50 ms | p95 ms | p99 ms | max ms | slow |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r) => `| ${r.name} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.max_ms} | ${r.slow} |`,
      ),
      '',
      `Thread / committing call: p50 ${payload.ratio.p50}x, p95 ${payload.ratio.p95}x, ` +
        `p99 ${payload.ratio.p99}x, max ${payload.ratio.max}x.`,
      '',
    ]);
    process.stderr.write(`wrote ${stem}.md and ${stem}.json\n`);
  } finally {
    for (const engram of engrams) await engram.close();
    for (const copy of copies) rmSync(dirname(copy), { recursive: true, force: true });
  }
}

await main();

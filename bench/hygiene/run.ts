/**
 * Consolidation benchmark (§10), through engram's public API on SQLite:
 * - quality: the synthetic corpus (corpus.ts) imported into a fresh store, one dream run with every
 *   stage (stale archival on, caps off), scored from the run's diary against the ground truth:
 *   merge precision and recall, fold precision (no wrong fold) and recall, stale precision and
 *   recall; and the preview's export hash before and after;
 * - speed: the same at `--items` (default 100k): the run's wall time and each stage's;
 * - LoCoMo: R@5/R@10 of each conversation's store before and after a dream run (locomo.ts).
 * Writes bench/results/hygiene-<date>.md and .json.
 *
 *   npx tsx bench/hygiene/run.ts [--quality 2000] [--items 100000] [--conversations 1-10] [--out DIR]
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { createEngram, type Engram } from '../../src/app.js';
import type { DreamDiary } from '../../src/domain/dreams.js';
import { silentLogger } from '../../src/domain/log.js';
import { exportLines } from '../../src/transfer/transfer.js';
import { machineFacts, machineMarkdown } from '../lib/machine.js';
import { benchCacheDir } from '../locomo/engram-store.js';
import { type Corpus, CORPUS_NOW, corpusRecord, expectedMerges, generateCorpus } from './corpus.js';
import { dreamLocomo, type LocomoDreamRow, locomoTable } from './locomo.js';

const log = (message: string) => process.stderr.write(`${message}\n`);

/** A fresh store holding the corpus with its vectors, its clock at the corpus's "now". */
async function storeOf(corpus: Corpus, dir: string): Promise<Engram> {
  // The store's clock stands at the corpus's "now", so ages are the ones the truth was made with.
  const engram = createEngram({
    config: {
      store: { path: join(dir, 'engram.db') },
      embedder: { cache_dir: benchCacheDir() },
      dream: {
        stale: { enabled: true, daily_cap: 100_000 },
        duplicates: { daily_cap: 100_000 },
        deadline_minutes: 45,
      },
    },
    env: {},
    logger: silentLogger,
    background: false,
    now: () => corpus.now,
  });
  const records = corpus.items.map(corpusRecord);
  for (let i = 0; i < records.length; i += 1_000)
    await engram.storeForTransfer.importItems(records.slice(i, i + 1_000));
  await engram.backfill();
  return engram;
}

async function exportHash(engram: Engram): Promise<string> {
  const hash = createHash('sha256');
  for await (const line of exportLines(engram, null))
    if (!line.includes('"type":"engram-export"')) hash.update(line);
  return hash.digest('hex');
}

/** Precision and recall of a set of found pairs/ids against the truth. */
interface Score {
  found: number;
  correct: number;
  expected: number;
  precision: number;
  recall: number;
}

function score(found: number, correct: number, expected: number): Score {
  return {
    found,
    correct,
    expected,
    precision: found === 0 ? 1 : correct / found,
    recall: expected === 0 ? 1 : correct / expected,
  };
}

/** Scores the diary of a run against the corpus's truth. */
function quality(corpus: Corpus, diary: DreamDiary) {
  const applied = diary.entries.filter((e) => e.outcome === 'applied');
  const cluster = new Map<string, number>();
  corpus.truth.clusters.forEach((c, i) => c.forEach((id) => cluster.set(id, i)));
  const merges = applied.filter((e) => e.action === 'merge');
  const goodMerges = merges.filter((e) => {
    const [a, b] = e.items as [string, string];
    return cluster.has(a) && cluster.get(a) === cluster.get(b);
  });
  const mergeable = expectedMerges(corpus);
  const folds = applied.filter((e) => e.action === 'fold');
  const truthFolds = new Set(corpus.truth.folds.map((f) => `${f.from}->${f.into}`));
  const goodFolds = folds.filter((e) =>
    truthFolds.has(`${e.detail.from_area}->${e.detail.to_area}`),
  );
  const archived = applied.filter((e) => e.action === 'archive').map((e) => e.items[0]!);
  const stale = new Set(corpus.truth.stale);
  return {
    merge: score(merges.length, goodMerges.length, mergeable),
    fold: score(folds.length, goodFolds.length, corpus.truth.folds.length),
    stale: score(archived.length, archived.filter((id) => stale.has(id)).length, stale.size),
  };
}

async function corpusRun(n: number, label: string) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-hygiene-'));
  try {
    log(`${label}: generating ${n} items...`);
    const corpus = generateCorpus({ n });
    const engram = await storeOf(corpus, dir);
    const before = await exportHash(engram);
    const previewStarted = performance.now();
    await engram.dreamPreview();
    const previewMs = performance.now() - previewStarted;
    const unchanged = (await exportHash(engram)) === before;
    log(`${label}: dream run over ${corpus.items.length} items...`);
    const started = performance.now();
    const diary = await engram.dreamRun();
    const runMs = performance.now() - started;
    await engram.close();
    return {
      items: corpus.items.length,
      preview_ms: Math.round(previewMs),
      preview_unchanged: unchanged,
      run_ms: Math.round(runMs),
      state: diary.run.state,
      quality: quality(corpus, diary),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function range(text: string): number[] {
  const [a, b] = text.split('-').map(Number);
  return Array.from({ length: (b ?? a!) - a! + 1 }, (_, i) => a! + i);
}

const f3 = (x: number) => x.toFixed(3);

function qualityTable(q: Awaited<ReturnType<typeof corpusRun>>['quality']): string {
  const row = (name: string, s: Score) =>
    `| ${name} | ${s.found} | ${s.correct} | ${s.expected} | ${f3(s.precision)} | ${f3(s.recall)} |`;
  return [
    '| change | applied | correct | planted | precision | recall |',
    '|---|---|---|---|---|---|',
    row('merge', q.merge),
    row('fold', q.fold),
    row('stale archive', q.stale),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quality: { type: 'string', default: '2000' },
      items: { type: 'string', default: '100000' },
      conversations: { type: 'string', default: '1-10' },
      out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
    },
  });
  const small = await corpusRun(Number(values.quality), 'quality');
  const large = await corpusRun(Number(values.items), 'speed');
  const locomo: LocomoDreamRow[] =
    values.conversations === '0' ? [] : await dreamLocomo(range(values.conversations!));
  const machine = machineFacts();
  const date = new Date().toISOString().slice(0, 10);
  mkdirSync(values.out!, { recursive: true });
  writeFileSync(
    join(values.out!, `hygiene-${date}.json`),
    `${JSON.stringify({ date, machine, small, large, locomo }, null, 2)}\n`,
  );
  const md = [
    `# Consolidation (dream runs), ${date}`,
    '',
    machineMarkdown(machine),
    '',
    `## Quality on the synthetic corpus (${small.items} items, CORPUS_NOW ${new Date(CORPUS_NOW).toISOString().slice(0, 10)})`,
    '',
    'One dream run with every stage (stale archival on, caps off), scored from its diary.',
    '',
    qualityTable(small.quality),
    '',
    `Preview: ${small.preview_ms} ms, export unchanged: ${small.preview_unchanged}. Run: ${small.run_ms} ms, ${small.state}.`,
    '',
    `## Speed (${large.items} items, SQLite)`,
    '',
    `Dream run: ${(large.run_ms / 1000).toFixed(1)} s wall (${large.state}). Preview ${(large.preview_ms / 1000).toFixed(1)} s, export unchanged: ${large.preview_unchanged}.`,
    '',
    qualityTable(large.quality),
    '',
    '## LoCoMo recall before and after a dream run (default settings)',
    '',
    'Conversations 1-5 were used while tuning; 6-10 are held out.',
    '',
    locomo.length > 0 ? locomoTable(locomo) : '(not run)',
    '',
  ].join('\n');
  writeFileSync(join(values.out!, `hygiene-${date}.md`), md);
  console.log(md);
}

await main();

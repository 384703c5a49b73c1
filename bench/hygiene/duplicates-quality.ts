/**
 * Near-duplicate quality: generates the synthetic consolidation corpus (corpus.ts), embeds it with
 * engram's built-in static embedder, runs findDuplicates with the configured defaults and prints
 * merge precision and recall against the planted ground truth (targets: precision >= 0.98, recall
 * >= 0.85), where the misses and the false merges come from, the calibration report and the time.
 * Prints markdown; writes no files.
 *
 *   npx tsx bench/hygiene/duplicates-quality.ts [--items 2000] [--seed 7] [--similarity 0.9]
 *     [--overlap 0.7] [--neighbours 5]
 */
import { parseArgs } from 'node:util';

import { configSchema } from '../../src/config/schema.js';
import { embeddingText } from '../../src/domain/text.js';
import { dot, type WordVectorLookup } from '../../src/embed/embedder.js';
import { StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import {
  calibrate,
  type DuplicateItem,
  type DuplicateSearch,
  findDuplicates,
} from '../../src/hygiene/duplicates.js';
import { compareTexts } from '../../src/hygiene/similarity.js';
import { NEVER_MERGED } from '../../src/memories/consolidation.js';
import { benchCacheDir } from '../locomo/engram-store.js';
import { type Corpus, type CorpusItem, expectedMerges, generateCorpus } from './corpus.js';

const defaults = configSchema.parse({}).dream.duplicates;
const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '7' },
    similarity: { type: 'string', default: String(defaults.similarity) },
    overlap: { type: 'string', default: String(defaults.overlap) },
    neighbours: { type: 'string', default: String(defaults.neighbours) },
  },
});
const settings = {
  similarity: Number(args.similarity),
  overlap: Number(args.overlap),
  neighbours: Number(args.neighbours),
};

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
const table = (head: string[], rows: (string | number)[][]) =>
  [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');

async function embedAll(embedder: StaticEmbedder, items: readonly CorpusItem[]) {
  const vectors = await embedder.embed(items.map((i) => embeddingText({ ...i, tags: [] })));
  return items.map(
    (i, n): DuplicateItem => ({
      id: i.id,
      kind: i.kind,
      text: embeddingText({ ...i, tags: [] }),
      vector: vectors[n] ?? null,
      pinned: i.pinned,
      importance: i.importance,
      use_count: i.use_count,
      access_count: i.access_count,
      created_at: i.created_at,
    }),
  );
}

/** Cluster of each item, and the merges each mergeable cluster should make. */
function truthOf(corpus: Corpus, items: readonly DuplicateItem[]) {
  const byId = new Map(items.map((i) => [i.id, i]));
  const clusterOf = new Map<string, number>();
  corpus.truth.clusters.forEach((cluster, c) => {
    for (const id of cluster) clusterOf.set(id, c);
  });
  const expected = expectedMerges(corpus, (id) => byId.get(id)?.vector != null);
  return { clusterOf, expected };
}

function score(corpus: Corpus, items: readonly DuplicateItem[], found: DuplicateSearch) {
  const { clusterOf, expected } = truthOf(corpus, items);
  const plant = new Map(corpus.items.map((i) => [i.id, i.plant]));
  const same = (a: string, b: string) => clusterOf.has(a) && clusterOf.get(a) === clusterOf.get(b);
  const merges = found.pairs.filter((p) => !p.skip);
  const correct = merges.filter((p) => same(p.keeper, p.lesser));
  const wrong = merges.filter((p) => !same(p.keeper, p.lesser));
  const wrongBy = count(wrong.map((p) => `${plant.get(p.keeper)} / ${plant.get(p.lesser)}`));
  const merged = new Set(correct.flatMap((p) => [p.keeper, p.lesser]));
  const missedBy = new Map<string, { planted: number; merged: number }>();
  for (const cluster of corpus.truth.clusters)
    for (const id of cluster.slice(1)) {
      const kind = items.find((i) => i.id === id)!.kind;
      if (NEVER_MERGED.includes(kind)) continue;
      const key = plant.get(id)!;
      const row = missedBy.get(key) ?? { planted: 0, merged: 0 };
      row.planted++;
      if (merged.has(id)) row.merged++;
      missedBy.set(key, row);
    }
  const far = missedBy.get('variant:synonym-far') ?? { planted: 0, merged: 0 };
  return {
    precision: merges.length === 0 ? 1 : correct.length / merges.length,
    recall: expected === 0 ? 1 : correct.length / expected,
    recallNear: (correct.length - far.merged) / (expected - far.planted),
    merges: merges.length,
    correct: correct.length,
    expected,
    wrongBy,
    missedBy,
  };
}

function count(keys: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of keys) out.set(k, (out.get(k) ?? 0) + 1);
  return out;
}

/** Why planted duplicates with close enough vectors were not merged (text rules only). */
function missReasons(corpus: Corpus, items: readonly DuplicateItem[], words: WordVectorLookup) {
  const byId = new Map(items.map((i) => [i.id, i]));
  const reasons: string[] = [];
  for (const [base, ...copies] of corpus.truth.clusters) {
    const a = byId.get(base!)!;
    if (NEVER_MERGED.includes(a.kind) || !a.vector) continue;
    for (const id of copies) {
      const b = byId.get(id)!;
      if (!b.vector) continue;
      const similarity = dot(a.vector, b.vector);
      const { overlap, guard } = compareTexts(a.text, b.text, words);
      reasons.push(
        similarity < settings.similarity
          ? 'similarity below threshold'
          : guard && guard !== 'words differ'
            ? guard
            : overlap < settings.overlap
              ? 'text overlap below threshold'
              : (guard ?? 'duplicate'),
      );
    }
  }
  return count(reasons);
}

async function main(): Promise<void> {
  const embedder = new StaticEmbedder({ cacheDir: benchCacheDir() });
  const words = await embedder.wordVectors();
  const corpus = generateCorpus({ n: Number(args.items), seed: Number(args.seed), words });
  let t = performance.now();
  const items = await embedAll(embedder, corpus.items);
  const embedMs = performance.now() - t;
  t = performance.now();
  const found = await findDuplicates(items, { ...settings, words });
  const findMs = performance.now() - t;
  t = performance.now();
  const report = await calibrate(items, { ...settings, words });
  const calibrateMs = performance.now() - t;
  const s = score(corpus, items, found);
  const out = [
    `## Near-duplicates on the synthetic corpus (${items.length} items, seed ${args.seed})`,
    '',
    `Thresholds: similarity ${settings.similarity}, overlap ${settings.overlap}, neighbours ${settings.neighbours}.`,
    '',
    table(
      ['metric', 'value', 'target'],
      [
        ['merge precision', round(s.precision), '>= 0.98'],
        ['merge recall', round(s.recall), '>= 0.85'],
        ['merge recall, synonyms the vectors do not relate left out', round(s.recallNear), ''],
        ['merges proposed (correct / expected)', `${s.merges} (${s.correct} / ${s.expected})`, ''],
        ['pairs judged distinct', found.rejected.length, ''],
        ['duplicates left alone (skip)', found.pairs.length - s.merges, ''],
        ['embed time (ms)', Math.round(embedMs), ''],
        ['findDuplicates time (ms)', Math.round(findMs), ''],
        ['calibrate time (ms)', Math.round(calibrateMs), ''],
      ],
    ),
    '',
    '### Recall by kind of planted copy',
    '',
    table(
      ['copy', 'planted', 'merged', 'recall'],
      [...s.missedBy].map(([k, r]) => [k, r.planted, r.merged, round(r.merged / r.planted)]),
    ),
    '',
    '### Planted copies: how the text rules judge them',
    '',
    table(['outcome', 'pairs'], [...missReasons(corpus, items, words)]),
    '',
    '### False merges by what was planted (keeper / lesser)',
    '',
    s.wrongBy.size === 0 ? 'none' : table(['plants', 'merges'], [...s.wrongBy]),
    '',
    '### Close pairs judged distinct, by reason',
    '',
    table(['reason', 'pairs'], [...count(found.rejected.map((r) => r.reason))]),
    '',
    '### Calibration',
    '',
    `Best candidate per item: similarity p50/p90/p99 ${fmt(report.similarity)}; overlap ${fmt(report.overlap)}.`,
    '',
    table(
      ['similarity', 'overlap', 'merges'],
      report.merges.map((m) => [
        m.similarity,
        m.overlap,
        `${m.merges}${m.configured ? ' (configured)' : ''}`,
      ]),
    ),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  await embedder.close();
}

function fmt(p: { p50: number | null; p90: number | null; p99: number | null }): string {
  return [p.p50, p.p90, p.p99].map((x) => (x === null ? '-' : round(x))).join(' / ');
}

await main();

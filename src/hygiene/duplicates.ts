/**
 * Near-duplicate detection for a dream run (§10): candidate pairs of one kind from each item's
 * nearest neighbours and from shared word keys, each judged by text (similarity.ts), the keeper of
 * each pair chosen by a fixed order, and chains resolved so no item is both merged away and kept.
 * Proposals only: the runner applies them. Also a calibration report of the score distributions,
 * and the union of two bodies a keeper may take.
 */
import { STOP_WORDS, wordTokens } from '../domain/text.js';
import type { Kind } from '../domain/types.js';
import { dot, type WordVectorLookup } from '../embed/embedder.js';
import { NEVER_MERGED } from '../memories/consolidation.js';
import { stem } from '../retrieval/rerank/stem.js';
import { pairKey, resolve } from './keepers.js';
import { byBest, nearestPairs, type NeighbourPair } from './neighbours.js';
import { type GuardReason, judgeScores, type PairThresholds, TextComparer } from './similarity.js';

export { keeperOrder } from './keepers.js';

/** An item as detection sees it. `text` is what was embedded (embeddingText in domain/text.ts). */
export interface DuplicateItem {
  id: string;
  kind: Kind;
  text: string;
  /** Its vector in the run's model, or null when it has none yet (such items are left out). */
  vector: Float32Array | null;
  pinned: boolean;
  importance: number;
  use_count: number;
  access_count: number;
  /** Epoch milliseconds. */
  created_at: number;
}

/** Settings of a search (config `dream.duplicates`), the word vectors and a stop signal. */
export interface DuplicateOptions extends PairThresholds {
  /** Nearest neighbours looked at per item. */
  neighbours: number;
  /** Word vectors for synonyms; without them only exact, stem and typo matches count. */
  words?: WordVectorLookup;
  /** Polled between steps; true ends the search with `complete: false`. */
  shouldStop?: () => boolean;
}

/**
 * A near-duplicate pair: `lesser` is to be archived as merged into `keeper`, unless `skip` says it
 * is left alone (`reason`: both pinned, or one side already in another merge of this run).
 */
export interface DuplicateProposal {
  keeper: string;
  lesser: string;
  similarity: number;
  overlap: number;
  reason: string;
  skip?: boolean;
}

/** A candidate pair that is not merged, and why (a rule, never memory text). */
export interface PairOutcome {
  a: string;
  b: string;
  similarity: number;
  /** NaN when a fact guard (numbers, names, roles, negation) decided without measuring it. */
  overlap: number;
  reason: string;
}

/** What findDuplicates found. */
export interface DuplicateSearch {
  /** Merges best first, with the duplicates left alone among them (`skip`). */
  pairs: DuplicateProposal[];
  /** Candidates judged not to be duplicates. */
  rejected: PairOutcome[];
  /** False when shouldStop ended the search early: the lists are then partial. */
  complete: boolean;
  /** Items searched (mergeable kind, with a vector). */
  examined: number;
}

/** A candidate pair with its text scores, judged once. */
export interface Candidate extends NeighbourPair {
  overlap: number;
  guard: GuardReason | null;
}

/** Near-duplicates among `items` (one space): proposals best first, with what was not merged. */
export async function findDuplicates(
  items: readonly DuplicateItem[],
  options: DuplicateOptions,
): Promise<DuplicateSearch> {
  const { candidates, complete, examined } = await candidatesOf(items, options, {
    floor: options.similarity,
    full: false,
  });
  const byId = new Map(items.map((item) => [item.id, item]));
  const rejected: PairOutcome[] = [];
  const duplicates: Candidate[] = [];
  for (const c of candidates) {
    // A fact guard rejects at any overlap (judgeScores' order, without building its answer).
    const guarded = c.guard !== null && c.guard !== 'words differ';
    const reason = guarded && c.similarity >= options.similarity ? c.guard : rejection(c, options);
    if (reason === null) duplicates.push(c);
    else rejected.push(outcome(c, reason));
  }
  return { pairs: resolve(duplicates, byId), rejected, complete, examined };
}

/** Why a candidate is not a duplicate at these thresholds, or null when it is. */
function rejection(c: Candidate, t: PairThresholds): string | null {
  const judged = judgeScores(c.similarity, c, t);
  return judged.duplicate ? null : judged.reason;
}

function outcome(c: Candidate, reason: string): PairOutcome {
  return { a: c.a, b: c.b, similarity: c.similarity, overlap: c.overlap, reason };
}

/**
 * Candidate pairs of each mergeable kind, judged by text. `full` (calibration) measures the overlap
 * of every pair and lists them best first; a search leaves pairs a fact guard rejects unmeasured
 * and unordered (resolve orders what it proposes).
 */
async function candidatesOf(
  items: readonly DuplicateItem[],
  options: DuplicateOptions,
  { floor, full }: { floor: number; full: boolean },
): Promise<{ candidates: Candidate[]; complete: boolean; examined: number }> {
  const groups = new Map<Kind, { id: string; vector: Float32Array }[]>();
  const texts = new Map<string, string>();
  for (const item of items) {
    if (NEVER_MERGED.includes(item.kind) || item.vector === null) continue;
    const group = groups.get(item.kind) ?? [];
    group.push({ id: item.id, vector: item.vector });
    groups.set(item.kind, group);
    texts.set(item.id, item.text);
  }
  const candidates: Candidate[] = [];
  const comparer = new TextComparer(options.words);
  let complete = true;
  for (const group of groups.values()) {
    if (options.shouldStop?.()) complete = false;
    if (!complete) break;
    const found = await nearestPairs(group, {
      k: options.neighbours,
      minSimilarity: floor,
      shouldStop: options.shouldStop,
    });
    complete = found.complete;
    const pairs = complete ? withWordPairs(found.pairs, group, texts, floor) : found.pairs;
    for (const pair of pairs) {
      const judged = comparer.compare(texts.get(pair.a)!, texts.get(pair.b)!, full);
      candidates.push({ ...pair, ...judged });
    }
  }
  return {
    candidates: full ? candidates.sort(byBest) : candidates,
    complete,
    examined: texts.size,
  };
}

/** Items sharing a word key beyond this many are not paired through it (a template, not a copy). */
const WORD_BUCKET_MAX = 16;
/** Texts with more content words than this are only keyed by all of them. */
const WORD_KEY_MAX = 24;

/**
 * The vector pairs plus the pairs of items whose content stems are the same, or the same but for
 * one on either side (an added word, a typo, a synonym), with a similarity at or above `floor`.
 * Neighbours alone miss a copy when many items of one template sit closer than it (a misspelt word
 * drops out of the vector); a handful of word keys per item finds it, never all pairs.
 */
function withWordPairs(
  pairs: readonly NeighbourPair[],
  group: readonly { id: string; vector: Float32Array }[],
  texts: ReadonlyMap<string, string>,
  floor: number,
): NeighbourPair[] {
  const buckets = new Map<string, number[]>();
  group.forEach((entry, i) => {
    for (const key of wordKeys(texts.get(entry.id)!)) {
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [i]);
      else if (bucket.length <= WORD_BUCKET_MAX && bucket.at(-1) !== i) bucket.push(i);
    }
  });
  const seen = new Set(pairs.map((p) => pairKey(p.a, p.b)));
  const out = [...pairs];
  for (const bucket of buckets.values()) {
    if (bucket.length > WORD_BUCKET_MAX) continue;
    for (const [n, i] of bucket.entries())
      for (const j of bucket.slice(n + 1)) {
        const [a, b] = [group[i]!, group[j]!];
        const similarity = dot(a.vector, b.vector);
        if (similarity < floor || seen.has(pairKey(a.id, b.id))) continue;
        seen.add(pairKey(a.id, b.id));
        out.push({ a: a.id, b: b.id, similarity });
      }
  }
  return out;
}

/** The sorted content stems of a text, and the same with each one left out in turn. */
function wordKeys(text: string): string[] {
  const tokens = wordTokens(text).filter((t) => t.length > 1 && !STOP_WORDS.has(t));
  const stems = [...new Set(tokens.map(stem))].sort();
  const all = stems.join(' ');
  if (stems.length > WORD_KEY_MAX || stems.length < 3) return [all];
  return [all, ...stems.map((_, i) => stems.filter((__, j) => j !== i).join(' '))];
}

/** Score distributions of a space's candidates, and the merges each threshold pair would make. */
export interface CalibrationReport {
  /** Items searched. */
  examined: number;
  /** For each item with a candidate: its best candidate's similarity and that pair's overlap. */
  best: { id: string; other: string; similarity: number; overlap: number }[];
  similarity: Percentiles;
  overlap: Percentiles;
  /** Merges at the configured thresholds, then at each alternative (configured one included). */
  merges: { similarity: number; overlap: number; merges: number; configured: boolean }[];
  complete: boolean;
}

/** p50, p90 and p99 of a list of scores (null for an empty list). */
export interface Percentiles {
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

/** Alternative similarity thresholds a calibration reports. */
export const CALIBRATION_SIMILARITIES = [0.85, 0.9, 0.95] as const;
/** Alternative overlap thresholds a calibration reports. */
export const CALIBRATION_OVERLAPS = [0.6, 0.7, 0.8] as const;

/**
 * Distribution report for choosing thresholds: each item's best candidate (down to similarity
 * `floor`, default 0.5), percentiles of both scores, and how many merges each threshold pair
 * would propose after chains are resolved.
 */
export async function calibrate(
  items: readonly DuplicateItem[],
  options: DuplicateOptions & { floor?: number },
): Promise<CalibrationReport> {
  const floor = Math.min(options.floor ?? 0.5, options.similarity, ...CALIBRATION_SIMILARITIES);
  const { candidates, complete, examined } = await candidatesOf(items, options, {
    floor,
    full: true,
  });
  const byId = new Map(items.map((item) => [item.id, item]));
  const best = bestPerItem(candidates);
  const grid = [{ similarity: options.similarity, overlap: options.overlap }];
  for (const similarity of CALIBRATION_SIMILARITIES)
    for (const overlap of CALIBRATION_OVERLAPS) grid.push({ similarity, overlap });
  const merges = grid.map((t, i) => {
    const duplicates = candidates.filter((c) => rejection(c, t) === null);
    return {
      ...t,
      merges: resolve(duplicates, byId).filter((p) => !p.skip).length,
      configured: i === 0,
    };
  });
  return {
    examined,
    best,
    similarity: percentiles(best.map((b) => b.similarity)),
    overlap: percentiles(best.map((b) => b.overlap)),
    merges,
    complete,
  };
}

function bestPerItem(candidates: readonly Candidate[]): CalibrationReport['best'] {
  const best = new Map<string, CalibrationReport['best'][number]>();
  // Candidates come best first: the first pair an item is seen in is its best.
  for (const c of candidates)
    for (const [id, other] of [
      [c.a, c.b],
      [c.b, c.a],
    ] as const)
      if (!best.has(id)) best.set(id, { id, other, similarity: c.similarity, overlap: c.overlap });
  return [...best.values()];
}

/** Nearest-rank percentiles. */
export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (q: number) =>
    sorted.length === 0
      ? null
      : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

/** Sentences of a body, trimmed, as written (a full stop inside "3.5" ends nothing). */
function sentences(body: string): string[] {
  return body
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The keeper's body followed by the lesser's sentences it lacks (a sentence is present when it is
 * contained in the keeper, or a keeper sentence or the whole keeper covers it: TextComparer.covers).
 * Never writes text of its own beyond a separator; the keeper's body unchanged when nothing is missing.
 */
export function unionBody(
  keeperBody: string,
  lesserBody: string,
  words?: WordVectorLookup,
): string {
  const keeper = keeperBody.trimEnd();
  const comparer = new TextComparer(words);
  const flat = keeper.toLowerCase().replace(/\s+/gu, ' ');
  const own = [keeper, ...sentences(keeper)];
  const missing = sentences(lesserBody).filter(
    (s) =>
      !flat.includes(s.toLowerCase().replace(/\s+/gu, ' ')) &&
      !own.some((k) => comparer.covers(k, s)),
  );
  if (missing.length === 0) return keeperBody;
  return `${keeper}${/[.!?]$/u.test(keeper) ? ' ' : '\n'}${missing.join(' ')}`;
}

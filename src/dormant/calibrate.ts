/**
 * `dormant calibrate` (§8, §9.1): the distribution of raw cosine and relevance-check scores of the
 * current store's eligible memories against a sample of queries, so an operator can set
 * `min_relevance` and `min_rerank_score` for the configured embedding model and scorer. Read-only:
 * it writes nothing, records no access and keeps no query. Without given queries it uses the
 * titles (or first sentences) of a spread of the store's own eligible memories, each searched
 * against the others.
 */
import type { Config } from '../config/schema.js';
import type { ItemFilter } from '../domain/filter.js';
import { embeddingText } from '../domain/text.js';
import type { QueryEmbedding } from '../embed/embedder.js';
import type { RelevanceScorer } from '../retrieval/rerank/relevance.js';
import { DORMANT_KINDS } from '../store/dormant/profile.js';
import type { DormantStore } from '../store/dormant-store.js';
import type { Store } from '../store/store.js';

/** A score distribution. */
export interface Distribution {
  count: number;
  min: number | null;
  p10: number | null;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  /** Counts per 0.05-wide bucket, keyed by its lower edge. */
  histogram: Record<string, number>;
}

/** What calibrate reports. */
export interface CalibrationReport {
  space: string;
  model: string | null;
  scorer: string | null;
  queries: number;
  query_source: 'given' | 'sampled';
  eligible_scanned: number;
  /** Cosines of each query's top `candidate_limit` eligible memories. */
  raw_cosine: Distribution;
  /** The best cosine per query. */
  best_cosine: Distribution;
  /** Relevance-check scores of each query's top `rerank_candidates` (whatever their cosine). */
  relevance: Distribution;
  current: {
    min_relevance: number;
    min_rerank_score: number;
    /** Share of scanned top candidates at or above min_relevance. */
    share_above_min_relevance: number;
    /** Share of checked candidates at or above min_rerank_score. */
    share_above_min_rerank_score: number;
    /** Queries that would have had at least one candidate passing both floors. */
    queries_with_survivor: number;
  };
  /** Why part of the report is empty (no embedder, no scorer...). */
  notes: string[];
}

/** What calibrate is wired with. */
export interface CalibrateDeps {
  config: Config;
  store: Store;
  dormant: DormantStore;
  embedding: QueryEmbedding;
  scorer: RelevanceScorer | null;
}

interface QueryCase {
  text: string;
  exclude: string[];
}

async function sampleQueries(store: Store, filter: ItemFilter, n: number): Promise<QueryCase[]> {
  // Take a spread over the newest 20×n eligible memories (bounded reading, deterministic).
  const page = await store.listItems({ filter, limit: n * 20, order: 'created' });
  const step = Math.max(1, Math.floor(page.items.length / n));
  const picked = page.items.filter((_, i) => i % step === 0).slice(0, n);
  return picked.map((item) => ({ text: pseudoQuery(item), exclude: [item.id] }));
}

/** A short query from a memory: its title, else its first sentence (at most 200 characters). */
function pseudoQuery(item: { title: string | null; body: string }): string {
  if (item.title) return item.title;
  const first = item.body.split(/(?<=[.!?])\s/u)[0] ?? item.body;
  return first.slice(0, 200);
}

/** Runs the calibration (see the file header). */
export async function calibrate(
  deps: CalibrateDeps,
  request: { space: string; queries?: readonly string[]; sample: number },
): Promise<CalibrationReport> {
  const settings = deps.config.dormant_recall;
  const filter: ItemFilter = { space: request.space, statuses: ['active'], kinds: DORMANT_KINDS };
  const cases = request.queries?.length
    ? request.queries.map((text) => ({ text, exclude: [] }))
    : await sampleQueries(deps.store, filter, request.sample);
  const notes: string[] = [];
  const cosines: number[] = [];
  const best: number[] = [];
  const relevance: number[] = [];
  let scanned = 0;
  let survivors = 0;
  const published = await deps.embedding.publishedModel();
  const model = published && deps.embedding.embeds(published.id) ? published.id : null;
  if (model === null) notes.push('no usable embedding model: raw cosine cannot be measured');
  if (!deps.scorer) notes.push('no relevance scorer can run here: relevance scores are empty');
  for (const c of model === null ? [] : cases) {
    const vector = await deps.embedding
      .embedQuery(c.text, deps.config.recall.semantic_budget_ms, model ?? undefined)
      .catch(() => null);
    if (!vector) continue;
    const { hits, scanned: n } = await deps.dormant.scan({
      filter,
      eligibility: { kinds: DORMANT_KINDS, dormantBefore: null, now: null },
      model: model!,
      vector,
      exclude: c.exclude,
      limit: settings.candidate_limit,
    });
    scanned = Math.max(scanned, n);
    cosines.push(...hits.map((h) => h.cosine));
    if (hits[0]) best.push(hits[0].cosine);
    const top = hits.slice(0, settings.rerank_candidates);
    const scores = await scoreTop(
      deps,
      c.text,
      top.map((h) => h.id),
      request.space,
      notes,
    );
    relevance.push(...scores);
    const passes = top.some(
      (h, i) =>
        h.cosine >= settings.min_relevance && (scores[i] ?? -1) >= settings.min_rerank_score,
    );
    if (passes) survivors++;
  }
  return {
    space: request.space,
    model: published?.id ?? null,
    scorer: deps.scorer?.name ?? null,
    queries: cases.length,
    query_source: request.queries?.length ? 'given' : 'sampled',
    eligible_scanned: scanned,
    raw_cosine: distribution(cosines),
    best_cosine: distribution(best),
    relevance: distribution(relevance),
    current: {
      min_relevance: settings.min_relevance,
      min_rerank_score: settings.min_rerank_score,
      share_above_min_relevance: share(cosines, settings.min_relevance),
      share_above_min_rerank_score: share(relevance, settings.min_rerank_score),
      queries_with_survivor: survivors,
    },
    notes: [...new Set(notes)],
  };
}

async function scoreTop(
  deps: CalibrateDeps,
  query: string,
  ids: readonly string[],
  space: string,
  notes: string[],
): Promise<number[]> {
  if (!deps.scorer || ids.length === 0) return [];
  const items = await deps.store.getItems(space, ids);
  try {
    const scores = await deps.scorer.score(
      query,
      items.map((i) => ({ id: i.id, text: embeddingText(i) })),
    );
    const byId = new Map(items.map((item, i) => [item.id, scores[i]]));
    return ids.flatMap((id) => {
      const s = byId.get(id);
      return typeof s === 'number' && Number.isFinite(s) ? [s] : [];
    });
  } catch {
    notes.push('the relevance check failed on some queries');
    return [];
  }
}

function share(values: readonly number[], floor: number): number {
  if (values.length === 0) return 0;
  return round(values.filter((v) => v >= floor).length / values.length);
}

function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return round(sorted[at]!);
}

/** Summary quantiles and a 0.05-bucket histogram. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const histogram: Record<string, number> = {};
  for (const v of sorted) {
    const edge = (Math.floor(v * 20) / 20).toFixed(2);
    histogram[edge] = (histogram[edge] ?? 0) + 1;
  }
  return {
    count: sorted.length,
    min: sorted.length ? round(sorted[0]!) : null,
    p10: quantile(sorted, 0.1),
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted.length ? round(sorted[sorted.length - 1]!) : null,
    histogram,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

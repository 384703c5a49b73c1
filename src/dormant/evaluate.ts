/**
 * One dormant-recall evaluation (§9.2): a separate exact cosine scan over the current eligible
 * stored vectors of the published model into a bounded heap, the raw-cosine floor, separate
 * relevance checks on the best few, the bounded-bonus ranking, and a serialised record that
 * re-checks each candidate's content before choosing it. Nothing here touches ordinary recall's
 * index, caches, fused list, boosts or reranker, and nothing here changes an ordinary field.
 */
import type { Config } from '../config/schema.js';
import { toEngramError } from '../domain/errors.js';
import type { ItemFilter } from '../domain/filter.js';
import type { ItemRecord } from '../domain/records.js';
import { embeddingText } from '../domain/text.js';
import type { QueryEmbedding } from '../embed/embedder.js';
import type { RelevanceScorer } from '../retrieval/rerank/relevance.js';
import {
  compareRanked,
  contentWords,
  DAY_MS,
  dormancyBonus,
  dormantDays,
  overlapCount,
  profileKinds,
} from '../store/dormant/profile.js';
import type {
  DormantEventRecord,
  DormantRankedCandidate,
  DormantRecordRequest,
  DormantScanHit,
  DormantStore,
} from '../store/dormant-store.js';
import type { Store } from '../store/store.js';

/** Version of the selection algorithm, part of every event's label. */
export const DORMANT_ALGORITHM = 'dormant-v1/exact-cosine';
/** The relevance check gets this long before the evaluation fails open. */
export const RELEVANCE_CHECK_TIMEOUT_MS = 3_000;

/** What an evaluation is wired with. */
export interface EvaluationDeps {
  config: Config;
  store: Store;
  dormant: DormantStore;
  embedding: QueryEmbedding;
  scorer: RelevanceScorer | null;
  newId: (at: number) => string;
  /** Resolves when background work may continue (no ordinary recall running). */
  pause: () => Promise<void>;
}

/** One search to evaluate: its query, filter and the ids ordinary recall returned. */
export interface EvaluationRequest {
  query: string;
  filter: ItemFilter;
  returned: readonly string[];
  now: number;
}

/** The algorithm label of events made with a scorer (or none). */
export function algorithmLabel(scorer: RelevanceScorer | null): string {
  return `${DORMANT_ALGORITHM}/${scorer?.name ?? 'none'}`;
}

type Counts = Pick<
  DormantEventRecord,
  'candidate_count' | 'above_floor' | 'checked' | 'passed' | 'model' | 'query_terms'
>;

/** A failure that makes the evaluation fail open, carrying only its type. */
class FailOpen extends Error {
  constructor(
    readonly type: string,
    readonly counts: Partial<Counts> = {},
  ) {
    super(type);
  }
}

/** Runs one evaluation and records it; returns the event, or null when the lock wait ran out. */
export async function evaluateSearch(
  deps: EvaluationDeps,
  request: EvaluationRequest,
): Promise<DormantEventRecord | null> {
  const started = performance.now();
  const settings = deps.config.dormant_recall;
  const kinds = profileKinds(request.filter.kinds);
  const eligibility = {
    kinds,
    dormantBefore: request.now - settings.dormancy_days * DAY_MS,
    now: request.now,
  };
  const queryWords = contentWords(request.query);
  let counts: Counts = {
    candidate_count: 0,
    above_floor: 0,
    checked: 0,
    passed: 0,
    model: null,
    query_terms: queryWords.size,
  };
  let ranked: DormantRankedCandidate[] = [];
  let failure: string | null = null;
  try {
    const selection = await select(deps, request, eligibility, queryWords, counts);
    counts = selection.counts;
    ranked = selection.ranked;
  } catch (err) {
    failure = err instanceof FailOpen ? err.type : `error:${toEngramError(err).code}`;
    if (err instanceof FailOpen) counts = { ...counts, ...err.counts };
  }
  const record: DormantRecordRequest = {
    event: {
      id: deps.newId(request.now),
      space: request.filter.space,
      at: request.now,
      algorithm: algorithmLabel(deps.scorer),
      outcome: failure ? 'failed' : 'none',
      error_type: failure,
      ...counts,
      duration_ms: round(performance.now() - started),
    },
    // A failed check selects nothing: fail open.
    ranked: failure ? [] : ranked,
    eligibility,
    cooldownUntil: request.now + settings.cooldown_days * DAY_MS,
    retention: {
      maxEvents: settings.log_max_events,
      before: request.now - settings.log_retention_days * DAY_MS,
    },
  };
  await deps.pause();
  return deps.dormant.record(record);
}

async function queryVector(
  deps: EvaluationDeps,
  query: string,
): Promise<{ model: string; vector: Float32Array }> {
  if (deps.embedding.modelId === null) throw new FailOpen('embedder_unavailable');
  const published = await deps.embedding.publishedModel();
  if (!published) throw new FailOpen('no_published_model');
  if (!deps.embedding.embeds(published.id)) throw new FailOpen('published_model_not_loaded');
  let vector: Float32Array | null;
  try {
    vector = await deps.embedding.embedQuery(
      query,
      deps.config.recall.semantic_budget_ms,
      published.id,
    );
  } catch {
    throw new FailOpen('query_embedding_failed', { model: published.id });
  }
  if (!vector) throw new FailOpen('query_not_embeddable', { model: published.id });
  return { model: published.id, vector };
}

async function select(
  deps: EvaluationDeps,
  request: EvaluationRequest,
  eligibility: DormantRecordRequest['eligibility'],
  queryWords: ReadonlySet<string>,
  base: Counts,
): Promise<{ counts: Counts; ranked: DormantRankedCandidate[] }> {
  const settings = deps.config.dormant_recall;
  const { model, vector } = await queryVector(deps, request.query);
  const { hits } = await deps.dormant.scan({
    filter: request.filter,
    eligibility,
    model,
    vector,
    exclude: request.returned,
    limit: settings.candidate_limit,
    pause: deps.pause,
  });
  // The floor is on raw cosine, before any bonus: age can never lift a weak match over it.
  const aboveFloor = hits.filter((h) => h.cosine >= settings.min_relevance);
  const toCheck = aboveFloor.slice(0, settings.rerank_candidates);
  const counts: Counts = {
    ...base,
    model,
    candidate_count: hits.length,
    above_floor: aboveFloor.length,
  };
  if (toCheck.length === 0) return { counts, ranked: [] };
  const items = await currentItems(deps.store, request.filter.space, toCheck);
  if (items.length === 0) return { counts, ranked: [] };
  await deps.pause();
  const scores = await check(deps.scorer, request.query, items, counts);
  const ranked = items
    .map(({ hit, item }, i) => ({ hit, item, score: scores[i]! }))
    .filter((c) => c.score >= settings.min_rerank_score)
    .map(({ hit, item, score }) => candidate(hit, item, score, request.now, queryWords, settings))
    .sort(compareRanked);
  return { counts: { ...counts, checked: items.length, passed: ranked.length }, ranked };
}

/** The scanned candidates' current records, dropping any whose content changed since the scan. */
async function currentItems(
  store: Store,
  space: string,
  hits: readonly DormantScanHit[],
): Promise<{ hit: DormantScanHit; item: ItemRecord }[]> {
  const byId = new Map(
    (
      await store.getItems(
        space,
        hits.map((h) => h.id),
      )
    ).map((i) => [i.id, i]),
  );
  return hits.flatMap((hit) => {
    const item = byId.get(hit.id);
    return item && item.version === hit.version ? [{ hit, item }] : [];
  });
}

/** The separate relevance check; any failure to run it fails the evaluation open. */
async function check(
  scorer: RelevanceScorer | null,
  query: string,
  items: readonly { item: ItemRecord }[],
  counts: Counts,
): Promise<number[]> {
  if (!scorer) throw new FailOpen('relevance_check_unavailable', counts);
  const documents = items.map(({ item }) => ({ id: item.id, text: embeddingText(item) }));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FailOpen('relevance_check_timeout', counts)),
      RELEVANCE_CHECK_TIMEOUT_MS,
    );
    timer.unref();
  });
  let scores: number[];
  try {
    scores = await Promise.race([scorer.score(query, documents), deadline]);
  } catch (err) {
    throw err instanceof FailOpen ? err : new FailOpen('relevance_check_failed', counts);
  } finally {
    clearTimeout(timer);
  }
  const valid =
    Array.isArray(scores) &&
    scores.length === documents.length &&
    scores.every((s) => typeof s === 'number' && Number.isFinite(s));
  if (!valid) throw new FailOpen('relevance_check_invalid', counts);
  return scores;
}

function candidate(
  hit: DormantScanHit,
  item: ItemRecord,
  score: number,
  now: number,
  queryWords: ReadonlySet<string>,
  settings: Config['dormant_recall'],
): DormantRankedCandidate {
  const days = dormantDays(hit.dormant_since, now);
  return {
    id: item.id,
    version: item.version,
    body_hash: item.body_hash,
    raw_relevance: hit.cosine,
    relevance_score: score,
    bonus: dormancyBonus(item.importance, days, settings),
    dormant_days: round(days),
    overlap_terms: overlapCount(queryWords, embeddingText(item)),
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

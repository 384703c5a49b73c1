/**
 * The search step of auto-recall (§6 step 2): keyword and semantic candidates (no access
 * accounting: nothing here is an ordinary recall), each judged on the relevance scale of
 * relevance.ts, kept above the threshold and cut to max_results.
 */
import type { AutoRecallSettings } from '../config/autorecall-settings.js';
import type { Config } from '../config/schema.js';
import type { ItemFilter } from '../domain/filter.js';
import type { ItemRecord } from '../domain/records.js';
import { embeddingText, keywordTerms } from '../domain/text.js';
import type { Degradation } from '../domain/types.js';
import type { QueryEmbedding } from '../embed/embedder.js';
import { dot } from '../embed/embedder.js';
import { labelTerms } from '../lifecycle/terms.js';
import { queryFailure } from '../retrieval/channels/vector.js';
import { requireLifecycle } from '../store/lifecycle-store.js';
import type { Store } from '../store/store.js';
import type { RecallAnalysis } from './analyze.js';
import {
  combineRelevance,
  entityCoverage,
  lexicalCoverage,
  semanticScore,
  weightedTerms,
} from './relevance.js';

/** A related memory and its relevance. */
export interface Found {
  item: ItemRecord;
  relevance: number;
}

/** Candidates per channel. */
const POOL = 20;
/** Entity types that name something (people, services, files), as opposed to dates or amounts. */
const NAMED_TYPES = new Set([
  'name',
  'identifier',
  'path',
  'url',
  'EMAIL',
  'HASHTAG',
  'MENTION',
  'version',
]);
/** Terms judged for lexical relevance. */
const MAX_TERMS = 32;
/**
 * Terms sent to the keyword index: the most telling ones (entity words and topics come first).
 * Every extra common term makes BM25 score more matching documents, and the semantic channel
 * already covers the message as a whole.
 */
const KEYWORD_TERMS = 8;

/** What the search needs. */
export interface SearchDeps {
  config: Config;
  store: Store;
  vectors: QueryEmbedding;
}

/** Finds the memories related to a message. */
export class RelatedSearch {
  constructor(private readonly deps: SearchDeps) {}

  private get lifecycleStore() {
    return requireLifecycle(this.deps.store);
  }

  /**
   * Related memories of a message with their relevance, best first, cut to max_results; `exclude`
   * names a memory never to return (a write's own item).
   */
  async find(
    space: string,
    message: string,
    analysis: RecallAnalysis,
    settings: AutoRecallSettings,
    options: { exclude?: string } = {},
  ): Promise<{ found: Found[]; considered: number; degraded: Degradation[] }> {
    const filter: ItemFilter = { space, statuses: this.deps.config.recall.default_statuses };
    const terms = (
      analysis.search_terms.length ? analysis.search_terms : keywordTerms(message)
    ).slice(0, MAX_TERMS);
    const [keyword, semantic] = await Promise.all([
      this.deps.store.keywordSearch(filter, terms.slice(0, KEYWORD_TERMS), POOL),
      this.semanticCandidates(filter, message),
    ]);
    const ids = [...new Set([...semantic.cosines.keys(), ...keyword.map((k) => k.id)])].filter(
      (id) => id !== options.exclude,
    );
    const items = await this.deps.store.getItems(space, ids);
    await this.fillCosines(space, items, semantic);
    const entityWords = new Set(
      analysis.entities.flatMap((e) => e.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []),
    );
    const weighted = weightedTerms(terms, entityWords);
    const named = analysis.entities
      .filter((e) => NAMED_TYPES.has(e.type))
      .map((e) => labelTerms(e.text));
    const { cosine_floor: floor, cosine_ceiling: ceiling } = this.deps.config.auto_recall;
    const scored = items.map((item) => {
      const text = embeddingText(item);
      return {
        item,
        relevance: combineRelevance(
          semanticScore(semantic.cosines.get(item.id) ?? null, floor, ceiling),
          lexicalCoverage(weighted, text),
          entityCoverage(named, text),
        ),
      };
    });
    const found = scored
      .filter((s) => s.relevance >= settings.relevance_threshold)
      .sort((a, b) => b.relevance - a.relevance || (a.item.id < b.item.id ? -1 : 1))
      .slice(0, settings.max_results);
    return { found, considered: items.length, degraded: semantic.degraded };
  }

  private async semanticCandidates(
    filter: ItemFilter,
    message: string,
  ): Promise<{
    cosines: Map<string, number>;
    query: Float32Array | null;
    model: string | null;
    degraded: Degradation[];
  }> {
    const none = (reason: string) => ({
      cosines: new Map<string, number>(),
      query: null,
      model: null,
      degraded: [{ channel: 'vector' as const, reason }],
    });
    const vectors = this.deps.vectors;
    if (vectors.modelId === null) return none('embedder_unavailable');
    const published = await vectors.publishedModel();
    if (!published) return none('no_published_model');
    if (!vectors.embeds(published.id)) return none('published_model_not_loaded');
    let query: Float32Array | null;
    try {
      query = await vectors.embedQuery(
        message,
        this.deps.config.recall.semantic_budget_ms,
        published.id,
      );
    } catch (err) {
      return none(queryFailure(err));
    }
    if (!query) return none('query_not_embeddable');
    const hits = await this.deps.store.vectorSearch(filter, published.id, query, POOL);
    return {
      cosines: new Map(hits.map((h) => [h.id, h.score])),
      query,
      model: published.id,
      degraded: [],
    };
  }

  /**
   * Cosines for keyword-only candidates: from their stored vectors of the published model, or,
   * for the few still waiting for one, embedded on the spot.
   */
  private async fillCosines(
    space: string,
    items: readonly ItemRecord[],
    semantic: { cosines: Map<string, number>; query: Float32Array | null; model: string | null },
  ): Promise<void> {
    const query = semantic.query;
    if (!query || !semantic.model) return;
    let missing = items.filter((i) => !semantic.cosines.has(i.id));
    const stored = await this.lifecycleStore.storedVectors(
      space,
      missing.map((i) => i.id),
      semantic.model,
    );
    for (const [id, v] of stored)
      if (v.length === query.length) semantic.cosines.set(id, dot(query, v));
    missing = missing.filter((i) => !semantic.cosines.has(i.id));
    const budget = this.deps.config.recall.semantic_budget_ms;
    await Promise.all(
      missing.map(async (item) => {
        const v = await this.deps.vectors
          .embedQuery(embeddingText(item), budget, semantic.model ?? undefined)
          .catch(() => null);
        if (v) semantic.cosines.set(item.id, dot(query, v));
      }),
    );
  }
}

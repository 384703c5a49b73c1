/**
 * The optional stages around fusion: session context on the keyword channel's list before
 * fusion, and legacy reranking of the fused, boosted candidates after it. Each stage improves the
 * order when it can and leaves it as it was when it cannot: recall always answers.
 */
import type { Config } from '../config/schema.js';
import type { ItemRecord } from '../domain/records.js';
import { embeddingText } from '../domain/text.js';
import type { ItemFilter, SessionTurn, Store } from '../store/store.js';
import { sessionContextOn, type SessionContextOptions, spreadAlongSessions } from './context.js';
import type { RankedList } from './fuse.js';
import type { RelevanceScorer } from './rerank/relevance.js';
import { rerank } from './rerank/rerank.js';

/**
 * Conversation positions for one recall, looked up once and shared by session context and
 * reranking: only ids not yet looked up with at least the asked window go to the store.
 */
export class SessionLookup {
  private readonly covered = new Map<string, number>();
  private readonly turns = new Map<string, SessionTurn>();

  constructor(
    private readonly store: Store,
    private readonly filter: ItemFilter,
  ) {}

  /**
   * Every known turn, including `ids` that are turns and their neighbours within `window`. With
   * `fetch` false, only what earlier lookups brought is returned (no store round trip).
   */
  async around(ids: readonly string[], window: number, fetch = true): Promise<SessionTurn[]> {
    const missing = fetch ? ids.filter((id) => (this.covered.get(id) ?? -1) < window) : [];
    if (missing.length > 0 && window >= 1 && this.store.sessionNeighbors) {
      for (const turn of await this.store.sessionNeighbors(this.filter, missing, window))
        this.turns.set(turn.id, turn);
      for (const id of missing) this.covered.set(id, window);
    }
    return [...this.turns.values()];
  }
}

/** The channels whose scores are BM25 evidence, which session context spreads. */
const SPREAD: ReadonlySet<RankedList['channel']> = new Set(['keyword', 'time']);

/**
 * Replaces each keyword-evidence list (keyword, time) with its session-context spread (see
 * context.ts), cut to `limit`.
 */
export async function withSessionContext(
  sessions: SessionLookup,
  lists: readonly RankedList[],
  options: SessionContextOptions,
  limit: number,
): Promise<RankedList[]> {
  if (!sessionContextOn(options)) return [...lists];
  const out: RankedList[] = [];
  for (const list of lists) {
    if (!SPREAD.has(list.channel) || !list.scores || list.ids.length === 0) {
      out.push(list);
      continue;
    }
    const positions = await sessions.around(list.ids, options.window);
    const scored = list.ids.map((id, i) => ({ id, score: list.scores![i] ?? 0 }));
    const spread = spreadAlongSessions(scored, positions, options).slice(0, limit);
    out.push({ ...list, ids: spread.map((s) => s.id), scores: spread.map((s) => s.score) });
  }
  return out;
}

/** A fused candidate on its way to becoming a hit. */
export interface ScoredCandidate {
  item: ItemRecord;
  score: number;
}

/** What reranking needs besides the candidates. */
export interface RerankContext {
  sessions: SessionLookup;
  scorer: RelevanceScorer;
  query: string;
  settings: Config['recall']['rerank'];
}

/**
 * Reorders the best candidates with the relevance scorer (rerank/rerank.ts); each judged
 * candidate that is a conversation turn is read with the turns around it. Returns the candidates
 * in their new order with their reranked scores.
 */
export async function rerankCandidates<T extends ScoredCandidate>(
  ctx: RerankContext,
  ordered: readonly T[],
): Promise<T[]> {
  const judged = ordered.slice(0, ctx.settings.top_n).map((c) => c.item.id);
  const window = ctx.settings.context_window;
  const around =
    window >= 1
      ? nearbyTexts(judged, await ctx.sessions.around(judged, window, false), window)
      : null;
  const reranked = await rerank(
    ctx.scorer,
    ctx.query,
    ordered.map((c) => ({ ...c, id: c.item.id })),
    (c) => ({ id: c.item.id, text: embeddingText(c.item), context: around?.get(c.item.id) }),
    { topN: ctx.settings.top_n, blend: ctx.settings.blend },
  );
  return reranked.map((r) => ({ ...r.candidate, score: r.score }));
}

/** For each id that is a conversation turn: the bodies of the turns within `window`, nearest first. */
function nearbyTexts(
  ids: readonly string[],
  positions: readonly SessionTurn[],
  window: number,
): Map<string, string[]> {
  const byId = new Map(positions.map((p) => [p.id, p]));
  const bySession = new Map<string, SessionTurn[]>();
  for (const p of positions) {
    const turns = bySession.get(p.session);
    if (turns) turns.push(p);
    else bySession.set(p.session, [p]);
  }
  const out = new Map<string, string[]>();
  for (const id of ids) {
    const self = byId.get(id);
    if (!self) continue;
    const distance = (p: SessionTurn) => Math.abs(p.turn - self.turn);
    const near = (bySession.get(self.session) ?? [])
      .filter((p) => p.id !== id && distance(p) <= window)
      .sort((a, b) => distance(a) - distance(b) || a.turn - b.turn);
    if (near.length > 0)
      out.set(
        id,
        near.map((p) => p.body),
      );
  }
  return out;
}

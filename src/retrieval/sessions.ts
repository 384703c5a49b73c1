/**
 * Conversation positions for one recall (items recorded as turns: `source.session` +
 * `source.turn`), looked up once and shared by the stages that read them: session context before
 * fusion and the reranker after it.
 */
import type { Config } from '../config/schema.js';
import type { ItemFilter } from '../domain/filter.js';
import type { SessionTurn, Store } from '../store/store.js';
import { sessionContextOn } from './context.js';

/** The store primitive session lookups need (absent on a store that keeps no sessions). */
export type SessionSource = Pick<Store, 'sessionNeighbors'>;

/**
 * Positions looked up for one recall: only ids not yet looked up with at least the asked window
 * go to the store.
 */
export class SessionLookup {
  private readonly covered = new Map<string, number>();
  private readonly turns = new Map<string, SessionTurn>();

  constructor(
    private readonly store: SessionSource,
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

/**
 * How many turns around each candidate a recall reads: session context's window when it is on,
 * and the reranker's when this recall reranks, so one lookup serves both.
 */
export function sessionWindow(recall: Config['recall'], rerank: boolean | undefined): number {
  return Math.max(
    sessionContextOn(recall.context) ? recall.context.window : 0,
    rerank ? recall.rerank.context_window : 0,
  );
}

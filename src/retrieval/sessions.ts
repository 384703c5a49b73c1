/**
 * Conversation positions for one recall (items recorded as turns: `source.session` +
 * `source.turn`; and, for notes and episodes written with no session, their write neighbourhood:
 * the alike items written just before and after them, close in time), looked up once and
 * shared by the stages that read them: session context before fusion and the reranker after it.
 */
import type { Config } from '../config/schema.js';
import type { ItemFilter } from '../domain/filter.js';
import { type SessionTurn, type Store, WRITE_ORDER } from '../store/store.js';
import { sessionContextOn } from './context.js';
import { TurnIndex } from './turn-index.js';

/** The store primitive session lookups need (absent on a store that keeps no sessions). */
export type SessionSource = Pick<Store, 'sessionNeighbors' | 'writeNeighbors'>;

/**
 * Positions looked up for one recall: only ids not yet looked up with at least the asked window
 * go to the store.
 */
export class SessionLookup {
  private readonly covered = new Map<string, number>();
  /** Every turn known (write neighbours placed in their runs). */
  private indexed = new TurnIndex();
  /** The write neighbours known, as the store gave them (before `writeRuns` places them). */
  private readonly written = new Map<string, SessionTurn>();

  constructor(
    private readonly store: SessionSource,
    private readonly filter: ItemFilter,
    /** Write neighbours at most this far apart in creation time count as turns; 0: none do. */
    private readonly writeGapMs = 0,
  ) {}

  /**
   * Every known turn, indexed: including `ids` that are turns and their neighbours within
   * `window`. With `fetch` false, only what earlier lookups brought (no store round trip). The
   * index is built once for all the stages that read it, and again only after a lookup brings
   * more.
   */
  async index(ids: readonly string[], window: number, fetch = true): Promise<TurnIndex> {
    const missing = fetch ? ids.filter((id) => (this.covered.get(id) ?? -1) < window) : [];
    if (missing.length > 0 && window >= 1) {
      const [recorded, written] = await Promise.all([
        this.store.sessionNeighbors?.(this.filter, missing, window) ?? [],
        this.writeGapMs > 0
          ? (this.store.writeNeighbors?.(this.filter, missing, window, this.writeGapMs) ?? [])
          : [],
      ]);
      // An item is a turn of its recorded session or of the write order, never both.
      for (const turn of recorded) this.indexed.add(turn);
      for (const id of missing) this.covered.set(id, window);
      if (written.length > 0) {
        for (const turn of written) this.written.set(turn.id, turn);
        const kept = this.indexed.turns().filter((t) => !this.written.has(t.id));
        this.indexed = new TurnIndex([...kept, ...this.writeRuns()]);
      }
    }
    return this.indexed;
  }

  /** A recorded session's turns within `window` of each of `ids`, read as they are (not indexed). */
  async readAround(ids: readonly string[], window: number): Promise<SessionTurn[]> {
    return ids.length === 0
      ? []
      : ((await this.store.sessionNeighbors?.(this.filter, ids, window)) ?? []);
  }

  /** The write neighbours within `window` writes of each of `ids` (as the store gives them). */
  async readWritten(ids: readonly string[], window: number): Promise<SessionTurn[]> {
    if (ids.length === 0 || this.writeGapMs <= 0) return [];
    return (await this.store.writeNeighbors?.(this.filter, ids, window, this.writeGapMs)) ?? [];
  }

  /** The space the recall searches. */
  get space(): string {
    return this.filter.space;
  }

  /**
   * The write neighbours known so far split into runs, where a pause of more than the gap
   * between two writes (in write order) ends a run; each run is a session of its own, so
   * neighbours in write order but far apart in time never lend each other evidence.
   */
  private writeRuns(): SessionTurn[] {
    const all = [...this.written.values()];
    // A write neighbour given without its time stays in the write order as a whole.
    const written = all.filter((t) => t.at !== undefined).sort((a, b) => a.turn - b.turn);
    let run = 0;
    const placed = written.map((t, i) => {
      if (i > 0 && Math.abs(t.at! - written[i - 1]!.at!) > this.writeGapMs) run++;
      return { ...t, session: `${WRITE_ORDER}#${run}` };
    });
    return [...all.filter((t) => t.at === undefined), ...placed];
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

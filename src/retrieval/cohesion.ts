/**
 * Whether a recorded session reads as one conversation. Session context (context.ts) lets the
 * turns of a session lend each other evidence, which is right for a conversation ("Yes, last
 * weekend!" answers the turn before it) and wrong for a run of unrelated notes that happened to
 * be written through one session (one MCP connection writing whatever its agent was told to
 * remember). The two differ in their text: in a conversation, turns close together share more
 * words than turns far apart; in a run of unrelated notes, near and far turns share as many.
 *
 * The measure, per session, over the turns within `SPAN` of up to `WINDOWS` of its turns that a
 * recall met (spread over them): the mean word overlap (Jaccard over keyword terms, any script,
 * segmented as the keyword index segments it; words in more than half of the measured turns, such
 * as the speakers' names, left out) of turns one or two apart, divided by that of turns `FAR_FROM`
 * to 2 × `SPAN` apart. Over LoCoMo's 272 sessions the ratio is 0.99 at least, 1.10 at the 5th
 * percentile and 1.34 at the median; windows of 200 unrelated notes of the multilingual set give
 * 0.61-1.27, 0.89-1.11 over a whole language (bench/locomo/levers.md). The session's evidence
 * weight is scaled by (ratio − `FLOOR`) / `RAMP`, clamped to [0, 1]; a session with too few pairs
 * to tell keeps its full weight. A recall measures at most `PER_RECALL` sessions it meets, in one
 * store round trip; each session's factor is kept for `KEEP_MS`, then measured again (it may have
 * grown). The factor depends on the turns the first measuring recall met, so a session near the
 * ramp may measure a little differently after it is measured again. Memories written with no
 * session (write neighbourhoods, sessions.ts) have no session to keep a factor under: their
 * runs are measured together, in the space's write order, as one more session.
 */
import { keywordTerms } from '../domain/text.js';
import { type SessionTurn, WRITE_ORDER } from '../store/store.js';
import type { TurnIndex } from './turn-index.js';

/** Turns read on each side of the turn a session is measured around. */
const SPAN = 12;
/** Turns at least this far apart count as far. */
const FAR_FROM = 6;
/** Windows read per session, around turns of it spread over the part the recall met. */
const WINDOWS = 4;
/** Sessions a recall measures at most; the others keep their full weight until a later recall. */
const PER_RECALL = 2;
/** Pairs of each kind a measure needs; fewer, and the session keeps its full weight. */
const MIN_PAIRS = 6;
/** Words in more than this share of the measured turns are left out of the measure. */
const COMMON = 0.5;
/** The ratio at or below which a session lends no evidence. */
const FLOOR = 0.9;
/** The ratio above the floor at which a session lends all of its evidence. */
const RAMP = 0.3;
/** How long a session's factor is kept before it is measured again (it may have grown). */
const KEEP_MS = 5 * 60_000;
/** Sessions whose factor is kept at most; all are measured again beyond. */
const MAX_KEPT = 10_000;

/** Reads the turns of a session (or the write order) around given turns, the recall's filter applied. */
export type ReadAround = (ids: readonly string[], window: number) => Promise<SessionTurn[]>;

/** The factor each session's evidence is scaled by, kept across recalls. */
export class SessionCohesion {
  /** By space, by session: the factor and when it was measured. */
  private readonly kept = new Map<string, Map<string, { factor: number; at: number }>>();
  private size = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The factor of each turn of `index` by slot: that of its recorded session; for write neighbours
   * (memories written with no session), one factor for all of the space's, measured on the write
   * order (`readWritten`); 1 for sessions too short to tell. `undefined` when every factor is 1.
   */
  async factors(
    index: TurnIndex,
    space: string,
    read: ReadAround,
    readWritten?: ReadAround,
  ): Promise<Float64Array | undefined> {
    const now = this.now();
    const kept = this.kept.get(space);
    const fresh = (key: string) => {
      const known = kept?.get(key);
      return known !== undefined && now - known.at <= KEEP_MS;
    };
    const unknown: string[] = [];
    const seeds: string[] = [];
    const written = new Map<number, readonly number[]>();
    for (const [session, turns] of index.bySession()) {
      if (session.startsWith(WRITE_ORDER)) {
        for (const [turn, slots] of turns) written.set(turn, slots);
        continue;
      }
      if (unknown.length >= PER_RECALL || fresh(session)) continue;
      unknown.push(session);
      seeds.push(...spreadOut(index, turns, WINDOWS));
    }
    // A failed read leaves every session its full weight: recall goes on as without this.
    if (unknown.length > 0) {
      const turns = await read(seeds, SPAN).catch(() => undefined);
      if (!turns) return undefined;
      this.measure(space, unknown, turns, now);
    }
    if (readWritten && written.size > 0 && !fresh(WRITE_ORDER)) {
      const turns = await readWritten(spreadOut(index, written, WINDOWS), SPAN).catch(
        () => undefined,
      );
      if (!turns) return undefined;
      // Places in the write order of alike memories, numbered as one run.
      const ordered = [...new Map(turns.map((t) => [t.id, t])).values()].sort(
        (a, b) => a.turn - b.turn,
      );
      this.measure(
        space,
        [WRITE_ORDER],
        ordered.map((t, i) => ({ ...t, session: WRITE_ORDER, turn: i })),
        now,
      );
    }
    const factors = this.kept.get(space);
    let out: Float64Array | undefined;
    for (const [session, turns] of index.bySession()) {
      const key = session.startsWith(WRITE_ORDER) ? WRITE_ORDER : session;
      const factor = factors?.get(key)?.factor ?? 1;
      if (factor === 1) continue;
      out ??= new Float64Array(index.size).fill(1);
      for (const slots of turns.values()) for (const slot of slots) out[slot] = factor;
    }
    return out;
  }

  /** Keeps the factor of each of `sessions` from the turns read (1 when they cannot tell). */
  private measure(
    space: string,
    sessions: readonly string[],
    turns: readonly SessionTurn[],
    now: number,
  ): void {
    const bySession = new Map<string, Map<number, Set<string>>>();
    for (const t of turns) {
      let session = bySession.get(t.session);
      if (!session) bySession.set(t.session, (session = new Map()));
      if (!session.has(t.turn)) session.set(t.turn, new Set(keywordTerms(t.body)));
    }
    let kept = this.kept.get(space);
    if (!kept) this.kept.set(space, (kept = new Map()));
    for (const session of sessions) {
      const words = bySession.get(session);
      const factor = (words && cohesionFactor(words)) ?? 1;
      if (this.size >= MAX_KEPT) {
        this.kept.clear();
        this.kept.set(space, (kept = new Map()));
        this.size = 0;
      }
      if (!kept.has(session)) this.size++;
      kept.set(session, { factor, at: now });
    }
  }
}

/**
 * The evidence factor of a session from its turns' words by turn number (see the file header),
 * or undefined when its turns give too few pairs to tell.
 */
export function cohesionFactor(
  words: ReadonlyMap<number, ReadonlySet<string>>,
): number | undefined {
  // Words in most of the session's turns (its speakers' names, say) tell no turns apart.
  const df = new Map<string, number>();
  for (const set of words.values()) for (const w of set) df.set(w, (df.get(w) ?? 0) + 1);
  const common = COMMON * words.size;
  const kept = new Map<number, ReadonlySet<string>>();
  for (const [turn, set] of words)
    kept.set(turn, new Set([...set].filter((w) => df.get(w)! <= common)));
  words = kept;
  let near = 0;
  let nearPairs = 0;
  let far = 0;
  let farPairs = 0;
  for (const [turn, a] of words)
    for (let d = 1; d <= 2 * SPAN; d++) {
      if (d > 2 && d < FAR_FROM) continue;
      const b = words.get(turn + d);
      if (!b) continue;
      const overlap = jaccard(a, b);
      if (d <= 2) {
        near += overlap;
        nearPairs++;
      } else {
        far += overlap;
        farPairs++;
      }
    }
  if (nearPairs < MIN_PAIRS || farPairs < MIN_PAIRS || (near === 0 && far === 0)) return undefined;
  if (far === 0) return 1;
  const ratio = near / nearPairs / (far / farPairs);
  return Math.min(1, Math.max(0, (ratio - FLOOR) / RAMP));
}

/** The ids of up to `n` of a session's turns, spread evenly over its turn numbers. */
function spreadOut(
  index: TurnIndex,
  turns: ReadonlyMap<number, readonly number[]>,
  n: number,
): string[] {
  const numbers = [...turns.keys()].sort((a, b) => a - b);
  const picked =
    numbers.length <= n
      ? numbers
      : Array.from({ length: n }, (_, i) => numbers[Math.floor((i * numbers.length) / n)]!);
  return picked.map((turn) => index.turn(turns.get(turn)![0]!).id);
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * Sessions without asking (§3, recall v2): the writes that arrive through one conversation (one
 * MCP connection, one HTTP client session, one CLI import, one library session handle) are
 * recorded as turns of one session, in the order they arrive, unless a write names its own
 * session. Recall's session context then works for callers that send only a body.
 */

/** Numbers the turns of one conversation and stamps them on the writes that carry none. */
export class TurnCounter {
  private next: number;

  /** `after`: the last turn already recorded for this session (null: none yet). */
  constructor(
    readonly session: string,
    after: number | null = null,
  ) {
    this.next = after === null ? 0 : after + 1;
  }

  /**
   * The input as this session's next turn: `source.session` set to the session and `source.turn`
   * to the next number, when the input names no session or names this one without a turn. An
   * input naming another session, giving its own turn, or not an object is returned unchanged
   * (validation reports what is wrong with it).
   */
  stamp(input: unknown): unknown {
    if (!isRecord(input)) return input;
    const source = input.source === undefined ? {} : input.source;
    if (!isRecord(source)) return input;
    const named = source.session;
    if (named !== undefined && named !== this.session) return input;
    if (source.turn !== undefined) return input;
    return { ...input, source: { ...source, session: this.session, turn: this.next++ } };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

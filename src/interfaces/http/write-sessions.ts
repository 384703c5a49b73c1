/**
 * The HTTP edge's conversations (sessions without asking): the remember requests that name one
 * session, by the `Engram-Session` header or by a `source.session` without a turn, are recorded as
 * that session's turns in the order they arrive. One handle per space and session id, shared by
 * the requests of this server and continuing from the turns already stored; bounded, the least
 * recently used handle closing first (reopened from the store when asked for again).
 */
import type { Engram } from '../../app.js';
import type { WriteSession } from '../../service/write-sessions.js';

/** The request header naming a write session. */
export const SESSION_HEADER = 'Engram-Session';

/** Open handles at most. */
const MAX_OPEN = 1_000;

/** The write sessions of one HTTP app. */
export class HttpWriteSessions {
  private readonly open = new Map<string, Promise<WriteSession>>();

  constructor(private readonly engram: Pick<Engram, 'writeSession'>) {}

  /** The handle of session `id` in `space`, opened on first use. */
  get(space: string, id: string): Promise<WriteSession> {
    const key = `${space}\u0000${id}`;
    const known = this.open.get(key);
    if (known) {
      // Most recently used last, so eviction takes the oldest.
      this.open.delete(key);
      this.open.set(key, known);
      return known;
    }
    const opened = this.engram.writeSession({ id, space });
    opened.catch(() => this.open.delete(key));
    this.open.set(key, opened);
    if (this.open.size > MAX_OPEN) this.open.delete(this.open.keys().next().value!);
    return opened;
  }
}

/**
 * The session a single remember names: the header, else the body's `source.session` when the body
 * gives no `source.turn` (the server numbers the turn). Undefined: an ordinary write.
 */
export function namedSession(
  header: string | undefined,
  body: { source?: { session?: string; turn?: number } },
): string | undefined {
  if (header !== undefined) return header;
  const source = body.source;
  return source?.session !== undefined && source.turn === undefined ? source.session : undefined;
}

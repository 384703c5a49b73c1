/**
 * Session handles (recall v2, sessions without asking): the library's way to write as one
 * conversation. Every memory written through a handle that names no session of its own becomes
 * the handle's next turn (`source.session`, `source.turn`), so recall's session context works
 * without the caller tracking turns. The MCP server opens one per connection, the HTTP server one
 * per `Engram-Session`, the CLI one per import.
 */
import { EngramError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { RememberInput } from '../domain/input.js';
import type { BatchResult, RememberResult } from '../domain/types.js';
import { TurnCounter } from '../memories/write-session.js';
import { arrayArg, optionsArg } from './args.js';
import type { ServiceContext } from './context.js';
import type { BatchOptions, MemoryWrites } from './memory-writes.js';

/** Options of `writeSession`. */
export interface WriteSessionOptions {
  /** Continue this session (its turns go on after the last one stored); default: a new session. */
  id?: string;
  /** The space whose stored turns a continued session counts from (default: the configured one). */
  space?: string;
}

/** Writes as one conversation: each memory without a session of its own is its next turn. */
export interface WriteSession {
  /** The session id stamped on the writes (`source.session`). */
  readonly id: string;
  /** Stores one memory as the session's next turn (see `Engram.remember`). */
  remember(input: unknown): Promise<RememberResult>;
  /** Stores many memories as the session's next turns, in order (see `Engram.rememberMany`). */
  rememberMany(inputs: readonly unknown[], options?: BatchOptions): Promise<BatchResult[]>;
}

/** The session-handle facade. */
export interface WriteSessionsFacade {
  /** Opens a handle on a new session, or on an existing one by id (continuing its turns). */
  writeSession(options?: WriteSessionOptions): Promise<WriteSession>;
}

/** The largest session id, as for `source.session`. */
const MAX_ID = 200;

/** A session id as `source.session` accepts it, or an error naming the field and the rule. */
function sessionId(id: unknown): string {
  const valid =
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= MAX_ID &&
    id.isWellFormed() &&
    !id.includes('\u0000');
  if (valid) return id;
  throw new EngramError(
    'INVALID_INPUT',
    `session: must be text of 1-${MAX_ID} characters (valid UTF-8, no NUL)`,
    { field: 'session', rule: `1-${MAX_ID} characters` },
  );
}

/** The facade over the write facade of the same service. */
export function writeSessionsFacade(
  ctx: ServiceContext,
  writes: Pick<MemoryWrites, 'remember' | 'rememberMany'>,
): WriteSessionsFacade {
  return {
    async writeSession(given) {
      const options = optionsArg(given);
      const space = ctx.space(options.space);
      const id = options.id === undefined ? newId(ctx.now()) : sessionId(options.id);
      const after = options.id === undefined ? null : await ctx.store.lastTurn(space, id);
      const turns = new TurnCounter(id, after);
      return {
        id,
        remember: (input) => writes.remember(turns.stamp(input) as RememberInput),
        rememberMany: (inputs, batch) =>
          writes.rememberMany(
            arrayArg(inputs, 'items').map((input) => turns.stamp(input)),
            batch,
          ),
      };
    },
  };
}

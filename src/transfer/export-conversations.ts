/**
 * What the readers of chat apps' data exports share (`chatgpt`, `claude`): the file is one JSON
 * array of conversations, each read on its own into one session, so a malformed conversation fails
 * alone with an error naming it (its index in the array and its id) and the field it broke; the
 * others are read. A conversation with nothing to store (no text turn) is left out.
 */
import { isEngramError } from '../domain/errors.js';
import {
  contentId,
  isRecord,
  type RawTurn,
  type TranscriptError,
  type TranscriptRecord,
} from './transcript-content.js';

/** How one export format names and reads its conversations. */
export interface ExportFormat {
  /** The conversation's id in the export, when it has one. */
  idOf(conversation: Record<string, unknown>): string | undefined;
  /** The session input of one conversation (undefined when it has no turn to store). */
  read(conversation: Record<string, unknown>): Record<string, unknown> | undefined;
}

/** `conversations[3] (id 6f1c…)`: where a conversation is in the export, and its id. */
export function conversationRef(index: number, id: string | undefined): string {
  return id === undefined ? `conversations[${index}]` : `conversations[${index}] (id ${id})`;
}

/**
 * Reads every conversation of a parsed export (an array, or one conversation object): one record
 * per conversation with turns, one error per conversation that could not be read.
 */
export function readConversations(
  value: unknown,
  format: ExportFormat,
): { records: TranscriptRecord[]; errors: TranscriptError[] } {
  const list = Array.isArray(value) ? value : isRecord(value) ? [value] : undefined;
  if (!list) {
    const message = 'must be a JSON array of conversations';
    return { records: [], errors: [{ ref: 'file', code: 'INVALID_INPUT', message }] };
  }
  const records: TranscriptRecord[] = [];
  const errors: TranscriptError[] = [];
  list.forEach((conversation: unknown, index) => {
    if (!isRecord(conversation)) {
      const field = `conversations[${index}]`;
      const message = `${field}: must be a conversation object`;
      errors.push({ ref: field, code: 'INVALID_INPUT', message, field });
      return;
    }
    const ref = conversationRef(index, format.idOf(conversation));
    try {
      const session = format.read(conversation);
      if (session) records.push({ ref, value: session });
    } catch (err) {
      if (!isEngramError(err)) throw err;
      const field = typeof err.details.field === 'string' ? err.details.field : undefined;
      errors.push({ ref, code: 'INVALID_INPUT', message: err.message, field });
    }
  });
  return { records, errors };
}

/** A conversation's title as a session title: trimmed, at most 200 characters, none when empty. */
export function titleOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const title = value.trim().slice(0, 200);
  return title === '' ? undefined : title;
}

/** The session's source: the app, the file, and the conversation's id there. */
export function exportSource(
  tool: string,
  file: string | undefined,
  id: string | undefined,
): Record<string, string> {
  return { tool, ...(file ? { file } : {}), ...(id ? { original_id: id } : {}) };
}

/** What a conversation of an export says about itself, as read by its format. */
export interface ConversationFacts {
  /** The app (`chatgpt`, `claude`): the default agent and the source's tool. */
  app: string;
  id: string | undefined;
  title: unknown;
  /** The start time, already ISO 8601, or null. */
  started: string | null;
}

/**
 * The session input of a conversation with turns (undefined without any): its id (or one derived
 * from its turns), agent, source, title and start time.
 */
export function exportSession(
  facts: ConversationFacts,
  turns: RawTurn[],
  options: { agent?: string; file?: string },
): Record<string, unknown> | undefined {
  if (turns.length === 0) return undefined;
  const session: Record<string, unknown> = {
    id: facts.id ?? contentId(turns),
    agent: options.agent ?? facts.app,
    source: exportSource(facts.app, options.file, facts.id),
    turns,
  };
  const title = titleOf(facts.title);
  if (title) session.title = title;
  if (facts.started) session.started_at = facts.started;
  return session;
}

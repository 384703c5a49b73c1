/**
 * What the readers of chat apps' data exports share (`chatgpt`, `claude`): the file is one JSON
 * array of conversations, each read on its own into one session, so a malformed conversation fails
 * alone with an error naming it (its index in the array and its id) and the field it broke; the
 * others are read. A conversation with nothing to store (no text turn) is left out.
 */
import { isEngramError } from '../domain/errors.js';
import { isRecord, type TranscriptError, type TranscriptRecord } from './transcript-content.js';

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

/**
 * What the transcript readers share: the turns a chat message's content becomes (plain text, or
 * OpenAI/Anthropic content parts), tool calls and results as short `tool` turns, the merge of a
 * message written in several pieces, and the content-derived id of a conversation that has none.
 */
import { createHash } from 'node:crypto';

/** A turn as a transcript reader produces it (validated later, with every other record). */
export interface RawTurn {
  role: string;
  text: string;
  at?: string | null;
}

/** One record a transcript yields: where it came from, and the session input it makes. */
export interface TranscriptRecord {
  /** Where in the file: `line 3`, `lines 2-9`, `messages`. */
  ref: string;
  value: Record<string, unknown>;
}

/** A part of a transcript that could not be read (bad JSON, a line of the wrong shape). */
export interface TranscriptError {
  ref: string;
  code: 'INVALID_INPUT';
  message: string;
  field?: string;
}

/** Characters of a tool call's input kept in its `tool` turn. */
export const TOOL_INPUT_CHARS = 500;
/** Characters of a tool result kept in its `tool` turn. */
export const TOOL_RESULT_CHARS = 2_000;

/** Cuts a text to `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text parts of a content value (a string, or parts with `text`), joined by blank lines. */
export function plainText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part) =>
      typeof part === 'string'
        ? [part]
        : isRecord(part) && typeof part.text === 'string'
          ? [part.text]
          : [],
    )
    .join('\n\n');
}

/** A tool call as a short `tool` turn: the tool's name and its input, clipped. */
export function toolCallText(name: unknown, input: unknown): string {
  const args = typeof input === 'string' ? input : JSON.stringify(input ?? {});
  return `call ${typeof name === 'string' ? name : 'tool'}: ${clip(args, TOOL_INPUT_CHARS)}`;
}

/** A tool result as a short `tool` turn: its text, clipped, marked when it is an error. */
export function toolResultText(content: unknown, isError: unknown): string {
  const text = plainText(content).trim();
  return `${isError === true ? 'error' : 'result'}: ${clip(text || '(empty)', TOOL_RESULT_CHARS)}`;
}

const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);

/**
 * The turns one message's content makes: its text parts as one turn of `role`, and (when `tools`)
 * each tool call or result as a `tool` turn; thinking, images and other parts are left out.
 */
export function contentTurns(
  role: string,
  content: unknown,
  at: string | null,
  tools: boolean,
): RawTurn[] {
  if (typeof content === 'string') return content.trim() ? [{ role, text: content, at }] : [];
  if (!Array.isArray(content)) return [];
  const out: RawTurn[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.join('').trim()) out.push({ role, text: text.join('\n\n'), at });
    text = [];
  };
  for (const part of content) {
    if (typeof part === 'string') text.push(part);
    if (!isRecord(part)) continue;
    if (TEXT_PARTS.has(String(part.type)) && typeof part.text === 'string') text.push(part.text);
    else if (part.type === 'tool_use' && tools) {
      flush();
      out.push({ role: 'tool', text: toolCallText(part.name, part.input), at });
    } else if (part.type === 'tool_result' && tools) {
      flush();
      out.push({ role: 'tool', text: toolResultText(part.content, part.is_error), at });
    }
  }
  flush();
  return out;
}

/**
 * A time as ISO 8601 when it reads as one (years 0 to 9999), else null (a transcript's times are
 * not trusted: a time out of range leaves the turn without one rather than failing it).
 */
export function isoOrNull(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(typeof value === 'number' ? value : Date.parse(value));
  const year = date.getUTCFullYear();
  return year >= 0 && year <= 9999 ? date.toISOString() : null;
}

/**
 * The id of a conversation its file does not name: a hash of its turns, so importing the same
 * file again finds the same session (idempotent) and different conversations differ.
 */
export function contentId(turns: readonly RawTurn[]): string {
  const hash = createHash('sha256');
  for (const t of turns) hash.update(JSON.stringify([t.role, t.text, t.at ?? null]));
  return hash.digest('hex').slice(0, 32);
}

/** `line 3`, or `lines 2-9` for a record read from several lines. */
export function linesRef(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}

/** The error of a line that is not one JSON object. */
export function lineError(line: number, message: string, field = '(line)'): TranscriptError {
  return { ref: `line ${line}`, code: 'INVALID_INPUT', message, field };
}

/** Parses one JSON line; an error says why it is not a JSON object. */
export function jsonLine(
  text: string,
  line: number,
): { value: Record<string, unknown> } | { error: TranscriptError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: lineError(line, `not valid JSON: ${(err as Error).message}`) };
  }
  if (!isRecord(value)) return { error: lineError(line, 'each line must be a JSON object') };
  return { value };
}

/** Non-empty lines of a text with their numbers (from 1), a trailing `\r` dropped. */
export function numberedLines(text: string): { line: number; text: string }[] {
  return text
    .split('\n')
    .map((t, i) => ({ line: i + 1, text: t.endsWith('\r') ? t.slice(0, -1) : t }))
    .filter((l) => l.text.trim() !== '');
}

export { isRecord };

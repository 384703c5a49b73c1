/**
 * Transcripts as sessions (§1.4, §2 bulk import): the formats `engram sessions import` reads, and
 * what each makes. Every reader yields raw session inputs with where they came from; the sessions
 * facade validates them one by one, so a bad record fails alone, naming its field.
 * - `jsonl`: engram's own lines: one session per line `{id?, agent?, title?, turns: [...]}`
 *   (any field of a session input), or one turn per line `{session, role, text, at?}`, grouped by
 *   `session` (its id) in file order;
 * - `messages`: one JSON array of chat messages `{role, content}` (OpenAI or Anthropic style,
 *   content a string or parts), or an object `{messages: [...], id?, title?, agent?}`: one session;
 * - `claude-code`: a Claude Code session log (claude-code.ts);
 * - `chatgpt`: a ChatGPT data export's `conversations.json` (chatgpt-export.ts);
 * - `claude`: a Claude.ai data export's `conversations.json` (claude-export.ts).
 * A JSON file is parsed once, whole (detection and reading share the parsed value).
 * A conversation its file does not name gets an id derived from its turns, so re-importing a file
 * finds the sessions it stored before (`exists`) instead of storing them twice.
 */
import { isChatgptExport, readChatgptExport } from './chatgpt-export.js';
import { readClaudeCode } from './claude-code.js';
import { isClaudeExport, readClaudeExport } from './claude-export.js';
import {
  contentId,
  contentTurns,
  isoOrNull,
  isRecord,
  jsonLine,
  linesRef,
  numberedLines,
  type RawTurn,
  toolCallText,
  type TranscriptError,
  type TranscriptRecord,
} from './transcript-content.js';

export type { TranscriptError, TranscriptRecord } from './transcript-content.js';

/** The formats a transcript file can have; `auto` looks at the file to tell. */
export const TRANSCRIPT_FORMATS = [
  'auto',
  'jsonl',
  'messages',
  'claude-code',
  'chatgpt',
  'claude',
] as const;
/** A transcript format. */
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** Options of a transcript read. */
export interface TranscriptOptions {
  format?: TranscriptFormat;
  /**
   * Agent of sessions that name none (default: `claude-code` for Claude Code logs, `chatgpt` and
   * `claude` for those apps' exports).
   */
  agent?: string;
  /** The file's path, kept in each session's source. */
  file?: string;
  /** Tool calls and results as short `tool` turns (default true); false leaves them out. */
  tools?: boolean;
}

/** What a transcript holds: its format, the session inputs read, and what could not be read. */
export interface ParsedTranscript {
  format: Exclude<TranscriptFormat, 'auto'>;
  records: TranscriptRecord[];
  errors: TranscriptError[];
}

/** Message roles of other tools, as session roles. */
const ROLE_ALIASES: Record<string, string> = { developer: 'system', function: 'tool' };

/** A read format (not `auto`). */
type ReadFormat = Exclude<TranscriptFormat, 'auto'>;

/** A text parsed as one JSON value, or why it is not one; undefined when it does not look like JSON. */
type ParsedJson = { value: unknown } | { error: string } | undefined;

function parseJson(text: string, force = false): ParsedJson {
  const first = text.trimStart()[0];
  if (!force && first !== '[' && first !== '{') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: `not valid JSON: ${(err as Error).message}` };
  }
}

/** The format of a parsed JSON transcript: an app's export, or chat messages; else none. */
function jsonFormat(value: unknown): ReadFormat | undefined {
  if (isChatgptExport(value)) return 'chatgpt';
  if (isClaudeExport(value)) return 'claude';
  if (Array.isArray(value) || (isRecord(value) && Array.isArray(value.messages))) return 'messages';
  return undefined;
}

/**
 * Which format a transcript has: a ChatGPT or Claude.ai export, a JSON array or `{messages}` of
 * chat messages, a Claude Code log, or JSONL.
 */
export function detectFormat(text: string): ReadFormat {
  return detect(text, parseJson(text));
}

function detect(text: string, json: ParsedJson): ReadFormat {
  const known = json && 'value' in json ? jsonFormat(json.value) : undefined;
  if (known) return known;
  if (text.trimStart().startsWith('[')) return 'messages';
  for (const { line, text: raw } of numberedLines(text).slice(0, 50)) {
    const parsed = jsonLine(raw, line);
    if ('error' in parsed) continue;
    const v = parsed.value;
    if (typeof v.sessionId === 'string' || (typeof v.type === 'string' && isRecord(v.message)))
      return 'claude-code';
  }
  return 'jsonl';
}

/** Formats read from one JSON value (parsed whole). */
const JSON_READERS = {
  messages: readMessages,
  chatgpt: readChatgptExport,
  claude: readClaudeExport,
} as const;

/**
 * Reads a transcript in the given (or detected) format. A JSON format reads the whole text as one
 * value, so a file must fit in memory (and in one string) to be read.
 */
export function parseTranscript(text: string, options: TranscriptOptions = {}): ParsedTranscript {
  const given = options.format ?? 'auto';
  const json =
    given === 'auto' || given in JSON_READERS ? parseJson(text, given !== 'auto') : undefined;
  const format = given === 'auto' ? detect(text, json) : given;
  if (format === 'claude-code') return { format, ...readClaudeCode(text, options) };
  if (format === 'jsonl') return { format, ...readJsonl(text, options) };
  if (!json || 'error' in json) {
    const message = json && 'error' in json ? json.error : 'not valid JSON';
    return { format, records: [], errors: [{ ref: 'file', code: 'INVALID_INPUT', message }] };
  }
  return { format, ...JSON_READERS[format](json.value, options) };
}

function source(tool: string, options: TranscriptOptions, originalId?: string) {
  return {
    tool,
    ...(options.file ? { file: options.file } : {}),
    ...(originalId ? { original_id: originalId } : {}),
  };
}

/** One chat message as turns: its content, and OpenAI-style tool calls as `tool` turns. */
function messageTurns(message: Record<string, unknown>, tools: boolean): RawTurn[] {
  const given = typeof message.role === 'string' ? message.role : String(message.role);
  const role = ROLE_ALIASES[given] ?? given;
  const at = isoOrNull(message.created_at ?? message.timestamp);
  if (role === 'tool' && !tools) return [];
  const turns = contentTurns(role, message.content, at, tools);
  if (tools && Array.isArray(message.tool_calls))
    for (const call of message.tool_calls) {
      const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
      turns.push({ role: 'tool', text: toolCallText(fn.name, fn.arguments), at });
    }
  return turns;
}

function readMessages(
  value: unknown,
  options: TranscriptOptions,
): { records: TranscriptRecord[]; errors: TranscriptError[] } {
  const wrapper = isRecord(value) ? value : {};
  const messages = Array.isArray(value) ? value : wrapper.messages;
  if (!Array.isArray(messages)) {
    const message = 'must be a JSON array of messages, or an object with a "messages" array';
    return { records: [], errors: [{ ref: 'file', code: 'INVALID_INPUT', message }] };
  }
  const bad = messages.findIndex((m) => !isRecord(m));
  if (bad !== -1) {
    const field = `messages[${bad}]`;
    const message = `${field}: must be an object with role and content`;
    return { records: [], errors: [{ ref: field, code: 'INVALID_INPUT', message, field }] };
  }
  const turns = (messages as Record<string, unknown>[]).flatMap((m) =>
    messageTurns(m, options.tools ?? true),
  );
  const { messages: _m, ...fields } = wrapper;
  const id = typeof fields.id === 'string' ? fields.id : undefined;
  const session: Record<string, unknown> = {
    ...fields,
    id: id ?? contentId(turns),
    turns,
  };
  session.agent ??= options.agent;
  session.source ??= source('messages', options, id);
  return { records: [{ ref: 'messages', value: session }], errors: [] };
}

/** Turn lines of one session, as they are read. */
interface TurnGroup {
  id: string;
  first: number;
  last: number;
  turns: Record<string, unknown>[];
}

function readJsonl(
  text: string,
  options: TranscriptOptions,
): { records: TranscriptRecord[]; errors: TranscriptError[] } {
  const out: { line: number; record: TranscriptRecord }[] = [];
  const groups = new Map<string, TurnGroup>();
  const errors: TranscriptError[] = [];
  for (const { line, text: raw } of numberedLines(text)) {
    const parsed = jsonLine(raw, line);
    if ('error' in parsed) {
      errors.push(parsed.error);
      continue;
    }
    const value = parsed.value;
    if (!('session' in value)) {
      out.push({ line, record: { ref: `line ${line}`, value: sessionLine(value, options) } });
      continue;
    }
    const { session, ...turn } = value;
    if (typeof session !== 'string' || session === '') {
      const message = 'session: must be the id of the session (a non-empty string)';
      errors.push({ ref: `line ${line}`, code: 'INVALID_INPUT', message, field: 'session' });
      continue;
    }
    const group = groups.get(session) ?? { id: session, first: line, last: line, turns: [] };
    group.last = line;
    group.turns.push(turn);
    groups.set(session, group);
  }
  for (const g of groups.values()) {
    const value = {
      id: g.id,
      ...(options.agent ? { agent: options.agent } : {}),
      source: source('engram-jsonl', options, g.id),
      turns: g.turns,
    };
    out.push({ line: g.first, record: { ref: linesRef(g.first, g.last), value } });
  }
  out.sort((a, b) => a.line - b.line);
  return { records: out.map((o) => o.record), errors };
}

/** A session line: as given, with the import's agent and source, and an id when it has none. */
function sessionLine(
  value: Record<string, unknown>,
  options: TranscriptOptions,
): Record<string, unknown> {
  const session = { ...value };
  if (session.id === undefined && Array.isArray(session.turns))
    session.id = contentId(
      session.turns.map((t) =>
        isRecord(t)
          ? { role: String(t.role), text: String(t.text), at: isoOrNull(t.at) }
          : { role: '', text: '' },
      ),
    );
  if (session.agent === undefined && options.agent) session.agent = options.agent;
  session.source ??= source(
    'engram-jsonl',
    options,
    typeof value.id === 'string' ? value.id : undefined,
  );
  return session;
}

/**
 * Claude.ai data exports (`conversations.json`) as sessions. What is read, and why:
 * - the file is a JSON array of conversations `{uuid, name, created_at, chat_messages}`; each
 *   becomes one session with its uuid as id, its name as title and `created_at` as start time;
 * - each message `{sender, text, content?, created_at, attachments?, files?}` is a turn of its
 *   sender (`human` is the user); its `content` parts when it has them (text parts as the
 *   speaker's turn, `tool_use` and `tool_result` as short `tool` turns as in every transcript,
 *   thinking left out), else its `text`;
 * - attached and uploaded files are named at the end of the message's turn (`[attached: …]`);
 *   their contents are not stored.
 */
import { invalidInput } from '../domain/errors.js';
import { type ExportFormat, exportSession, readConversations } from './export-conversations.js';
import {
  contentTurns,
  isoOrNull,
  isRecord,
  type RawTurn,
  type TranscriptError,
  type TranscriptRecord,
} from './transcript-content.js';

/** Options of the reader. */
export interface ClaudeExportOptions {
  /** Agent of the sessions (default `claude`). */
  agent?: string;
  file?: string;
  /** Tool calls and results as `tool` turns (default true). */
  tools?: boolean;
}

/** Senders of a Claude.ai message, as session roles. */
const SENDERS: Readonly<Record<string, string>> = { human: 'user', assistant: 'assistant' };

function idOf(conversation: Record<string, unknown>): string | undefined {
  return typeof conversation.uuid === 'string' && conversation.uuid !== ''
    ? conversation.uuid
    : undefined;
}

/** Names of the files attached to or uploaded with a message. */
function fileNames(message: Record<string, unknown>): string[] {
  const files = [message.attachments, message.files].flatMap((l) => (Array.isArray(l) ? l : []));
  return files.flatMap((f: unknown) =>
    isRecord(f) && typeof f.file_name === 'string' && f.file_name.trim() !== ''
      ? [f.file_name.trim()]
      : [],
  );
}

/** The turns one message makes. */
function messageTurns(message: unknown, field: string, tools: boolean): RawTurn[] {
  if (!isRecord(message)) throw invalidInput(field, 'must be a message object');
  const role = SENDERS[String(message.sender)];
  if (!role) throw invalidInput(`${field}.sender`, 'must be "human" or "assistant"');
  const at = isoOrNull(message.created_at);
  const content =
    Array.isArray(message.content) && message.content.length > 0
      ? message.content
      : typeof message.text === 'string'
        ? message.text
        : '';
  const turns = contentTurns(role, content, at, tools);
  const names = fileNames(message);
  if (names.length === 0) return turns;
  const note = `[attached: ${names.join(', ')}]`;
  const last = turns[turns.length - 1];
  if (last && last.role === role) last.text = `${last.text}\n\n${note}`;
  else turns.push({ role, text: note, at });
  return turns;
}

/** One conversation as a session input; undefined when it has no turn to store. */
function readConversation(
  conversation: Record<string, unknown>,
  options: ClaudeExportOptions,
): Record<string, unknown> | undefined {
  const messages = conversation.chat_messages;
  if (!Array.isArray(messages)) throw invalidInput('chat_messages', 'must be an array of messages');
  const tools = options.tools ?? true;
  const turns = messages.flatMap((m: unknown, i) => messageTurns(m, `chat_messages[${i}]`, tools));
  const facts = {
    app: 'claude',
    id: idOf(conversation),
    title: conversation.name,
    started: isoOrNull(conversation.created_at),
  };
  return exportSession(facts, turns, options);
}

/** Reads a parsed Claude.ai export: a session per conversation, an error per malformed one. */
export function readClaudeExport(
  value: unknown,
  options: ClaudeExportOptions = {},
): { records: TranscriptRecord[]; errors: TranscriptError[] } {
  const format: ExportFormat = { idOf, read: (c) => readConversation(c, options) };
  return readConversations(value, format);
}

/** True when a parsed JSON value looks like a Claude.ai export (conversations with `chat_messages`). */
export function isClaudeExport(value: unknown): boolean {
  const list = Array.isArray(value) ? value.slice(0, 10) : [value];
  return list.some((c) => isRecord(c) && Array.isArray(c.chat_messages));
}

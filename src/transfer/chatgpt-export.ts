/**
 * ChatGPT data exports (`conversations.json`) as sessions. What is read, and why:
 * - the file is a JSON array of conversations `{id | conversation_id, title, create_time,
 *   mapping, current_node}`; each becomes one session with its id, title and start time
 *   (`create_time`, epoch seconds);
 * - `mapping` is a tree of message nodes (an edited prompt or a regenerated answer starts a
 *   branch); the conversation is the path from the root to `current_node`, so branches edited
 *   away are left out;
 * - a message's text is its `content.parts` (strings, and parts with `text`, such as audio
 *   transcriptions; images are left out), or `content.text` (code, execution output, quotes);
 *   reasoning (`thoughts`, `reasoning_recap`) and the custom-instruction contexts are left out,
 *   and so are null and empty messages and those the app hides
 *   (`metadata.is_visually_hidden_from_conversation`);
 * - an assistant message addressed to a tool (`recipient` other than `all`) becomes a short
 *   `tool` turn `call TOOL: …`, and a `tool` message a short `result: …` turn (clipped as in
 *   every transcript), or nothing with `tools: false`.
 */
import { invalidInput } from '../domain/errors.js';
import { type ExportFormat, exportSession, readConversations } from './export-conversations.js';
import {
  isoOrNull,
  isRecord,
  type RawTurn,
  toolCallText,
  toolResultText,
  type TranscriptError,
  type TranscriptRecord,
} from './transcript-content.js';

/** Options of the reader. */
export interface ChatgptExportOptions {
  /** Agent of the sessions (default `chatgpt`). */
  agent?: string;
  file?: string;
  /** Tool calls and results as `tool` turns (default true). */
  tools?: boolean;
}

/** Content types that are not conversation: the model's reasoning, and injected context. */
const SKIPPED_CONTENT = new Set([
  'thoughts',
  'reasoning_recap',
  'user_editable_context',
  'model_editable_context',
]);

/** Speaker roles a ChatGPT message has. */
const ROLES = new Set(['user', 'assistant', 'system', 'tool']);

/** A time in epoch seconds (as ChatGPT writes them) as ISO 8601, else null. */
function epochIso(value: unknown): string | null {
  return typeof value === 'number' ? isoOrNull(value * 1000) : null;
}

/** The conversation's id: `id`, else `conversation_id`. */
function idOf(conversation: Record<string, unknown>): string | undefined {
  for (const key of ['id', 'conversation_id'])
    if (typeof conversation[key] === 'string' && conversation[key] !== '') return conversation[key];
  return undefined;
}

/** The leaf reached from the root by the latest child at each step (when `current_node` is absent). */
function latestLeaf(mapping: Record<string, unknown>): string | undefined {
  const root = Object.keys(mapping).find((id) => {
    const node = mapping[id];
    return isRecord(node) && (node.parent === null || node.parent === undefined);
  });
  let id = root;
  const seen = new Set<string>();
  while (id !== undefined && !seen.has(id)) {
    seen.add(id);
    const node = mapping[id];
    const children = isRecord(node) && Array.isArray(node.children) ? node.children : [];
    const next: unknown = children[children.length - 1];
    if (typeof next !== 'string' || !isRecord(mapping[next])) return id;
    id = next;
  }
  return id;
}

/** The nodes from the root to `current_node`, in conversation order. */
function branch(
  mapping: Record<string, unknown>,
  current: unknown,
): { id: string; node: Record<string, unknown> }[] {
  const leaf = current === undefined || current === null ? latestLeaf(mapping) : current;
  if (typeof leaf !== 'string' || !isRecord(mapping[leaf]))
    throw invalidInput('current_node', 'must be the id of a node of mapping');
  const out: { id: string; node: Record<string, unknown> }[] = [];
  const seen = new Set<string>();
  let id: string = leaf;
  for (;;) {
    const node = mapping[id];
    if (!isRecord(node)) throw invalidInput(`mapping.${id}`, 'must be a message node object');
    seen.add(id);
    out.push({ id, node });
    const parent = node.parent;
    if (parent === null || parent === undefined) break;
    if (typeof parent !== 'string' || !isRecord(mapping[parent]))
      throw invalidInput(`mapping.${id}.parent`, 'must be null or the id of a node of mapping');
    if (seen.has(parent))
      throw invalidInput(`mapping.${id}.parent`, 'must not lead back to a later message (a cycle)');
    id = parent;
  }
  return out.reverse();
}

/** The text of a message's content: its parts, or its `text` / `result`. */
function contentText(content: Record<string, unknown>): string {
  if (Array.isArray(content.parts))
    return content.parts
      .flatMap((p: unknown) =>
        typeof p === 'string' ? [p] : isRecord(p) && typeof p.text === 'string' ? [p.text] : [],
      )
      .filter((t) => t.trim() !== '')
      .join('\n\n');
  for (const key of ['text', 'result'])
    if (typeof content[key] === 'string') return content[key] as string;
  return '';
}

/** The turn one message makes (none when it is hidden, empty, reasoning, or a left-out tool). */
function messageTurns(message: unknown, field: string, tools: boolean): RawTurn[] {
  if (!isRecord(message)) throw invalidInput(field, 'must be a message object or null');
  const metadata = isRecord(message.metadata) ? message.metadata : {};
  if (metadata.is_visually_hidden_from_conversation === true) return [];
  const role = isRecord(message.author) ? message.author.role : undefined;
  if (typeof role !== 'string' || !ROLES.has(role))
    throw invalidInput(`${field}.author.role`, 'must be one of user, assistant, system, tool');
  const content = message.content;
  if (!isRecord(content))
    throw invalidInput(`${field}.content`, 'must be an object with content_type and parts');
  if (SKIPPED_CONTENT.has(String(content.content_type))) return [];
  const text = contentText(content);
  if (text.trim() === '') return [];
  const at = epochIso(message.create_time);
  const recipient = message.recipient;
  if (role === 'assistant' && typeof recipient === 'string' && recipient !== 'all')
    return tools ? [{ role: 'tool', text: toolCallText(recipient, text), at }] : [];
  if (role === 'tool')
    return tools ? [{ role: 'tool', text: toolResultText(text, false), at }] : [];
  return [{ role, text, at }];
}

/** One conversation as a session input; undefined when it has no turn to store. */
function readConversation(
  conversation: Record<string, unknown>,
  options: ChatgptExportOptions,
): Record<string, unknown> | undefined {
  const mapping = conversation.mapping;
  if (!isRecord(mapping)) throw invalidInput('mapping', 'must be an object of message nodes');
  const tools = options.tools ?? true;
  const turns = branch(mapping, conversation.current_node).flatMap(({ id, node }) =>
    node.message === null || node.message === undefined
      ? []
      : messageTurns(node.message, `mapping.${id}.message`, tools),
  );
  const facts = {
    app: 'chatgpt',
    id: idOf(conversation),
    title: conversation.title,
    started: epochIso(conversation.create_time),
  };
  return exportSession(facts, turns, options);
}

/** Reads a parsed ChatGPT export: a session per conversation, an error per malformed one. */
export function readChatgptExport(
  value: unknown,
  options: ChatgptExportOptions = {},
): { records: TranscriptRecord[]; errors: TranscriptError[] } {
  const format: ExportFormat = { idOf, read: (c) => readConversation(c, options) };
  return readConversations(value, format);
}

/** True when a parsed JSON value looks like a ChatGPT export (conversations with a `mapping`). */
export function isChatgptExport(value: unknown): boolean {
  const list = Array.isArray(value) ? value.slice(0, 10) : [value];
  return list.some((c) => isRecord(c) && isRecord(c.mapping));
}

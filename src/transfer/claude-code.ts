/**
 * Claude Code session logs (JSONL, one event per line) as sessions. What is read, and why:
 * - `user` and `assistant` lines carry `message: {role, content}`, `timestamp`, `sessionId` and
 *   `uuid`; each `sessionId` in the file becomes one session, its turns in file order;
 * - content parts: text becomes the speaker's turn; a `tool_use` (with the tool's name and input)
 *   and a `tool_result` become short `tool` turns (input and result clipped, so a session keeps
 *   what was done without megabytes of file contents), or nothing with `tools: false`; thinking
 *   and images are left out;
 * - an assistant message written as several lines (one per content part, same `message.id`)
 *   becomes one turn;
 * - lines marked `isSidechain` (a sub-agent's conversation) or `isMeta` (text the tool injected)
 *   are skipped, and so is every other line type (file snapshots, progress, queue operations);
 *   a `summary` line names the session holding the message its `leafUuid` points to (its title);
 *   a compaction summary (`isCompactSummary`) is kept as a `system` turn.
 */
import {
  contentId,
  contentTurns,
  isoOrNull,
  isRecord,
  jsonLine,
  linesRef,
  numberedLines,
  type RawTurn,
  type TranscriptError,
  type TranscriptRecord,
} from './transcript-content.js';

/** Options of the reader. */
export interface ClaudeCodeOptions {
  agent?: string;
  file?: string;
  /** Tool calls and results as `tool` turns (default true). */
  tools?: boolean;
}

/** A turn with the message it came from, for merging a message written in pieces. */
interface Piece extends RawTurn {
  message: string | null;
}

/** One session being read. */
interface Draft {
  id: string | null;
  first: number;
  last: number;
  pieces: Piece[];
  title?: string;
  meta: Record<string, string>;
}

/** Lines of a session log that are conversation. */
const MESSAGE_TYPES = new Set(['user', 'assistant']);

/** Context fields kept in the session's source, from its first line that has them. */
const CONTEXT_FIELDS = [
  ['cwd', 'cwd'],
  ['gitBranch', 'git_branch'],
  ['version', 'version'],
] as const;

function pieces(line: Record<string, unknown>, tools: boolean): Piece[] {
  const message = isRecord(line.message) ? line.message : {};
  const role = line.isCompactSummary === true ? 'system' : String(line.type);
  const id = typeof message.id === 'string' ? message.id : null;
  const at = isoOrNull(line.timestamp);
  return contentTurns(role, message.content, at, tools).map((t) => ({ ...t, message: id }));
}

/** Joins consecutive pieces of one message and speaker into one turn. */
function merged(list: readonly Piece[]): RawTurn[] {
  const out: Piece[] = [];
  for (const p of list) {
    const prev = out[out.length - 1];
    if (prev && p.message !== null && prev.message === p.message && prev.role === p.role)
      prev.text = `${prev.text}\n\n${p.text}`;
    else out.push({ ...p });
  }
  return out.map(({ role, text, at }) => ({ role, text, at }));
}

function record(d: Draft, options: ClaudeCodeOptions): TranscriptRecord | undefined {
  const turns = merged(d.pieces);
  if (turns.length === 0) return undefined;
  const id = d.id ?? contentId(turns);
  const source: Record<string, string> = { tool: 'claude-code' };
  if (options.file) source.file = options.file;
  if (d.id) source.original_id = d.id;
  const value: Record<string, unknown> = {
    id,
    agent: options.agent ?? 'claude-code',
    source: { ...source, ...d.meta },
    turns,
  };
  if (d.title) value.title = d.title;
  return { ref: linesRef(d.first, d.last), value };
}

/** Reads a Claude Code session log: one record per session in it, and the lines it could not read. */
export function readClaudeCode(
  text: string,
  options: ClaudeCodeOptions = {},
): { records: TranscriptRecord[]; errors: TranscriptError[] } {
  const tools = options.tools ?? true;
  const drafts = new Map<string, Draft>();
  const sessionOfUuid = new Map<string, string>();
  const summaries: { leaf: unknown; text: string }[] = [];
  const errors: TranscriptError[] = [];
  for (const { line, text: raw } of numberedLines(text)) {
    const parsed = jsonLine(raw, line);
    if ('error' in parsed) {
      errors.push(parsed.error);
      continue;
    }
    const value = parsed.value;
    if (value.type === 'summary' && typeof value.summary === 'string') {
      summaries.push({ leaf: value.leafUuid, text: value.summary });
      continue;
    }
    if (!MESSAGE_TYPES.has(String(value.type)) || !isRecord(value.message)) continue;
    if (value.isSidechain === true || value.isMeta === true) continue;
    const key = typeof value.sessionId === 'string' ? value.sessionId : '';
    let draft = drafts.get(key);
    if (!draft) {
      draft = { id: key || null, first: line, last: line, pieces: [], meta: {} };
      drafts.set(key, draft);
    }
    draft.last = line;
    for (const [from, to] of CONTEXT_FIELDS)
      if (draft.meta[to] === undefined && typeof value[from] === 'string')
        draft.meta[to] = value[from];
    if (typeof value.uuid === 'string') sessionOfUuid.set(value.uuid, key);
    draft.pieces.push(...pieces(value, tools));
  }
  for (const s of summaries) {
    const key = typeof s.leaf === 'string' ? sessionOfUuid.get(s.leaf) : undefined;
    const draft =
      key === undefined
        ? drafts.size === 1
          ? [...drafts.values()][0]
          : undefined
        : drafts.get(key);
    if (draft && draft.title === undefined) draft.title = s.text.trim().slice(0, 200);
  }
  const records = [...drafts.values()].flatMap((d) => record(d, options) ?? []);
  return { records, errors };
}

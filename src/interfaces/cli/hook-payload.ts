/**
 * The JSON an agent harness sends an `engram hook` command on stdin, and what the hook answers.
 * The shapes are Claude Code's hook events: every event carries `session_id`, `transcript_path`,
 * `cwd` and `hook_event_name`; `UserPromptSubmit` adds the `prompt`. A user-prompt hook answers
 * with `hookSpecificOutput.additionalContext`, text the harness adds to the conversation.
 */
import { EngramError } from '../../domain/errors.js';

/** The fields of a hook event engram reads. */
export interface HookEvent {
  event: string;
  session: string | null;
  transcript: string | null;
  prompt: string | null;
}

/** A memory as the context lists it. */
export interface ContextItem {
  id: string;
  kind: string;
  area: string;
  title: string | null;
  body: string;
}

function field(record: Record<string, unknown>, name: string): string | null {
  const value = record[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string')
    throw new EngramError('INVALID_INPUT', `${name}: must be a string`, {
      field: name,
      rule: 'a string',
    });
  return value;
}

/** Reads a hook event from the text on stdin. */
export function parseHookEvent(text: string): HookEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new EngramError(
      'INVALID_INPUT',
      `stdin: not a JSON hook event: ${(err as Error).message}`,
      {
        field: '(stdin)',
        rule: 'one JSON object',
      },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EngramError('INVALID_INPUT', 'stdin: a hook event must be a JSON object', {
      field: '(stdin)',
      rule: 'one JSON object',
    });
  const record = value as Record<string, unknown>;
  return {
    event: field(record, 'hook_event_name') ?? '',
    session: field(record, 'session_id'),
    transcript: field(record, 'transcript_path'),
    prompt: field(record, 'prompt'),
  };
}

/** One memory as a line of context: its kind and area, then its text on one line. */
function line(item: ContextItem): string {
  const text = [item.title, item.body].filter(Boolean).join(': ').replace(/\s+/gu, ' ').trim();
  return `- [${item.kind}, ${item.area}] ${text} (id ${item.id})`;
}

/**
 * The context a user-prompt hook adds: the memories, most relevant first, as many whole lines as
 * fit in `maxChars` (at least one, cut when it alone is longer); empty when there are none.
 */
export function contextText(items: readonly ContextItem[], maxChars: number): string {
  if (items.length === 0) return '';
  const head = 'Memories engram recalled for this message (most relevant first):';
  const lines: string[] = [head];
  let size = head.length;
  for (const item of items) {
    const next = line(item);
    if (lines.length > 1 && size + 1 + next.length > maxChars) break;
    lines.push(next.length > maxChars ? `${next.slice(0, Math.max(0, maxChars - 1))}…` : next);
    size += 1 + next.length;
  }
  return lines.join('\n');
}

/** The answer of a user-prompt hook that adds `context` (nothing when it is empty). */
export function userPromptAnswer(context: string): Record<string, unknown> | null {
  if (!context) return null;
  return {
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context },
  };
}

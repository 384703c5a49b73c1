/**
 * A Markdown note's YAML front matter: its values, and the keys engram did not take into fields
 * written back as front matter. The common shape (`key: value`, `key: [a, b]`, `key:` followed by
 * `- item` lines) is read line by line and its lines are kept exactly as written; anything else
 * (quotes, comments, nesting, block scalars) goes to the YAML parser and is written back by it.
 * The line reader accepts only YAML the parser reads the same way (as strings), so both agree.
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

import { EngramError } from '../domain/errors.js';
import { isObject } from './common.js';

/** A note's front matter. */
export interface FrontMatter {
  data: Record<string, unknown>;
  /** Each top-level key's lines as written, when the line reader read it (else null). */
  lines: Map<string, string[]> | null;
}

const FRONT = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/u;
const KEY_LINE = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/u;
const ITEM_LINE = /^[ \t]*-[ \t]+(.*?)[ \t]*$/u;
/** A plain scalar that might read as something else than its text (an indicator, a comment). */
const NOT_PLAIN = /^[-?:,[\]{}#&*!|>'"%@`]|: |[ \t]#|:$/u;

/** Splits off the front matter; YAML that does not parse (or is no mapping) fails, naming it. */
export function splitFrontMatter(text: string): { front: FrontMatter; body: string } {
  const m = FRONT.exec(text);
  if (!m) return { front: { data: {}, lines: null }, body: text };
  const body = text.slice(m[0].length);
  return { front: lineRead(m[1]!) ?? { data: parsed(m[1]!), lines: null }, body };
}

function parsed(yaml: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = parseYaml(yaml);
  } catch (err) {
    const message = (err as Error).message.split('\n')[0]!.replace(/:$/u, '');
    throw new EngramError('INVALID_INPUT', `front matter: not valid YAML: ${message}`, {
      field: 'front matter',
      rule: 'YAML',
    });
  }
  if (data !== null && data !== undefined && !isObject(data))
    throw new EngramError('INVALID_INPUT', 'front matter: must be a mapping of keys to values', {
      field: 'front matter',
      rule: 'YAML mapping',
    });
  return (data as Record<string, unknown> | null) ?? {};
}

function plain(raw: string): string | undefined {
  return raw === '' || NOT_PLAIN.test(raw) ? undefined : raw;
}

/** A value on a key's line: a plain string or a flow list of plain strings. */
function inline(raw: string): string | string[] | undefined {
  if (!raw.startsWith('[')) return plain(raw);
  if (!raw.endsWith(']')) return undefined;
  const inner = raw.slice(1, -1).trim();
  if (inner === '') return [];
  const items = inner.split(',').map((s) => s.trim());
  return items.every((i) => plain(i) !== undefined && !/[[\]{}]/u.test(i)) ? items : undefined;
}

/** The common shapes read line by line, or null for anything else. */
function lineRead(yaml: string): FrontMatter | null {
  const data: Record<string, unknown> = {};
  const lines = new Map<string, string[]>();
  let key: string | null = null;
  /** The key whose value is the `- item` lines below it (its line had no value). */
  let listKey: string | null = null;
  for (const line of yaml.split(/\r?\n/u)) {
    if (line.trim() === '') {
      if (key !== null) lines.get(key)!.push(line);
      continue;
    }
    const k = KEY_LINE.exec(line);
    if (k) {
      key = k[1]!;
      if (key in data) return null;
      lines.set(key, [line]);
      listKey = k[2] === undefined ? key : null;
      const value = k[2] === undefined ? null : inline(k[2]);
      if (value === undefined) return null;
      data[key] = value;
      continue;
    }
    const item = ITEM_LINE.exec(line);
    const value = item ? plain(item[1]!) : undefined;
    if (listKey === null || listKey !== key || value === undefined) return null;
    const list = data[listKey];
    data[listKey] = [...(Array.isArray(list) ? list : []), value];
    lines.get(listKey)!.push(line);
  }
  return { data, lines };
}

/** The keys not in `taken`, as a front matter block (or '' when none is left). */
export function keptFrontMatter(front: FrontMatter, taken: ReadonlySet<string>): string {
  const keys = Object.keys(front.data).filter((k) => !taken.has(k));
  if (keys.length === 0) return '';
  const text = front.lines
    ? keys.flatMap((k) => front.lines!.get(k) ?? []).join('\n')
    : stringifyYaml(Object.fromEntries(keys.map((k) => [k, front.data[k]])), { lineWidth: 0 });
  return `---\n${text.trimEnd()}\n---\n\n`;
}

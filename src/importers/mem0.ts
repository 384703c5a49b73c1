/**
 * `mem0`: memories exported from mem0 (`get_all` or an export): a JSON array of records, an object
 * `{"results": [...]}` or `{"memories": [...]}`, or one record per line. A record is
 * `{id, memory, user_id?, agent_id?, run_id?, metadata?, categories?, created_at, updated_at?, hash?}`.
 * - `memory` becomes the body of a `fact` (a `preference` when a category names preferences);
 *   categories become tags; `created_at` is kept.
 * - `user_id` and `agent_id` land as areas of the command's space (`users/alice/agents/support`,
 *   the default) or as spaces (`--map-user space`: the user's id, else the agent's, names the
 *   space); `agent_id` is also kept as `source.agent`, `run_id` as `source.session`.
 * - Metadata has no place in an engram memory: a record with metadata says so in its warnings.
 * Key: the mem0 id.
 */
import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { EngramError } from '../domain/errors.js';
import { describeIssue } from '../domain/zod.js';
import { areaOf, fitTags, isObject, isoTime, recordKey, shortHash, spaceOf } from './common.js';
import { checkPath, decodeStrict, fileLines, notUtf8 } from './files.js';
import type { ImportChunk, ImportDraft, Importer, ImportReadOptions } from './importer.js';

const idText = z.union([z.string(), z.number()]).transform(String);
const optionalId = z
  .union([z.string(), z.number(), z.null()], { message: 'must be a string' })
  .optional()
  .transform((v) => (v === null || v === undefined || v === '' ? undefined : String(v)));

/** One mem0 record; unknown keys (hash, score...) are ignored. */
const recordSchema = z.object({
  id: idText.optional(),
  memory: z.string({ message: 'must be a string' }).refine((s) => s.trim() !== '', {
    message: 'must not be empty',
  }),
  user_id: optionalId,
  agent_id: optionalId,
  run_id: optionalId,
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  categories: z.array(z.string(), { message: 'must be an array of strings' }).nullable().optional(),
  created_at: z.unknown().optional(),
});
type Mem0Record = z.output<typeof recordSchema>;

/** Records per chunk. */
const CHUNK = 1_000;

/** The importer of mem0 exports. */
export const mem0Importer: Importer = { format: 'mem0', read: readMem0 };

async function* readMem0(path: string, options: ImportReadOptions): AsyncGenerator<ImportChunk> {
  checkPath(path, 'file');
  const entries = mem0Entries(readFileSync(path));
  for (let at = 0; at < entries.length || at === 0; at += CHUNK) {
    const chunk: ImportChunk = {
      drafts: [],
      links: [],
      problems: [],
      done: 0,
      total: entries.length,
    };
    for (const e of entries.slice(at, at + CHUNK)) {
      if ('error' in e) chunk.problems.push({ record: e.record, error: e.error });
      else readRecord(e.value, e.record, options, chunk);
    }
    chunk.done = Math.min(at + CHUNK, entries.length);
    yield chunk;
  }
}

/** One entry of the input: its value, or why it could not be read. */
type Entry =
  | { record: string; value: unknown }
  | { record: string; error: { code: string; message: string; field: string } };

/** The entries of a mem0 file: a JSON document holding a list, or JSON lines. */
function mem0Entries(bytes: Buffer): Entry[] {
  const decoded = decodeStrict(bytes);
  if ('offset' in decoded) throw notUtf8('path', decoded.offset);
  let doc: unknown;
  try {
    doc = JSON.parse(decoded.text);
  } catch (err) {
    if (/^\s*\{[^\n]*\}\s*\n\s*\{/u.test(decoded.text)) return jsonLines(bytes);
    throw new EngramError('INVALID_INPUT', `path: not valid JSON: ${(err as Error).message}`, {
      field: 'path',
      rule: 'a JSON list of mem0 memories, {"results": [...]}, or one memory per line',
    });
  }
  const list = Array.isArray(doc) ? doc : isObject(doc) ? (doc.results ?? doc.memories) : undefined;
  if (!Array.isArray(list))
    throw new EngramError('INVALID_INPUT', 'path: no list of memories in the file', {
      field: 'path',
      rule: 'a JSON list, or an object with "results" or "memories"',
    });
  return list.map((value: unknown, i) => ({ record: `entry ${i + 1}`, value }));
}

function jsonLines(bytes: Buffer): Entry[] {
  return fileLines(bytes).flatMap((l): Entry[] => {
    const record = `line ${l.line}`;
    if ('offset' in l) {
      const err = notUtf8('(line)', l.offset);
      return [{ record, error: { code: err.code, message: err.message, field: '(line)' } }];
    }
    if (l.text.trim() === '') return [];
    try {
      return [{ record, value: JSON.parse(l.text) as unknown }];
    } catch (err) {
      const message = `not valid JSON: ${(err as Error).message}`;
      return [{ record, error: { code: 'INVALID_INPUT', message, field: '(line)' } }];
    }
  });
}

function readRecord(
  value: unknown,
  record: string,
  options: ImportReadOptions,
  chunk: ImportChunk,
): void {
  const id = isObject(value) ? value.id : undefined;
  const ref = typeof id === 'string' || typeof id === 'number' ? `${record} (id ${id})` : record;
  const fail = (field: string, rule: string) =>
    void chunk.problems.push({
      record: ref,
      error: { code: 'INVALID_INPUT', message: `${field}: ${rule}`, field },
    });
  if (!isObject(value)) return fail('(record)', 'must be a JSON object');
  const result = recordSchema.safeParse(value);
  if (!result.success) {
    const issue = describeIssue(result.error.issues[0]!);
    return fail(issue.field, issue.rule);
  }
  chunk.drafts.push(draft(result.data, ref, options));
}

/** Where a record lands: its space (when users map to spaces) and its area. */
function placeOf(r: Mem0Record, options: ImportReadOptions): { space?: string; area?: string } {
  if (options.mapUser === 'space') {
    const owner = r.user_id ?? r.agent_id;
    const agentArea = r.user_id && r.agent_id ? `agents/${r.agent_id}` : undefined;
    return {
      space: owner === undefined ? undefined : spaceOf(owner),
      area: areaOf(options.area, agentArea),
    };
  }
  return {
    area: areaOf(
      options.area,
      r.user_id && `users/${r.user_id}`,
      r.agent_id && `agents/${r.agent_id}`,
    ),
  };
}

function draft(r: Mem0Record, record: string, options: ImportReadOptions): ImportDraft {
  const warnings: string[] = [];
  const categories = r.categories ?? [];
  const created = r.created_at === undefined ? null : isoTime(r.created_at);
  if (r.created_at !== undefined && r.created_at !== null && created === null)
    warnings.push(`created_at ${JSON.stringify(r.created_at)} is no date: the import time is used`);
  const metadata = Object.keys(r.metadata ?? {});
  if (metadata.length > 0)
    warnings.push(
      `metadata not kept (engram memories have no field for it): ${metadata.join(', ')}`,
    );
  const source: Record<string, string> = {};
  if (r.agent_id) source.agent = r.agent_id.slice(0, 200);
  if (r.run_id) source.session = r.run_id.slice(0, 200);
  return {
    record,
    key: recordKey('mem0', r.id ?? `sha-${shortHash(`${r.user_id ?? ''}\n${r.memory}`, 24)}`),
    input: {
      ...placeOf(r, options),
      kind: categories.some((c) => /preference/iu.test(c)) ? 'preference' : 'fact',
      body: r.memory,
      tags: fitTags(categories, options.limits, warnings),
      ...(created ? { created_at: created } : {}),
      source,
    },
    fields: { body: 'memory', tags: 'categories', area: 'user_id', space: 'user_id' },
    warnings,
  };
}

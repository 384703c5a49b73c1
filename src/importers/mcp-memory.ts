/**
 * `mcp-memory`: the JSONL knowledge graph of the reference MCP memory server. Each line is an
 * entity `{"type":"entity","name","entityType","observations":[...]}` or a relation
 * `{"type":"relation","from","to","relationType"}`.
 * - Each observation becomes a `fact` titled with the entity's name, its body the observation
 *   (led by the name when the observation does not say it, so the memory stands alone and two
 *   entities' equal observations stay two memories); the entity type becomes a tag.
 * - An entity without observations becomes one fact saying what it is (`Acme is an organization`).
 * - A relation becomes a fact titled `From -> To` with the body `From works at To`: the title's
 *   arrow is a statement the knowledge graph reads as an `arrow` edge between the two entities,
 *   beside their co-mention (engram's graph derives entities and edges from memory text).
 * Keys: an observation is named by its entity and its text (the server identifies observations
 * by content: deleting one shifts the others' positions), a relation by its three parts.
 */
import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { describeIssue } from '../domain/zod.js';
import { fitTags, fitTitle, isObject, recordKey, shortHash } from './common.js';
import { checkPath, fileLines, notUtf8 } from './files.js';
import type {
  ImportChunk,
  ImportDraft,
  Importer,
  ImportProblem,
  ImportReadOptions,
} from './importer.js';

const text = z.string({ message: 'must be a string' });
const name = text.trim().min(1, 'must not be empty');

/** An entity line; unknown keys are ignored. */
const entitySchema = z.object({
  name,
  entityType: text.optional(),
  observations: z.array(z.unknown(), { message: 'must be an array of strings' }).default([]),
});

/** A relation line. */
const relationSchema = z.object({ from: name, to: name, relationType: name });

/** Lines per chunk. */
const CHUNK = 1_000;

/** The importer of the reference MCP memory server's JSONL. */
export const mcpMemoryImporter: Importer = {
  format: 'mcp-memory',
  read: readMcpMemory,
};

/** The record that first made each key: an entity may come back on a later line. */
type Seen = Map<string, string>;

async function* readMcpMemory(
  path: string,
  options: ImportReadOptions,
): AsyncGenerator<ImportChunk> {
  checkPath(path, 'file');
  const bytes = readFileSync(path);
  const lines = fileLines(bytes);
  const seen: Seen = new Map();
  let chunk: ImportChunk = empty(0, lines.length);
  for (const l of lines) {
    const record = `line ${l.line}`;
    if ('offset' in l) problem(chunk.problems, record, notUtf8('(line)', l.offset));
    else if (l.text.trim() !== '') readLine(l.text, record, options, chunk, seen);
    if (l.line % CHUNK === 0) {
      chunk.done = l.line;
      yield chunk;
      chunk = empty(l.line, lines.length);
    }
  }
  chunk.done = lines.length;
  yield chunk;
}

function empty(done: number, total: number): ImportChunk {
  return { drafts: [], links: [], problems: [], skipped: [], done, total };
}

function problem(out: ImportProblem[], record: string, err: { message: string }, field?: string) {
  const f = field ?? (err as { details?: { field?: string } }).details?.field;
  out.push({ record, error: { code: 'INVALID_INPUT', message: err.message, field: f } });
}

/** Reads one line into the chunk: its drafts, or a problem naming the field. */
function readLine(
  raw: string,
  record: string,
  options: ImportReadOptions,
  chunk: ImportChunk,
  seen: Seen,
) {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return problem(
      chunk.problems,
      record,
      {
        message: `not valid JSON: ${(err as Error).message}`,
      },
      '(line)',
    );
  }
  if (!isObject(value))
    return problem(chunk.problems, record, { message: 'must be a JSON object' }, '(line)');
  if (value.type === 'entity') return entity(value, record, options, chunk, seen);
  if (value.type === 'relation') return relation(value, record, options, chunk, seen);
  problem(
    chunk.problems,
    record,
    { message: `type: must be "entity" or "relation", not ${JSON.stringify(value.type)}` },
    'type',
  );
}

/** Parses with a schema, or records the first issue as the record's problem. */
function parsed<S extends z.ZodType>(
  schema: S,
  value: unknown,
  record: string,
  chunk: ImportChunk,
): z.output<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = describeIssue(result.error.issues[0]!);
  problem(chunk.problems, record, { message: `${issue.field}: ${issue.rule}` }, issue.field);
  return undefined;
}

/** Words of a type written as code (`works_at`, `worksAt`): `works at`. */
function words(type: string): string {
  return type
    .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
    .replace(/[_-]+/gu, ' ')
    .trim()
    .toLowerCase();
}

function article(noun: string): string {
  return /^[aeiou]/iu.test(noun) ? 'an' : 'a';
}

function entity(
  value: unknown,
  record: string,
  options: ImportReadOptions,
  chunk: ImportChunk,
  seen: Seen,
) {
  const e = parsed(entitySchema, value, record, chunk);
  if (!e) return;
  const warnings: string[] = [];
  const type = e.entityType?.trim() ?? '';
  const tags = fitTags(type ? [type] : [], options.limits, warnings);
  const base = { kind: 'fact', title: fitTitle(e.name, options.limits), area: options.area, tags };
  const fields = { title: 'name', tags: 'entityType' };
  if (e.observations.length === 0) {
    const body = type ? `${e.name} is ${article(words(type))} ${words(type)}.` : e.name;
    return keep(chunk, seen, {
      record,
      key: recordKey('mcp-memory', 'entity', e.name),
      input: { ...base, body },
      fields: { ...fields, body: 'name' },
      warnings,
    });
  }
  e.observations.forEach((obs, i) => {
    const field = `observations[${i}]`;
    if (typeof obs !== 'string' || obs.trim() === '') {
      const rule = typeof obs !== 'string' ? 'must be a string' : 'must not be empty';
      return problem(chunk.problems, `${record} ${field}`, { message: `${field}: ${rule}` }, field);
    }
    keep(chunk, seen, observation(e.name, obs, i, record, base, fields, warnings));
  });
}

/**
 * Adds a draft, or skips it when the file said the same before: the server keeps an entity's
 * observations and its relations distinct, so a repeat says nothing new.
 */
function keep(chunk: ImportChunk, seen: Seen, draft: ImportDraft): void {
  const before = seen.get(draft.key);
  if (before) chunk.skipped!.push({ record: draft.record, reason: `repeats ${before}` });
  else {
    chunk.drafts.push(draft);
    seen.set(draft.key, draft.record);
  }
}

function observation(
  name: string,
  obs: string,
  index: number,
  record: string,
  base: Record<string, unknown>,
  fields: Record<string, string>,
  warnings: readonly string[],
): ImportDraft {
  const field = `observations[${index}]`;
  const says = obs.toLowerCase().includes(name.toLowerCase());
  return {
    record: `${record} ${field}`,
    key: recordKey('mcp-memory', 'entity', name, 'observation', shortHash(obs)),
    input: { ...base, body: says ? obs : `${name}: ${obs}` },
    fields: { ...fields, body: field },
    warnings: [...warnings],
  };
}

function relation(
  value: unknown,
  record: string,
  options: ImportReadOptions,
  chunk: ImportChunk,
  seen: Seen,
) {
  const r = parsed(relationSchema, value, record, chunk);
  if (!r) return;
  keep(chunk, seen, {
    record,
    key: recordKey('mcp-memory', 'relation', r.from, r.relationType, r.to),
    input: {
      kind: 'fact',
      title: fitTitle(`${r.from} -> ${r.to}`, options.limits),
      body: `${r.from} ${words(r.relationType)} ${r.to}`,
      area: options.area,
      tags: [],
    },
    fields: { title: 'from', body: 'relationType' },
  });
}

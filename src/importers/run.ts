/**
 * Imports another memory tool's data (`engram import --from FORMAT PATH`, `importFrom`): the
 * format's importer reads the input in chunks, every draft is validated on its own (a bad record
 * fails alone, naming the record and the field in the source's terms), provenance is added
 * (`source.import` = format and import time, `source.url` = the original id, `source.trust` =
 * `import`), and the writer stores it. A re-run creates nothing: records found by their original
 * id are left alone (or updated when only their source changed), exact duplicates are answered
 * by the store. A dry run (`checkImport`) reads and validates everything and writes nothing.
 */
import type { Config } from '../config/schema.js';
import { EngramError } from '../domain/errors.js';
import { areaSchema, type InputSchemas, inputSchemas, spaceSchema } from '../domain/input.js';
import { parseWith } from '../domain/zod.js';
import { IMPORT_ACTOR } from './common.js';
import type {
  ImportChunk,
  ImportDraft,
  ImportFormat,
  ImportLink,
  MarkdownSplit,
  UserMapping,
} from './importer.js';
import { importerFor } from './registry.js';
import {
  errorResult,
  type ImportResult,
  type ImportTarget,
  ImportWriter,
  type RelationTotals,
  type ValidDraft,
} from './write.js';

export type { ImportResult, ImportTarget, RelationTotals } from './write.js';

/** What to import and how. */
export interface ImportRequest {
  format: ImportFormat;
  /** The file (mcp-memory, mem0) or folder (markdown) to read. */
  path: string;
  /** Space of records that name none (default: the configured space). */
  space?: string;
  /** Base area of the imported memories (default: each format's own, else `general`). */
  area?: string;
  /** mem0: user and agent ids as areas of the space (default) or as spaces. */
  map_user?: UserMapping;
  /** markdown: one memory per note (default) or per heading section. */
  split?: MarkdownSplit;
  /** Memories per write transaction (default 500, at most `limits.max_batch_items`). */
  batch_size?: number;
  /** Called after each chunk with how much of the input has been read (units of the format). */
  onProgress?: (done: number, total: number) => void;
  /** Called with each chunk's results, in input order. */
  onResults?: (results: readonly ImportResult[]) => void;
}

/** Totals of an import run. */
export interface ImportSummary {
  format: ImportFormat;
  dry_run: boolean;
  /** Records read (memories drafted, records skipped or failed). */
  records: number;
  created: number;
  duplicate: number;
  exists: number;
  updated: number;
  /** Dry run: records that would be written. */
  valid: number;
  skipped: number;
  error: number;
  /** Records with warnings (something read but not kept as given). */
  warned: number;
  relations: RelationTotals;
}

/** An import's totals and its failed records. */
export interface ImportOutcome {
  summary: ImportSummary;
  errors: ImportResult[];
}

/** Imports a file or folder of another memory tool into the target. */
export function importFrom(target: ImportTarget, request: ImportRequest): Promise<ImportOutcome> {
  const batch = Math.max(
    1,
    Math.min(request.batch_size ?? 500, target.config.limits.max_batch_items),
  );
  const at = Date.now();
  const writer = new ImportWriter(target, `${request.format}@`, batch);
  return run(target.config, request, at, {
    drafts: (valid) => writer.drafts(valid),
    links: (links) => writer.links(links, at),
  });
}

/** Reads and validates an import without a store: what `importFrom` would take, writing nothing. */
export function checkImport(config: Config, request: ImportRequest): Promise<ImportOutcome> {
  return run(config, request, Date.now(), null);
}

/** How a run writes (none for a dry run). */
interface Sink {
  drafts(valid: readonly ValidDraft[]): Promise<ImportResult[]>;
  links(links: readonly ImportLink[]): Promise<RelationTotals>;
}

async function run(
  config: Config,
  request: ImportRequest,
  at: number,
  sink: Sink | null,
): Promise<ImportOutcome> {
  const importer = importerFor(request.format);
  const space = parseWith(spaceSchema, request.space ?? config.space, 'space');
  if (request.area !== undefined) parseWith(areaSchema, request.area, 'area');
  const schemas = inputSchemas(config);
  const summary = emptySummary(request.format, sink === null);
  const errors: ImportResult[] = [];
  const seen = new Map<string, string>();
  const links: ImportLink[] = [];
  const validKeys = new Set<string>();
  const provenance = { import: `${request.format}@${new Date(at).toISOString()}`, trust: 'import' };
  const chunks = importer.read(request.path, {
    space,
    area: request.area,
    mapUser: request.map_user,
    split: request.split,
    limits: config.limits,
  });
  for await (const chunk of chunks) {
    const results = readResults(chunk);
    const valid: ValidDraft[] = [];
    for (const draft of chunk.drafts) {
      const checked = validate(draft, schemas, space, provenance, seen);
      if ('status' in checked) results.push(checked);
      else {
        valid.push(checked);
        validKeys.add(draft.key);
      }
    }
    if (sink) results.push(...(await sink.drafts(valid)));
    else for (const v of valid) results.push(validResult(v.draft));
    links.push(...chunk.links);
    tally(summary, errors, results);
    request.onResults?.(inOrder(results, chunk));
    request.onProgress?.(chunk.done, chunk.total);
  }
  summary.relations = sink ? await sink.links(links) : dryLinks(links, validKeys);
  return { summary, errors };
}

function emptySummary(format: ImportFormat, dry: boolean): ImportSummary {
  return {
    format,
    dry_run: dry,
    records: 0,
    created: 0,
    duplicate: 0,
    exists: 0,
    updated: 0,
    valid: 0,
    skipped: 0,
    error: 0,
    warned: 0,
    relations: { valid: 0, created: 0, exists: 0, unresolved: 0, error: 0 },
  };
}

/** The results of what a chunk could not read, and of what it skipped. */
function readResults(chunk: ImportChunk): ImportResult[] {
  return [
    ...chunk.problems.map(
      (p): ImportResult => ({ record: p.record, status: 'error', error: p.error }),
    ),
    ...(chunk.skipped ?? []).map(
      (s): ImportResult => ({ record: s.record, status: 'skipped', warnings: [s.reason] }),
    ),
  ];
}

function validResult(draft: ImportDraft): ImportResult {
  const result: ImportResult = { record: draft.record, status: 'valid' };
  return draft.warnings?.length ? { ...result, warnings: draft.warnings } : result;
}

/** A draft checked as `remember` would check it, with provenance; or its error result. */
function validate(
  draft: ImportDraft,
  schemas: InputSchemas,
  space: string,
  provenance: { import: string; trust: string },
  seen: Map<string, string>,
): ValidDraft | ImportResult {
  const before = seen.get(draft.key);
  if (before !== undefined) {
    const field = draft.fields?.key ?? 'id';
    const rule = `the same original id as ${before}`;
    return errorResult(draft, new EngramError('INVALID_INPUT', rule, { field, rule }));
  }
  seen.set(draft.key, draft.record);
  const given = draft.input;
  const input = {
    ...given,
    space: (given.space as string | undefined) ?? space,
    source: { ...(given.source as object | undefined), ...provenance, url: draft.key },
    actor: IMPORT_ACTOR,
    reason: `imported from ${provenance.import.split('@')[0]}: ${draft.record}`.slice(0, 2_000),
  };
  try {
    const parsed = parseWith(schemas.remember, input);
    return {
      draft,
      input,
      space: parsed.space ?? space,
      body: parsed.body,
      title: parsed.title ?? null,
      tags: parsed.tags,
    };
  } catch (err) {
    return errorResult(draft, err);
  }
}

/** A chunk's results in input order: by line or entry, else by file path, then as read. */
function inOrder(results: ImportResult[], chunk: ImportChunk): ImportResult[] {
  const order = new Map<string, number>();
  const note = (record: string) => order.has(record) || order.set(record, order.size);
  for (const p of chunk.problems) note(p.record);
  for (const d of chunk.drafts) note(d.record);
  for (const s of chunk.skipped ?? []) note(s.record);
  const rank = (r: ImportResult) => order.get(r.record) ?? order.size;
  const file = (r: ImportResult) => r.record.split(/#| \(part /u)[0]!;
  return results.sort(
    (a, b) =>
      lineOf(a.record) - lineOf(b.record) ||
      (file(a) < file(b) ? -1 : file(a) > file(b) ? 1 : 0) ||
      rank(a) - rank(b),
  );
}

/** The number a record ref starts with (`line 12`, `entry 3`), 0 for paths. */
function lineOf(record: string): number {
  return Number(/^(?:line|entry) (\d+)/u.exec(record)?.[1] ?? 0);
}

function tally(summary: ImportSummary, errors: ImportResult[], results: readonly ImportResult[]) {
  for (const r of results) {
    summary.records++;
    summary[r.status]++;
    if (r.status === 'error') errors.push(r);
    if (r.warnings?.length && r.status !== 'skipped') summary.warned++;
  }
}

/** A dry run's link totals: links whose two ends are records that passed validation. */
function dryLinks(links: readonly ImportLink[], valid: ReadonlySet<string>): RelationTotals {
  const totals: RelationTotals = { valid: 0, created: 0, exists: 0, unresolved: 0, error: 0 };
  for (const l of links)
    if (l.to !== null && valid.has(l.from) && valid.has(l.to)) totals.valid++;
    else totals.unresolved++;
  return totals;
}

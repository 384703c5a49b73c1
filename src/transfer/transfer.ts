/**
 * JSONL export and import (§2, §12). Export writes the lines of one store snapshot (lines.ts: a
 * header, one line per item with its versions, status events and vectors, one per relation, then
 * the lines of the capabilities: lifecycle state, dormant-recall telemetry, sessions): lossless,
 * so a store can move between backends. Import takes those lines, or plain memory lines (`{"body": ...}`),
 * idempotently: a re-run creates nothing new. Each bad line fails alone, reported with its line
 * number.
 */
import type { Config } from '../config/schema.js';
import { EngramError, toEngramError } from '../domain/errors.js';
import type { ItemExport, RelationRecord } from '../domain/records.js';
import type { BatchResult } from '../domain/types.js';
import type { ImportOutcome, Store } from '../store/store.js';
import { type DormantLine, importDormantLines } from './dormant-records.js';
import {
  importLifecycleLines,
  LIFECYCLE_LINE_TYPES,
  type LifecycleLine,
  lifecycleLineSpace,
} from './lifecycle-records.js';
import { type ParsedLine, parseLine, snapshotLines } from './lines.js';
import { pulled } from './pull.js';
import {
  importSessionLines,
  SESSION_LINE_TYPES,
  type SessionLine,
  sessionLineSpace,
} from './session-records.js';

/** What export and import need of the engram service (the composed Engram satisfies it). */
export interface TransferTarget {
  readonly config: Config;
  /** The store, read for export and written for full-record imports. */
  readonly storeForTransfer: Store;
  /** Stores plain memories in one batch; a bad item fails alone. */
  rememberMany(
    inputs: readonly unknown[],
    options?: { strict?: boolean; priority?: 'write' | 'background' },
  ): Promise<BatchResult[]>;
  /** Imports full exported records (ids kept); ids that exist already are left alone. */
  importRecords(
    items: readonly ItemExport[],
    relations: readonly RelationRecord[],
  ): Promise<{ items: ImportOutcome[]; relations: ImportOutcome[] }>;
}

/** The outcome of one imported line. */
export interface LineResult {
  line: number;
  status: 'created' | 'duplicate' | 'imported' | 'exists' | 'skipped' | 'error';
  id?: string;
  error?: { code: string; message: string; field?: string };
}

/** Totals of an import run. */
export interface ImportReport {
  lines: number;
  created: number;
  duplicate: number;
  imported: number;
  exists: number;
  skipped: number;
  error: number;
  errors: LineResult[];
}

/** Options of an import run. */
export interface ImportOptions {
  /** Space for plain memory lines without one (default: the configured space). */
  space?: string;
  /**
   * Every line must belong to `space`: a line naming another space fails alone. Set by callers
   * scoped to one space (an HTTP token), so an import can never write outside that space.
   * `'plain'` confines only plain memory lines; records of an engram export keep their space
   * (the CLI, whose user may write every space, moving a whole store).
   */
  confine?: boolean | 'plain';
  batchSize?: number;
  /** Called after each committed batch with that batch's results (acknowledged lines). */
  onBatch?: (results: readonly LineResult[], report: ImportReport) => void;
}

/**
 * Streams the export of one space (or all, with null) as JSON lines without newlines, read from
 * one store snapshot: the snapshot lasts until the last line is read or the reader stops.
 */
export function exportLines(service: TransferTarget, space: string | null): AsyncIterable<string> {
  return pulled((push) =>
    service.storeForTransfer.snapshot(async (view) => {
      for await (const line of snapshotLines(view, space)) await push(line);
    }),
  );
}

function errorResult(line: number, err: unknown): LineResult {
  const e = toEngramError(err);
  return {
    line,
    status: 'error',
    error: { code: e.code, message: e.message, field: e.details.field },
  };
}

/** Imports JSON lines; every line gets a result, a bad line fails alone. */
export async function importLines(
  service: TransferTarget,
  lines: AsyncIterable<string> | Iterable<string>,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const report: ImportReport = {
    lines: 0,
    created: 0,
    duplicate: 0,
    imported: 0,
    exists: 0,
    skipped: 0,
    error: 0,
    errors: [],
  };
  const batchSize = Math.max(
    1,
    Math.min(options.batchSize ?? 500, service.config.limits.max_batch_items),
  );
  let batch: ParsedLine[] = [];
  const pending: LineResult[] = [];
  const flush = async () => {
    const results = [...pending, ...(await writeBatch(service, batch, options.space))].sort(
      (a, b) => a.line - b.line,
    );
    pending.length = 0;
    batch = [];
    for (const r of results) {
      report[r.status]++;
      if (r.status === 'error') report.errors.push(r);
    }
    options.onBatch?.(results, report);
  };
  let n = 0;
  for await (const raw of lines) {
    n++;
    report.lines = n;
    if (raw.trim() === '') continue;
    try {
      batch.push(confined(parseLine(raw, n), options));
    } catch (err) {
      pending.push(errorResult(n, err));
    }
    if (batch.length + pending.length >= batchSize) await flush();
  }
  if (batch.length + pending.length > 0) await flush();
  return report;
}

/** The space a parsed line writes to, when it names one. */
function lineSpace(p: ParsedLine): unknown {
  if (p.kind === 'item') return p.value.item.space;
  if (p.kind === 'relation') return p.value.space;
  if (p.kind === 'dormant_event' || p.kind === 'dormant_state') return p.value.space;
  if (isLifecycle(p)) return lifecycleLineSpace(p);
  if (isSession(p)) return sessionLineSpace(p);
  if (p.kind === 'memory') return (p.value as { space?: unknown }).space;
  return undefined;
}

function isLifecycle(p: ParsedLine): p is Extract<ParsedLine, { kind: LifecycleLine['kind'] }> {
  return LIFECYCLE_LINE_TYPES.includes(p.kind as never);
}

function isSession(p: ParsedLine): p is Extract<ParsedLine, { kind: SessionLine['kind'] }> {
  return SESSION_LINE_TYPES.includes(p.kind as never);
}

function confined(p: ParsedLine, options: ImportOptions): ParsedLine {
  const space = lineSpace(p);
  if (!options.confine || options.space === undefined || space === undefined) return p;
  if (options.confine === 'plain' && p.kind !== 'memory') return p;
  if (space === options.space) return p;
  const message = `space: this import is confined to space ${options.space}`;
  throw new EngramError('INVALID_INPUT', message, {
    field: 'space',
    rule: `= ${options.space}`,
    line: p.line,
  });
}

async function writeBatch(
  service: TransferTarget,
  batch: readonly ParsedLine[],
  space: string | undefined,
): Promise<LineResult[]> {
  const results: LineResult[] = batch
    .filter((p) => p.kind === 'skip')
    .map((p) => ({ line: p.line, status: 'skipped' }));
  const memories = batch.filter(
    (p): p is Extract<ParsedLine, { kind: 'memory' }> => p.kind === 'memory',
  );
  if (memories.length > 0) {
    const written = await service.rememberMany(
      memories.map((m) => withSpace(m.value, space)),
      { priority: 'background' },
    );
    written.forEach((r, i) => {
      const line = memories[i]!.line;
      results.push(
        r.ok
          ? { line, status: r.created ? 'created' : 'duplicate', id: r.memory.id }
          : { line, status: 'error', error: r.error },
      );
    });
  }
  const items = batch.filter((p): p is Extract<ParsedLine, { kind: 'item' }> => p.kind === 'item');
  const relations = batch.filter(
    (p): p is Extract<ParsedLine, { kind: 'relation' }> => p.kind === 'relation',
  );
  if (items.length + relations.length > 0) {
    const outcomes = await service.importRecords(
      items.map((i) => i.value),
      relations.map((r) => r.value),
    );
    outcomes.items.forEach((o, i) =>
      results.push({ line: items[i]!.line, status: o, id: items[i]!.value.item.id }),
    );
    outcomes.relations.forEach((o, i) =>
      results.push({ line: relations[i]!.line, status: o, id: relations[i]!.value.id }),
    );
  }
  const dormant = batch.filter(
    (p): p is Extract<ParsedLine, { kind: DormantLine['kind'] }> =>
      p.kind === 'dormant_event' || p.kind === 'dormant_state',
  );
  if (dormant.length > 0) {
    try {
      const outcomes = await importDormantLines(service.storeForTransfer, dormant);
      outcomes.forEach((o, i) => results.push({ line: dormant[i]!.line, status: o }));
    } catch (err) {
      // Telemetry lines fail together (one transaction) and never take the items down with them.
      for (const p of dormant) results.push(errorResult(p.line, err));
    }
  }
  results.push(...(await writeLifecycle(service, batch.filter(isLifecycle))));
  results.push(...(await writeSessions(service, batch.filter(isSession))));
  return results;
}

/**
 * Writes a batch's session lines in one transaction; a session whose id was purged in its space
 * stays out (`skipped`). A failed transaction fails only these lines.
 */
async function writeSessions(
  service: TransferTarget,
  lines: readonly Extract<ParsedLine, { kind: SessionLine['kind'] }>[],
): Promise<LineResult[]> {
  if (lines.length === 0) return [];
  try {
    const outcomes = await importSessionLines(service.storeForTransfer, lines);
    return outcomes.map((o, i) => ({
      line: lines[i]!.line,
      status: o === 'purged' ? 'skipped' : o,
      id: lines[i]!.value.id,
    }));
  } catch (err) {
    return lines.map((p) => errorResult(p.line, err));
  }
}

/**
 * Writes a batch's lifecycle lines after its items (a base line needs its item), in one
 * transaction: a line the store refuses fails alone, a failed transaction fails only these lines.
 */
async function writeLifecycle(
  service: TransferTarget,
  lines: readonly Extract<ParsedLine, { kind: LifecycleLine['kind'] }>[],
): Promise<LineResult[]> {
  if (lines.length === 0) return [];
  try {
    const outcomes = await importLifecycleLines(service.storeForTransfer, lines);
    return outcomes.map((o, i) =>
      typeof o === 'string'
        ? { line: lines[i]!.line, status: o }
        : errorResult(lines[i]!.line, o.error),
    );
  } catch (err) {
    return lines.map((p) => errorResult(p.line, err));
  }
}

function withSpace(value: unknown, space: string | undefined): unknown {
  if (space === undefined || typeof value !== 'object' || value === null || 'space' in value)
    return value;
  return { ...value, space };
}

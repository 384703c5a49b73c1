/**
 * The lines of engram's JSONL export (§12), as a whole: the header, the order a snapshot is
 * written in (items, relations, lifecycle state, dormant-recall telemetry, sessions: what a line
 * refers to comes first), and the decoding of any line by its `type`. Each line type's shape,
 * encoding and validation live in records.ts, lifecycle-records.ts, dormant-records.ts and
 * session-records.ts.
 */
import { EngramError } from '../domain/errors.js';
import type { ItemExport, RelationRecord } from '../domain/records.js';
import type { SnapshotView } from '../store/store.js';
import {
  DORMANT_LINE_TYPES,
  dormantEventToLine,
  type DormantLine,
  dormantStateToLine,
  parseDormantLine,
} from './dormant-records.js';
import {
  LIFECYCLE_LINE_TYPES,
  type LifecycleLine,
  lifecycleToLine,
  parseLifecycleLine,
} from './lifecycle-records.js';
import { itemToLine, parseItemLine, parseRelationLine, relationToLine } from './records.js';
import {
  parseSessionLine,
  SESSION_LINE_TYPES,
  type SessionLine,
  sessionToLine,
} from './session-records.js';

/** Format tag of the export header. */
export const EXPORT_FORMAT = 'engram-export';
/** Version of the export format. */
export const EXPORT_VERSION = 1;

/** The header line: the format, its version, when and of which space (null: all) it was taken. */
export function headerToLine(at: number, space: string | null): string {
  return JSON.stringify({
    type: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date(at).toISOString(),
    space,
  });
}

/** Every line of an export of a space (or all, with null) from one snapshot, header first. */
export async function* snapshotLines(
  view: SnapshotView,
  space: string | null,
): AsyncIterable<string> {
  yield headerToLine(view.at, space);
  for await (const record of view.items(space)) yield itemToLine(record);
  for await (const relation of view.relations(space)) yield relationToLine(relation);
  for await (const record of view.lifecycle(space)) yield lifecycleToLine(record);
  for await (const event of view.dormantEvents(space)) yield dormantEventToLine(event);
  for await (const state of view.dormantStates(space)) yield dormantStateToLine(state);
  for await (const record of view.sessions(space)) yield sessionToLine(record);
}

/** One decoded line, with its line number: a record to import, a plain memory, or the header. */
export type ParsedLine =
  | { line: number; kind: 'memory'; value: unknown }
  | { line: number; kind: 'item'; value: ItemExport }
  | { line: number; kind: 'relation'; value: RelationRecord }
  | { line: number; kind: 'skip' }
  | ({ line: number } & DormantLine)
  | ({ line: number } & SessionLine)
  | ({ line: number } & LifecycleLine);

/** Decodes and validates one line; a bad line throws INVALID_INPUT naming the field. */
export function parseLine(text: string, line: number): ParsedLine {
  const value = jsonObject(text, line);
  const type = (value as { type?: unknown }).type;
  if (type === EXPORT_FORMAT) return checkHeader(value, line);
  if (type === 'item') return { line, kind: 'item', value: parseItemLine(value) };
  if (type === 'relation') return { line, kind: 'relation', value: parseRelationLine(value) };
  if (DORMANT_LINE_TYPES.includes(type as never)) return { line, ...parseDormantLine(value) };
  if (LIFECYCLE_LINE_TYPES.includes(type as never)) return { line, ...parseLifecycleLine(value) };
  if (SESSION_LINE_TYPES.includes(type as never)) return { line, ...parseSessionLine(value) };
  if (type !== undefined && type !== 'memory')
    throw new EngramError('INVALID_INPUT', `type: unknown line type ${JSON.stringify(type)}`, {
      field: 'type',
      rule: `item, relation, ${[...LIFECYCLE_LINE_TYPES, ...DORMANT_LINE_TYPES, ...SESSION_LINE_TYPES].join(', ')}, memory or the export header`,
    });
  const { type: _t, ...rest } = value;
  return { line, kind: 'memory', value: rest };
}

function jsonObject(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new EngramError('INVALID_INPUT', `not valid JSON: ${(err as Error).message}`, {
      field: '(line)',
      rule: 'one JSON object per line',
      line,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EngramError('INVALID_INPUT', 'each line must be a JSON object', {
      field: '(line)',
      rule: 'JSON object',
      line,
    });
  return value as Record<string, unknown>;
}

/** A header is skipped on import, once its version is one this engram reads. */
function checkHeader(value: Record<string, unknown>, line: number): ParsedLine {
  const version = value.version;
  if (version !== EXPORT_VERSION)
    throw new EngramError(
      'INVALID_INPUT',
      `export format version ${String(version)} is not supported (this engram reads ${EXPORT_VERSION})`,
      { field: 'version', rule: `= ${EXPORT_VERSION}`, line },
    );
  return { line, kind: 'skip' };
}

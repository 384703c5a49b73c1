/**
 * Row <-> record mapping of the PostgreSQL store, positional parameters, the SQL of item filters,
 * list cursors, and vectors in pgvector's text form (lossless for float32, signed zero included).
 */
import { EngramError } from '../../domain/errors.js';
import type { ItemFilter } from '../../domain/filter.js';
import type { RelationRecord, StatusEventRecord, VersionRecord } from '../../domain/records.js';
import type { RelationType } from '../../domain/types.js';
import { ITEM_ROW_COLUMNS, type ItemColumns, itemFromColumns, TIME_RANGES } from '../item-rows.js';

/** The columns of an item row, without the full-text vector. */
export const ITEM_COLUMNS = ITEM_ROW_COLUMNS;

/** The item columns prefixed with an alias. */
export function itemColumns(alias: string): string {
  return ITEM_COLUMNS.split(', ')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

/** An `items` row as the driver returns it (int8 parsed to numbers, json and arrays parsed). */
export type PgItemRow = ItemColumns;

/** Maps an items row to a record; a null status reads as active. */
export const itemFromRow = itemFromColumns;

/** Maps a versions row. */
export function versionFromRow(row: VersionRecord): VersionRecord {
  return {
    item_id: row.item_id,
    version: row.version,
    title: row.title,
    body: row.body,
    tags: row.tags,
    actor: row.actor,
    reason: row.reason,
    created_at: row.created_at,
  };
}

/** Maps a relations row. */
export function relationFromRow(row: RelationRecord): RelationRecord {
  return {
    id: row.id,
    space: row.space,
    type: row.type as RelationType,
    from_id: row.from_id,
    to_id: row.to_id,
    actor: row.actor,
    reason: row.reason,
    created_at: row.created_at,
    invalidated_at: row.invalidated_at,
    invalidated_reason: row.invalidated_reason,
  };
}

/** Maps a status_events row. */
export function eventFromRow(row: StatusEventRecord): StatusEventRecord {
  return {
    id: row.id,
    item_id: row.item_id,
    from_status: row.from_status,
    to_status: row.to_status,
    reason: row.reason,
    actor: row.actor,
    at: row.at,
  };
}

/** Positional parameters collected while SQL is assembled. */
export class Params {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder (`$n`), with an optional cast. */
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/** Compiles an item filter into SQL over the alias `i`. */
export function compileFilter(filter: ItemFilter, params: Params, alias = 'i'): string {
  const a = alias;
  const parts = [`${a}.space = ${params.add(filter.space)}`];
  const statuses = params.add([...filter.statuses], '::text[]');
  parts.push(
    filter.statuses.includes('active')
      ? `(${a}.status = ANY(${statuses}) OR ${a}.status IS NULL)`
      : `${a}.status = ANY(${statuses})`,
  );
  if (filter.kinds?.length)
    parts.push(`${a}.kind = ANY(${params.add([...filter.kinds], '::text[]')})`);
  if (filter.areas?.length) {
    const ors = filter.areas.map(
      (area) =>
        `(${a}.area = ${params.add(area)} OR starts_with(${a}.area, ${params.add(`${area}/`)}))`,
    );
    parts.push(`(${ors.join(' OR ')})`);
  }
  if (filter.tags?.length) parts.push(`${a}.tags @> ${params.add([...filter.tags], '::text[]')}`);
  if (filter.pinned !== undefined) parts.push(`${a}.pinned = ${params.add(filter.pinned)}`);
  for (const [key, column, op] of TIME_RANGES) {
    const value = filter[key];
    if (value !== undefined) parts.push(`${a}.${column} ${op} ${params.add(value)}`);
  }
  return parts.join(' AND ');
}

export { decodeCursor, encodeCursor } from '../item-rows.js';

/** A vector in pgvector's text form; each float32 prints as its shortest exact decimal. */
export function vectorText(vector: Float32Array): string {
  let out = '[';
  for (let i = 0; i < vector.length; i++) {
    const v = vector[i]!;
    if (i > 0) out += ',';
    out += Object.is(v, -0) ? '-0' : String(v);
  }
  return `${out}]`;
}

/** pgvector's text form back into a Float32Array. */
export function parseVector(text: string): Float32Array {
  const body = text.slice(1, -1);
  if (body === '') return new Float32Array(0);
  const parts = body.split(',');
  const out = new Float32Array(parts.length);
  for (let i = 0; i < parts.length; i++) out[i] = Number(parts[i]);
  return out;
}

/** Rejects text PostgreSQL cannot hold (NUL characters), naming the field. */
export function assertStorable(value: unknown, field: string): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      throw new EngramError(
        'INVALID_INPUT',
        `${field}: must not contain NUL characters (U+0000), which PostgreSQL cannot store`,
        { field, rule: 'no NUL characters' },
      );
  } else if (Array.isArray(value)) value.forEach((v, i) => assertStorable(v, `${field}[${i}]`));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) assertStorable(v, `${field}.${k}`);
}

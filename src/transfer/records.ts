/**
 * Item and relation lines of the JSONL export (§12): their strict schemas and their conversion
 * to and from store records. Times are ISO 8601 in the file and vectors base64 float32, so every
 * field survives a move between backends exactly.
 */
import { z } from 'zod';

import { EngramError } from '../domain/errors.js';
import { idSchema, isoSchema, sourceSchema, spaceSchema } from '../domain/input.js';
import type { ItemExport, RelationRecord } from '../domain/records.js';
import { KINDS, RELATION_TYPES, STATUSES } from '../domain/types.js';
import { fromZodError } from '../domain/zod.js';

const ms = (iso: string) => Date.parse(iso);
const isoOrNull = z.union([isoSchema, z.null()]);
const vec = z.strictObject({
  model: z.string().min(1),
  dimension: z.number().int().min(0),
  vector: z.string().nullable(),
});

const itemLine = z.strictObject({
  type: z.literal('item'),
  item: z.strictObject({
    id: idSchema,
    space: spaceSchema,
    area: z.string().min(1),
    kind: z.enum(KINDS),
    title: z.string().nullable(),
    body: z.string().min(1),
    body_hash: z.string().min(1),
    tags: z.array(z.string()),
    importance: z.number().min(0).max(1),
    pinned: z.boolean(),
    status: z.enum(STATUSES),
    strength: z.number().min(0).max(1),
    source: sourceSchema.nullable(),
    version: z.number().int().min(1),
    created_at: isoSchema,
    updated_at: isoSchema,
    access_count: z.number().int().min(0),
    last_accessed_at: isoOrNull,
    use_count: z.number().int().min(0),
    last_used_at: isoOrNull,
    prior: z.record(z.string(), z.unknown()).nullable(),
    vector_state: z.enum(['ready', 'pending', 'empty']),
  }),
  versions: z.array(
    z.strictObject({
      version: z.number().int().min(1),
      title: z.string().nullable(),
      body: z.string(),
      tags: z.array(z.string()),
      actor: z.string().nullable(),
      reason: z.string().nullable(),
      created_at: isoSchema,
    }),
  ),
  status_events: z.array(
    z.strictObject({
      id: z.string().min(1),
      from_status: z.enum(STATUSES).nullable(),
      to_status: z.enum(STATUSES),
      reason: z.string(),
      actor: z.string().nullable(),
      at: isoSchema,
    }),
  ),
  vectors: z.array(vec),
});

const relationLine = z.strictObject({
  type: z.literal('relation'),
  relation: z.strictObject({
    id: z.string().min(1),
    space: spaceSchema,
    type: z.enum(RELATION_TYPES),
    from_id: idSchema,
    to_id: idSchema,
    actor: z.string().nullable(),
    reason: z.string().nullable(),
    created_at: isoSchema,
    invalidated_at: isoOrNull,
    invalidated_reason: z.string().nullable(),
  }),
});

function vectorToBase64(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

function base64ToVector(s: string, dimension: number, field: string): Float32Array {
  const bytes = Buffer.from(s, 'base64');
  if (bytes.byteLength !== dimension * 4)
    throw new EngramError(
      'INVALID_INPUT',
      `${field}: vector has ${bytes.byteLength / 4} values, dimension says ${dimension}`,
      { field, rule: 'length = dimension' },
    );
  const out = new Float32Array(dimension);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

const iso = (t: number) => new Date(t).toISOString();
const isoN = (t: number | null) => (t === null ? null : iso(t));

/** One exported item as a JSON line. */
export function itemToLine(r: ItemExport): string {
  const { item } = r;
  return JSON.stringify({
    type: 'item',
    item: {
      ...item,
      created_at: iso(item.created_at),
      updated_at: iso(item.updated_at),
      last_accessed_at: isoN(item.last_accessed_at),
      last_used_at: isoN(item.last_used_at),
    },
    versions: r.versions.map((v) => ({
      version: v.version,
      title: v.title,
      body: v.body,
      tags: v.tags,
      actor: v.actor,
      reason: v.reason,
      created_at: iso(v.created_at),
    })),
    status_events: r.status_events.map((e) => ({
      id: e.id,
      from_status: e.from_status,
      to_status: e.to_status,
      reason: e.reason,
      actor: e.actor,
      at: iso(e.at),
    })),
    vectors: r.vectors.map((v) => ({
      model: v.model,
      dimension: v.dimension,
      vector: v.vector ? vectorToBase64(v.vector) : null,
    })),
  });
}

/** One relation as a JSON line. */
export function relationToLine(r: RelationRecord): string {
  return JSON.stringify({
    type: 'relation',
    relation: { ...r, created_at: iso(r.created_at), invalidated_at: isoN(r.invalidated_at) },
  });
}

/** Parses an `item` line into the full record it carries. */
export function parseItemLine(value: unknown): ItemExport {
  const parsed = itemLine.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error);
  const { item, versions, status_events, vectors } = parsed.data;
  return {
    item: {
      ...item,
      prior: item.prior as ItemExport['item']['prior'],
      created_at: ms(item.created_at),
      updated_at: ms(item.updated_at),
      last_accessed_at: item.last_accessed_at === null ? null : ms(item.last_accessed_at),
      last_used_at: item.last_used_at === null ? null : ms(item.last_used_at),
    },
    versions: versions.map((v) => ({ ...v, item_id: item.id, created_at: ms(v.created_at) })),
    status_events: status_events.map((e) => ({ ...e, item_id: item.id, at: ms(e.at) })),
    vectors: vectors.map((v, i) => ({
      model: v.model,
      dimension: v.dimension,
      vector:
        v.vector === null ? null : base64ToVector(v.vector, v.dimension, `vectors[${i}].vector`),
    })),
  };
}

/** Parses a `relation` line. */
export function parseRelationLine(value: unknown): RelationRecord {
  const parsed = relationLine.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error);
  const r = parsed.data.relation;
  return {
    ...r,
    created_at: ms(r.created_at),
    invalidated_at: r.invalidated_at === null ? null : ms(r.invalidated_at),
  };
}

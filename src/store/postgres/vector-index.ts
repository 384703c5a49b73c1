/**
 * The vector channel on PostgreSQL: one partial HNSW index (pgvector, cosine) per published model,
 * an exact scan for small spaces, and exact float64 re-scoring of every ANN candidate so scores
 * and ties match the SQLite store's exact scan. An ANN pass that comes back short (a selective
 * filter the index scan could not satisfy) falls back to the exact scan, so filters never hide
 * results.
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { ScoredId } from '../store.js';
import type { Queryable } from './database.js';
import { pgDriver } from './driver.js';
import { compileFilter, Params, vectorText } from './rows.js';

/** HNSW build and search settings. */
export interface HnswSettings {
  m: number;
  efConstruction: number;
  efSearch: number;
  /** Spaces with fewer vectors than this are scanned exactly. */
  exactBelow: number;
}

/** The name of a model's index: stable, short and free of the model id's characters. */
export function vectorIndexName(model: string, dimension: number): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(`${model}\u0000${dimension}`, 'utf8'))
    hash = Math.imul(hash ^ byte, 0x01000193);
  return `vectors_hnsw_${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** The statement creating a model's partial HNSW index (cosine) on the vectors table. */
export function vectorIndexSql(
  model: string,
  dimension: number,
  hnsw: { m: number; efConstruction: number },
): string {
  // pgvector's bounds: m in 2..100, ef_construction in 4..1000 and at least 2 * m.
  const m = Math.min(100, Math.max(2, hnsw.m));
  const efConstruction = Math.min(1_000, Math.max(2 * m, hnsw.efConstruction));
  return `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${vectorIndexName(model, dimension)} ON vectors USING hnsw ((embedding::vector(${dimension})) vector_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction}) WHERE model = ${pgDriver().escapeLiteral(model)} AND dimension = ${dimension}`;
}

interface Candidate {
  id: string;
  pk: number;
  /**
   * pgvector's binary form (`vector_send`), cheaper to move and read than its text: the dimension
   * and an unused word (int16 each), then big-endian float4s.
   */
  vec: Buffer;
}

/** A vector from pgvector's binary form. */
function binaryVector(bytes: Buffer): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dimension = view.getInt16(0);
  const out = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) out[i] = view.getFloat32(4 + 4 * i);
  return out;
}

/** Cosine in float64 over float32 inputs, as the SQLite store scores. */
function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  const norm = Math.sqrt(na * nb);
  // Unit vectors (what embedders give) keep their plain dot product, bit for bit.
  return Math.abs(norm - 1) < 1e-6 ? dot : dot / norm;
}

function rescore(candidates: Candidate[], query: Float32Array, limit: number): ScoredId[] {
  return candidates
    .map((c) => ({ id: c.id, pk: c.pk, score: cosine(binaryVector(c.vec), query) }))
    .sort((a, b) => b.score - a.score || a.pk - b.pk)
    .slice(0, limit)
    .map(({ id, score }) => ({ id, score }));
}

function candidateSql(filter: ItemFilter, model: string, query: Float32Array, params: Params) {
  const where = compileFilter(filter, params);
  const q = params.add(vectorText(query));
  const dimension = query.length;
  const from = `FROM vectors v JOIN items i ON i.pk = v.item_pk WHERE v.model = ${pgDriver().escapeLiteral(model)} AND v.dimension = ${dimension} AND v.embedding IS NOT NULL AND ${where}`;
  return { from, q, dimension };
}

/** How many of the nearest vectors the exact scan checks against the filter, per row it needs. */
const NEAREST_FETCH = 2;

/**
 * Exact top candidates: a scan ordered by pgvector's distance, then float64 re-scoring. When the
 * space holds more vectors than it reads, distances come from the vectors alone and only the
 * nearest are checked against the filter (a key lookup each): joining every vector to its item
 * first hashed the whole table (18 -> 8 ms server time on 10k items). When too few of them pass
 * (a selective filter, vectors of other spaces), the joined scan answers.
 */
export async function exactSearch(
  db: Queryable,
  filter: ItemFilter,
  model: string,
  query: Float32Array,
  limit: number,
  spaceVectors = Infinity,
): Promise<ScoredId[]> {
  const margin = limit + 8;
  const fetch = margin * NEAREST_FETCH;
  if (spaceVectors > fetch) {
    const params = new Params();
    const q = params.add(vectorText(query));
    const where = compileFilter(filter, params);
    const rows = await db.query<Candidate>(
      `SELECT i.id, i.pk, vector_send(c.embedding) AS vec FROM (SELECT v.item_pk, v.embedding, v.embedding <=> ${q}::vector AS distance FROM vectors v WHERE v.model = ${pgDriver().escapeLiteral(model)} AND v.dimension = ${query.length} AND v.embedding IS NOT NULL ORDER BY distance, v.item_pk LIMIT ${params.add(fetch)}) c JOIN items i ON i.pk = c.item_pk WHERE ${where} ORDER BY c.distance, c.item_pk LIMIT ${params.add(margin)}`,
      params.values,
    );
    if (rows.length >= margin) return rescore(rows, query, limit);
  }
  const params = new Params();
  const { from, q } = candidateSql(filter, model, query, params);
  // The vectors' wire form is made for the best rows only: selected beside the sort, it would be
  // computed for every row scanned (most of an exact scan's time).
  const rows = await db.query<Candidate>(
    `SELECT best.id, best.pk, vector_send(best.embedding) AS vec FROM (SELECT i.id, i.pk, v.embedding, v.embedding <=> ${q}::vector AS distance ${from} ORDER BY distance, i.pk LIMIT ${params.add(margin)}) best ORDER BY best.distance, best.pk`,
    params.values,
  );
  return rescore(rows, query, limit);
}

/** The candidates an ANN search for `limit` hits reads from the index. */
function annCandidates(limit: number): number {
  return Math.min(1_000, Math.max(limit * 2, 40));
}

/**
 * The `hnsw.ef_search` a search for `limit` hits walks with: the configured one, raised to the
 * candidates it reads (pgvector caps it at 1,000). `annEf(0, hnsw)` is the connections' default.
 */
export function annEf(limit: number, hnsw: HnswSettings): number {
  return Math.min(1_000, Math.max(hnsw.efSearch, annCandidates(limit)));
}

/**
 * The settings every pool connection starts with (`-c` startup options), so a search with the
 * default walk size runs as one statement, without a transaction to set them.
 */
export function hnswSessionSettings(hnsw: HnswSettings): Record<string, string> {
  return { 'hnsw.ef_search': String(annEf(0, hnsw)), 'hnsw.iterative_scan': 'relaxed_order' };
}

/** Sets a search's walk size for the rest of the transaction `tx`. */
export async function setAnnEf(tx: Queryable, ef: number): Promise<void> {
  await tx.query("SELECT set_config('hnsw.ef_search', $1, true)", [String(ef)]);
}

/**
 * ANN candidates from the model's HNSW index (iterative scan, so filters are applied while the
 * graph is walked), re-scored exactly. Returns null when the index pass came back short. `db`
 * walks with `annEf(limit, hnsw)`: a pool connection's default, or set by `setAnnEf` in the
 * caller's transaction.
 */
export async function annSearch(
  db: Queryable,
  filter: ItemFilter,
  model: string,
  query: Float32Array,
  limit: number,
): Promise<ScoredId[] | null> {
  // The index walks ef_search neighbours; the best few of them are re-scored exactly. Fetching
  // every one of them would mostly move vectors that can no longer make the cut.
  const candidates = annCandidates(limit);
  const params = new Params();
  const { from, q, dimension } = candidateSql(filter, model, query, params);
  const rows = await db.query<Candidate>(
    `SELECT i.id, i.pk, vector_send(v.embedding) AS vec ${from} ORDER BY v.embedding::vector(${dimension}) <=> ${q}::vector(${dimension}) LIMIT ${params.add(candidates)}`,
    params.values,
  );
  if (rows.length < limit) return null;
  return rescore(rows, query, limit);
}

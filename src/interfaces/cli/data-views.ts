/** Human rendering of `status`: the store, its vectors, the published model and the embedder. */
import type { ServiceStatus } from '../../service/models.js';
import type { KeywordIndexState, VectorIndexState } from '../../store/store.js';

/** The approximate vector indexes this process has open, one line each. */
function vectorIndexLines(indexes: VectorIndexState[] | undefined): string[] {
  if (indexes === undefined) return [];
  if (indexes.length === 0)
    return [
      'vector index not open in this process (opened by the first vector search of a store above store.ann.min_items)',
    ];
  return indexes.map(
    (x) =>
      `vector index ${x.model}: ${x.state}, ${x.vectors} vectors, ${x.pending} pending${x.loaded_from_file ? ', loaded from file' : ''}${x.last_error ? `; last error: ${x.last_error}` : ''}`,
  );
}

function keywordIndexLines(index: KeywordIndexState | undefined): string[] {
  if (index === undefined) return [];
  return [
    `keyword index (in memory): ${index.state.replace('_', ' ')}, ${index.rows} items, ${index.pending} pending${index.last_error ? `; last error: ${index.last_error}` : ''}`,
  ];
}

function counts(byKey: Record<string, number>): string {
  return Object.entries(byKey)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** The lines of `status`. */
export function statusLines(s: ServiceStatus): string[] {
  const e = s.embedder;
  return [
    `space        ${s.space}`,
    `store        ${s.store.backend} ${s.store.location} (schema v${s.store.schema_version}${s.store.size_bytes !== null ? `, ${(s.store.size_bytes / 1e6).toFixed(1)} MB` : ''})`,
    `items        ${s.store.items_total} (${counts(s.store.by_status) || 'none'})`,
    `kinds        ${counts(s.store.by_kind) || '-'}`,
    `vectors      ready ${s.store.vectors.ready}, pending ${s.store.vectors.pending}, empty ${s.store.vectors.empty}`,
    `relations    ${s.store.relations}`,
    `model        ${s.published_model ? `${s.published_model.id} (${s.published_model.dimension}-d, published)` : 'none published yet'}`,
    `embedder     ${'model_id' in e ? `${e.model_id}, ${e.available ? 'available' : `unavailable: ${e.reason ?? ''}`}${e.loaded ? ', loaded' : ''}` : `unavailable: ${e.reason}`}`,
    ...vectorIndexLines(s.store.vector_index),
    ...keywordIndexLines(s.store.keyword_index),
  ];
}

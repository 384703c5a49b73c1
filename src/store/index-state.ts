/** What `status` tells about the store's in-memory search indexes. */

/** The state of one model's approximate vector index, for `status`. */
export interface VectorIndexState {
  model: string;
  /** `building`: first build, exact scan meanwhile; `catching_up`: too far behind, same. */
  state: 'ready' | 'building' | 'catching_up' | 'broken';
  /** Vectors of the model (all spaces). */
  vectors: number;
  /** Changed items not yet in the index (scanned exactly beside it meanwhile). */
  pending: number;
  /** Change-log position the index covers. */
  covered_seq: number;
  loaded_from_file: boolean;
  file: string | null;
  last_error: string | null;
}

/** The state of the in-memory keyword index, for `status`. */
export interface KeywordIndexState {
  /**
   * `not_started`: no keyword search yet in this process; `building`: first read of the store,
   * FTS5 answering meanwhile; `catching_up`: too many changes behind, same; `ready`: answering;
   * `failed`: index work failed (`last_error`), FTS5 answers for the rest of the process.
   */
  state: 'not_started' | 'building' | 'catching_up' | 'ready' | 'failed';
  /** Items held. */
  rows: number;
  /** Logged changes not yet applied. */
  pending: number;
  /** Change-log position the index covers. */
  covered_seq: number;
  last_error: string | null;
}

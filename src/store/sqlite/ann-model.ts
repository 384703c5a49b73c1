/**
 * The approximate vector index of one model, kept in step with the store's vector change log.
 *
 * The index is never on a query's critical path for maintenance: items changed since the index
 * last absorbed them wait in `pending` (ordered by their latest change) and every search scans
 * them exactly beside the HNSW candidates, then re-scores everything against the in-memory mirror.
 * Background slices absorb pending items into the index; because they go in log order, the index
 * always "covers" a prefix of the log, which is what its file records, so a saved index (even a
 * partial build) is caught up from the log by whoever loads it. Searches fall back to the exact
 * scan, and say so, while the index is missing, still being built, or too far behind.
 */
import type { VectorIndexState } from '../store.js';
import {
  HnswIndex,
  type HnswParams,
  type IndexFiles,
  type IndexSidecar,
  isLabel,
} from './ann-index.js';
import { deletedAfter } from './ann-scrub.js';
import { SharedPoints } from './ann-shared.js';
import type { SqliteDatabase } from './database.js';
import { TopK, type VectorHit } from './top-k.js';
import type { VectorCache } from './vector-cache.js';

/** Why a search in the index's size range ran on the exact scan instead. */
export type AnnDegradation = 'ann_index_unavailable' | 'ann_index_stale';

/** A search answer with the reason it was not approximate when it should have been. */
export interface AnnAnswer {
  hits: VectorHit[];
  degraded?: AnnDegradation;
  /** True when the HNSW index produced the candidates. */
  approximate: boolean;
}

/** What `status` tells about one model's index. */
export type AnnStatus = VectorIndexState;

/** Milliseconds of index maintenance per background slice (searches run between slices). */
const SLICE_MS = 15;
/** How often a search looks for a newer index file saved by another process. */
const SIDECAR_CHECK_MS = 1_000;
/** At close, pending items up to this many are absorbed before saving (bounded close time). */
const CLOSE_ABSORB_MAX = 2_000;

/** Vectors up to which `ef_search` is used as configured. */
const EF_BASE_VECTORS = 100_000;
/** The largest candidate list a search uses. */
const EF_MAX = 10_000;

/**
 * The candidate list size for an index of `vectors`: `ef_search` up to EF_BASE_VECTORS, then
 * growing in proportion. On the scale benchmark's memories (many near-duplicate sentences) a
 * fixed ef_search of 400 gives recall@10 0.984 at 100k but 0.82 at 1M (0.92 with 1,600); scaled,
 * 1M searches with 3,842 and get 0.958 at 5 ms a search (bench/results/scale-*.md).
 */
export function searchEf(efSearch: number, vectors: number): number {
  return Math.min(EF_MAX, Math.max(efSearch, Math.ceil((efSearch * vectors) / EF_BASE_VECTORS)));
}

/** Absorbed changes that make a save worthwhile (2% of the vectors, between 1 and 20,000). */
export function saveThreshold(size: number): number {
  return Math.min(20_000, Math.max(1, Math.ceil(size * 0.02)));
}

/** The HNSW index of one model beside its vector mirror. */
export class ModelAnn {
  private index: HnswIndex | undefined;
  private fromFile = false;
  private broken = false;
  private lastError: string | null = null;
  private covered = -1;
  private readonly pending = new Map<number, number>();
  /** Items whose key cannot be a label: always scanned exactly. */
  private readonly outside = new Set<number>();
  /** Items with identical vectors sharing one point of the graph (ann-shared.ts). */
  private points = new SharedPoints();
  private unsaved = 0;
  private saving: Promise<void> | undefined;
  private loading: Promise<void> | undefined;
  private incoming: { index: HnswIndex; sidecar: IndexSidecar } | undefined;
  private slice: NodeJS.Timeout | undefined;
  private sidecarStamp = 0;
  private sidecarCheckedAt = 0;
  private currentFile: string | null = null;
  /** A file named by the sidecar that failed to load: a save replaces it whatever it covers. */
  private unusableFile: string | undefined;
  private closed = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly cache: VectorCache,
    private readonly files: IndexFiles | undefined,
    private readonly params: HnswParams & { max_pending: number },
  ) {}

  /**
   * Starts following the log: loads the saved index when there is a usable one, else starts an
   * empty one to build in the background. Call right after a mirror sync, inside its transaction.
   */
  attach(): void {
    this.cache.onChange = (pk, seq) => this.note(pk, seq);
    const sidecar = this.files?.readSidecar();
    if (sidecar && this.files) {
      try {
        if (sidecar.covered_seq > this.cache.seq)
          throw new Error('index file is ahead of the store');
        if (sidecar.m !== this.params.m || sidecar.ef_construction !== this.params.ef_construction)
          throw new Error('built with other m / ef_construction than configured; rebuilding');
        this.adopt(HnswIndex.loadSync(this.files.pathOf(sidecar), sidecar), sidecar);
        this.sidecarStamp = this.files.sidecarStamp();
        return;
      } catch (err) {
        this.lastError = `could not load ${sidecar.file}: ${(err as Error).message}`;
        this.unusableFile = sidecar.file;
      }
    }
    this.index = HnswIndex.create(this.cache.dimension, this.params, this.cache.size * 1.1);
    this.points = new SharedPoints();
    this.fromFile = false;
    this.covered = -1;
    this.refill();
  }

  /** Answers a search: HNSW candidates plus pending items, all re-scored exactly. */
  search(code: number, query: Float32Array, want: number): AnnAnswer {
    this.swapIncoming();
    this.lookForNewerFile();
    this.schedule();
    const index = this.index;
    if (!index || this.broken || this.pending.size > this.params.max_pending)
      return {
        hits: this.cache.searchCode(code, query, want),
        degraded: this.reason(),
        approximate: false,
      };
    let labels: number[];
    try {
      // A point whose own item is gone (a pending purge) still stands for its riders.
      const inSpace = (pk: number) => this.cache.spaceOf(pk) === code;
      const allow =
        this.cache.spaceCount > 1
          ? (label: number) =>
              inSpace(label) || (this.points.sharing(label)?.some(inSpace) ?? false)
          : undefined;
      labels = index.search(query, want, searchEf(this.params.ef_search, this.cache.size), allow);
    } catch (err) {
      this.fail(err);
      return {
        hits: this.cache.searchCode(code, query, want),
        degraded: this.reason(),
        approximate: false,
      };
    }
    const top = new TopK(want);
    const offer = (pk: number) => {
      const score = this.cache.scoreIn(pk, code, query);
      if (score !== undefined && score > top.floor) top.push(pk, score);
    };
    // A point stands for the items riding on it too, even while its own change is pending.
    for (const label of labels)
      for (const pk of this.points.sharing(label) ?? [label]) if (!this.pending.has(pk)) offer(pk);
    for (const pk of this.pending.keys()) offer(pk);
    for (const pk of this.outside) offer(pk);
    return { hits: top.sorted(), approximate: true };
  }

  /**
   * Absorbs every pending change and saves the index. Blocks while it runs, unless `yielding`:
   * then it absorbs in slices and lets the event loop run between them (a model transition builds
   * the new model's index in a process that may be answering recalls meanwhile).
   */
  async flush(options: { yielding?: boolean } = {}): Promise<void> {
    await this.loading;
    await this.saving;
    this.swapIncoming();
    if (!options.yielding) this.absorb(Infinity);
    else
      while (this.pending.size > 0 && !this.broken && !this.closed && this.index) {
        this.absorb(SLICE_MS);
        await new Promise<void>((resolve) => setImmediate(resolve));
        await this.saving;
        this.swapIncoming();
      }
    if (this.unsaved > 0) await this.save(false);
  }

  /** Stops background work; saves what is worth saving (absorbing a small backlog first). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.slice) clearTimeout(this.slice);
    await this.saving;
    await this.loading;
    if (!this.index || this.broken || !this.files) return;
    if (this.pending.size <= CLOSE_ABSORB_MAX) this.absorb(Infinity);
    if (this.unsaved >= saveThreshold(this.cache.size)) await this.save(true);
    this.cache.onChange = undefined;
  }

  /** The index's state, for status output. */
  status(): AnnStatus {
    const state = this.broken
      ? 'broken'
      : this.pending.size > this.params.max_pending
        ? this.fromFile
          ? 'catching_up'
          : 'building'
        : 'ready';
    return {
      model: this.cache.model,
      state,
      vectors: this.cache.size,
      pending: this.pending.size,
      covered_seq: this.covered,
      loaded_from_file: this.fromFile,
      file: this.currentFile,
      last_error: this.lastError,
    };
  }

  private reason(): AnnDegradation {
    return this.fromFile && !this.broken ? 'ann_index_stale' : 'ann_index_unavailable';
  }

  private note(pk: number, seq: number): void {
    this.pending.delete(pk);
    this.pending.set(pk, seq);
  }

  /** Takes a loaded index as current and queues every change it does not cover. */
  private adopt(index: HnswIndex, sidecar: IndexSidecar): void {
    this.index = index;
    this.fromFile = true;
    this.covered = sidecar.covered_seq;
    this.currentFile = sidecar.file;
    this.unsaved = 0;
    this.refill();
    // The file holds points only: the items riding on them are found again in the mirror.
    const settled = [...this.cache.keys()].filter((pk) => isLabel(pk) && !this.pending.has(pk));
    for (const pk of this.points.rebuild(index, settled, this.cache)) this.note(pk, this.cache.seq);
  }

  /** Rebuilds `pending` and `outside` from the log after the covered position. */
  private refill(): void {
    this.pending.clear();
    this.outside.clear();
    for (const pk of this.cache.keys()) if (!isLabel(pk)) this.outside.add(pk);
    // A build from scratch needs only the vectors there are; a catch-up also needs removals.
    const present = this.covered < 0 ? ' AND vector IS NOT NULL' : '';
    const changes = this.db
      .prepare(
        `SELECT item_pk, seq FROM vectors WHERE model = ? AND seq > ? AND seq <= ?${present}`,
      )
      .raw()
      .all(this.cache.model, this.covered, this.cache.seq) as [number, number][];
    if (this.covered >= 0) {
      const deletions = this.db
        .prepare(
          'SELECT item_pk, seq FROM vector_deletions WHERE model = ? AND seq > ? AND seq <= ?',
        )
        .raw()
        .all(this.cache.model, this.covered, this.cache.seq) as [number, number][];
      changes.push(...deletions);
    }
    changes.sort((a, b) => a[1] - b[1]);
    for (const [pk, seq] of changes) this.note(pk, seq);
  }

  private schedule(): void {
    if (this.slice || this.closed) return;
    if ((this.broken || this.pending.size === 0) && !this.incoming) return;
    // A timer, not setImmediate: an unref'd immediate runs only when something else wakes the event
    // loop, while an unref'd timer still wakes it, and neither keeps a finished process alive.
    this.slice = setTimeout(() => {
      this.slice = undefined;
      // A save reads the index on another thread; a newer file being loaded replaces this work.
      if (this.saving || this.loading) return;
      this.swapIncoming();
      this.absorb(SLICE_MS);
      if (this.pending.size > 0) this.schedule();
      else if (this.unsaved >= saveThreshold(this.cache.size)) void this.save(false);
    }, 0);
    this.slice.unref();
  }

  /** Moves pending changes into the index, oldest first, for at most `budgetMs`. */
  private absorb(budgetMs: number): void {
    const index = this.index;
    if (!index || this.broken || this.saving) return;
    const deadline = performance.now() + budgetMs;
    let n = 0;
    try {
      for (const pk of this.pending.keys()) {
        const vector = this.cache.vectorOf(pk);
        if (!isLabel(pk)) {
          if (vector) this.outside.add(pk);
          else this.outside.delete(pk);
        } else if (vector) this.points.upsert(index, pk, vector, this.cache.spaceOf(pk));
        else this.points.remove(index, pk);
        this.pending.delete(pk);
        this.unsaved++;
        if ((++n & 31) === 0 && performance.now() > deadline) break;
      }
    } catch (err) {
      this.fail(err);
      return;
    }
    const next = this.pending.values().next();
    this.covered = next.done ? this.cache.seq : next.value - 1;
  }

  /** Writes the index beside the store (no index mutation meanwhile). */
  private save(sync: boolean): Promise<void> {
    const index = this.index;
    const files = this.files;
    if (!index || !files || this.saving) return this.saving ?? Promise.resolve();
    const covered = this.covered;
    const absorbed = this.unsaved;
    const run = async () => {
      try {
        // Deletions not absorbed yet (a purge in another process) must not be saved.
        const seen = deletedAfter(this.db, this.cache.model, covered);
        for (const label of seen.labels) if (isLabel(label)) this.points.remove(index, label);
        const deletedSince = () => deletedAfter(this.db, this.cache.model, seen.last).labels;
        await files.save(index, covered, this.params, sync, this.unusableFile, deletedSince);
        // A purge committed after the file was sealed may have missed it: scrub it now.
        const late = deletedAfter(this.db, this.cache.model, seen.last);
        if (late.labels.length > 0) await files.scrub(late.labels);
        this.unsaved = Math.max(0, this.unsaved - absorbed);
        const sidecar = files.readSidecar();
        this.currentFile = sidecar?.file ?? this.currentFile;
        this.sidecarStamp = files.sidecarStamp();
      } catch (err) {
        this.lastError = `could not save the index: ${(err as Error).message}`;
      }
    };
    if (sync) return run();
    this.saving = run().finally(() => {
      this.saving = undefined;
      this.schedule();
    });
    return this.saving;
  }

  /** Loads a newer index saved by another process when that beats catching up from the log. */
  private lookForNewerFile(): void {
    const files = this.files;
    if (!files || this.loading || this.incoming || this.closed) return;
    const now = Date.now();
    if (now - this.sidecarCheckedAt < SIDECAR_CHECK_MS) return;
    this.sidecarCheckedAt = now;
    const stamp = files.sidecarStamp();
    if (stamp === this.sidecarStamp) return;
    const sidecar = files.readSidecar();
    if (!sidecar || sidecar.covered_seq <= this.covered || sidecar.file === this.unusableFile)
      return;
    if (sidecar.m !== this.params.m || sidecar.ef_construction !== this.params.ef_construction)
      return;
    if (this.index && !this.broken && this.pending.size < saveThreshold(this.cache.size)) return;
    this.sidecarStamp = stamp;
    this.loading = HnswIndex.load(files.pathOf(sidecar), sidecar)
      .then((index) => {
        this.incoming = { index, sidecar };
      })
      .catch((err: unknown) => {
        this.lastError = `could not load ${sidecar.file}: ${(err as Error).message}`;
        this.unusableFile = sidecar.file;
      })
      .finally(() => {
        this.loading = undefined;
        this.schedule();
      });
  }

  /**
   * Swaps in an index loaded in the background, as soon as no save reads the current one. What the
   * log says after the loaded index's position, up to the mirror's, becomes pending; later changes
   * reach `pending` through the mirror's next sync.
   */
  private swapIncoming(): void {
    const incoming = this.incoming;
    if (!incoming || this.saving) return;
    this.incoming = undefined;
    if (incoming.sidecar.covered_seq <= this.covered && this.index && !this.broken) return;
    if (incoming.sidecar.covered_seq > this.cache.seq) return;
    this.broken = false;
    this.adopt(incoming.index, incoming.sidecar);
  }

  private fail(err: unknown): void {
    this.broken = true;
    this.index = undefined;
    this.lastError = `index failed: ${(err as Error).message}`;
  }
}

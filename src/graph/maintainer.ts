/**
 * Graph maintenance: a write observer that extracts entities from every new or revised text and
 * stores them, and the rebuild that recomputes a space's graph from scratch. Status changes,
 * relations and purges need no work here: the store applies them to the graph in the same
 * transaction as the write (see graph-store.ts).
 *
 * With a concurrent extractor (a worker thread) upkeep is deferred: the write returns at once and
 * a queue extracts and stores in the background, in write order. Readers of the graph in this
 * process first wait for the queue (`idle`), so they see their own writes; a crash before the
 * queue ran leaves items stale, which `graph stats` shows and `graph rebuild --stale-only` fixes.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Extraction } from '../domain/graph.js';
import type { WriteEvent, WriteObserver } from '../domain/observers.js';
import type { ItemRecord } from '../domain/records.js';
import { STATUSES } from '../domain/types.js';
import type { GraphDoc, GraphStore } from '../store/graph-store.js';
import type { Store } from '../store/store.js';
import { type ExtractOptions, EXTRACTOR_VERSION } from './extract.js';
import { type Extractor, InlineExtractor } from './extractor.js';

/** The text entities are read from: title and body. */
export function graphText(item: { title: string | null; body: string }): string {
  return item.title ? `${item.title}\n${item.body}` : item.body;
}

/** A number naming the extraction rules and bounds; an item extracted under others is stale. */
export function extractorSignature(options: ExtractOptions): number {
  const text = `${EXTRACTOR_VERSION}:${options.maxChars}:${options.maxEntities}`;
  return createHash('sha256').update(text).digest().readUInt32BE(0) & 0x7fffffff;
}

/** Progress of a rebuild (and of a catch-up, which has no cursor). */
export interface RebuildProgress {
  done: number;
  /** Where a rebuild continues from: the listing cursor after the last page done. */
  cursor?: string | null;
}

/** Where a stopped rebuild continues: items done, and the listing cursor (null: from the start). */
export interface RebuildCheckpoint {
  done: number;
  cursor: string | null;
}

/** What a rebuild did. */
export interface RebuildReport {
  space: string;
  items: number;
  entities: number;
  edges: number;
  ms: number;
}

const BATCH = 200;
/** Early extractions kept at most (writes that never came are dropped beyond this). */
const MAX_EARLY = 20_000;

/** An extraction started before its item was stored: its batch and its place in it. */
interface Early {
  version: number;
  batch: Promise<Extraction[]>;
  index: number;
}

/** Keeps the graph in step with writes, and rebuilds it on demand. */
export class GraphMaintainer implements WriteObserver {
  readonly name = 'graph';
  private readonly signature: number;
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  /** Extractions started before their items were stored, by item id. */
  private readonly early = new Map<string, Early>();

  constructor(
    private readonly store: Store,
    private readonly graph: GraphStore,
    options: ExtractOptions,
    private readonly extractor: Extractor = new InlineExtractor(options),
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.signature = extractorSignature(options);
  }

  async onWrite(event: WriteEvent): Promise<void> {
    let items: readonly ItemRecord[] = [];
    if (event.type === 'created') items = event.items;
    else if (event.type === 'changed') items = await this.stale(event);
    if (items.length === 0) return;
    const early = this.takeEarly(items);
    if (!this.extractor.concurrent) {
      await this.write(event.space, items, early);
      return;
    }
    this.queued++;
    this.tail = this.tail
      .then(() => this.write(event.space, items, early))
      .then(
        () => {},
        (err: unknown) => this.onError(err),
      )
      .finally(() => this.queued--);
  }

  private async stale(event: Extract<WriteEvent, { type: 'changed' }>): Promise<ItemRecord[]> {
    const states = await this.graph.extractionStates(
      event.space,
      event.items.map((i) => i.id),
    );
    return event.items.filter((i) => {
      const state = states.get(i.id);
      return !state || state.version !== i.version || state.extractor !== this.signature;
    });
  }

  /** Resolves once every write queued so far is in the graph. */
  idle(): Promise<void> {
    return this.tail;
  }

  /** Waits at most `ms` for the queue; true when the graph has caught up. */
  async settle(ms: number): Promise<boolean> {
    if (this.queued === 0) return true;
    const done = await Promise.race([this.tail.then(() => true), sleep(Math.max(0, ms), false)]);
    return done;
  }

  /**
   * Starts extracting items about to be stored, so a worker thread extracts while the writer
   * embeds and inserts them. Returns the function that drops what the write did not use.
   */
  prefetch(items: readonly ItemRecord[]): () => void {
    if (!this.extractor.concurrent || items.length === 0) return () => {};
    if (this.early.size > MAX_EARLY) this.early.clear();
    const all = this.extractor.extractMany(items.map(graphText));
    all.catch(() => {}); // a failure surfaces where the extraction is used
    items.forEach((item, index) =>
      this.early.set(item.id, { version: item.version, batch: all, index }),
    );
    return () => {
      for (const item of items) this.early.delete(item.id);
    };
  }

  /** The early extractions of these items (at their versions), taken out of the cache. */
  private takeEarly(items: readonly ItemRecord[]): (Early | undefined)[] {
    return items.map((item) => {
      const e = this.early.get(item.id);
      this.early.delete(item.id);
      return e && e.version === item.version ? e : undefined;
    });
  }

  /** Extractions of items: those started early, the rest now in one batch. */
  private async extractions(
    items: readonly ItemRecord[],
    early: readonly (Early | undefined)[],
  ): Promise<Extraction[]> {
    const rest = items.filter((_, i) => early[i] === undefined);
    const fresh = await this.extractor.extractMany(rest.map(graphText));
    // Each early batch is awaited once (usually one: the write's own).
    const batches = new Map<Promise<Extraction[]>, Extraction[]>();
    for (const e of early) if (e && !batches.has(e.batch)) batches.set(e.batch, await e.batch);
    let next = 0;
    return items.map((_, i) => {
      const e = early[i];
      return e ? batches.get(e.batch)![e.index]! : fresh[next++]!;
    });
  }

  /** Extracts (unless started early) and stores the entities of items (one transaction). */
  async write(
    space: string,
    items: readonly ItemRecord[],
    early: readonly (Early | undefined)[] = [],
  ): Promise<number> {
    if (items.length === 0) return 0;
    const extractions = await this.extractions(items, early);
    const docs: GraphDoc[] = items.map((item, i) => ({
      item_id: item.id,
      version: item.version,
      extraction: extractions[i]!,
    }));
    return this.graph.writeExtractions(space, docs, this.signature);
  }

  /**
   * Extracts every item of the space again, page by page, replacing each item's stored extraction
   * in place: the graph stays whole and readable throughout (an item shows its old extraction
   * until its new one is stored), and a rebuild stopped half-way (`shouldStop`, a crash) leaves
   * a whole graph and continues from `from.cursor`. Returns `cursor` null once every page is done.
   */
  async rebuild(
    space: string,
    onProgress?: (p: RebuildProgress) => void,
    options: { from?: RebuildCheckpoint; shouldStop?: () => boolean } = {},
  ): Promise<RebuildReport & RebuildCheckpoint> {
    const started = performance.now();
    await this.idle();
    let done = options.from?.done ?? 0;
    let cursor: string | undefined = options.from?.cursor ?? undefined;
    do {
      if (options.shouldStop?.()) break;
      const page = await this.store.listItems({
        filter: { space, statuses: STATUSES },
        limit: BATCH,
        order: 'created',
        cursor,
      });
      await this.write(space, page.items);
      done += page.items.length;
      cursor = page.next_cursor ?? undefined;
      onProgress?.({ done, cursor: cursor ?? null });
    } while (cursor);
    const counts = await this.graph.counts(space);
    return {
      space,
      items: done,
      entities: counts.entities,
      edges: counts.edges,
      ms: Math.round(performance.now() - started),
      done,
      cursor: cursor ?? null,
    };
  }

  /** How many items of the space have a missing or stale extraction. */
  staleCount(space: string): Promise<number> {
    return this.graph.countStale(space, this.signature);
  }

  /** Extracts only items whose stored extraction is missing or stale; returns how many. */
  async catchUp(
    space: string,
    onProgress?: (p: RebuildProgress) => void,
    shouldStop?: () => boolean,
  ): Promise<number> {
    await this.idle();
    let done = 0;
    let after = '';
    for (;;) {
      if (shouldStop?.()) return done;
      const ids = await this.graph.staleItems(space, this.signature, BATCH, after);
      if (ids.length === 0) return done;
      await this.write(space, await this.store.getItems(space, ids));
      done += ids.length;
      after = ids[ids.length - 1]!;
      onProgress?.({ done });
    }
  }

  /** Finishes the queued upkeep and stops the extractor. */
  async close(): Promise<void> {
    await this.idle();
    await this.extractor.close();
  }
}

/**
 * The write bus: the one place committed writes are announced to the modules that keep derived
 * state (the knowledge graph, lifecycle bookkeeping). A failing observer is logged and never
 * undoes or fails the write; derived state has its own rebuild.
 */
import type { Logger } from '../domain/log.js';
import type { WriteEvent, WriteObserver } from '../domain/observers.js';

/** Observers of committed writes, told in the order they were added. */
export class WriteBus {
  private readonly observers: WriteObserver[] = [];

  constructor(private readonly log: Logger) {}

  /** Registers a module that follows committed writes. */
  add(observer: WriteObserver): void {
    this.observers.push(observer);
  }

  /** Tells every observer about a committed write; their failures are logged, never thrown. */
  async notify(event: WriteEvent): Promise<void> {
    for (const observer of this.observers) {
      try {
        await observer.onWrite(event);
      } catch (err) {
        this.log.warn(
          `${observer.name} could not follow a ${event.type} write; its rebuild repairs it`,
          { error: String(err) },
        );
      }
    }
  }

  /** Announces created (or imported) items, one event per space. */
  async created(items: readonly WriteEventItem[]): Promise<void> {
    for (const [space, group] of groupBySpace(items))
      await this.notify({ type: 'created', space, items: group });
  }
}

type WriteEventItem = Extract<WriteEvent, { type: 'created' }>['items'][number];

/** Records grouped by their space, in first-seen order. */
export function groupBySpace<T extends { space: string }>(records: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of records) groups.set(r.space, [...(groups.get(r.space) ?? []), r]);
  return groups;
}

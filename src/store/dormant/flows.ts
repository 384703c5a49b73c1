/**
 * The dormant-recall writes, written once for every backend. A flow is a generator that yields
 * calls to a backend's SQL primitives (`DormantRowOps`) and gets their results back, so the
 * same decisions run inside SQLite's synchronous transactions (`runSync`) and PostgreSQL's
 * asynchronous ones (`runAsync`). The backends keep only SQL and driver calls.
 */
import type { Kind } from '../../domain/types.js';
import type {
  DormantEventRecord,
  DormantFeedback,
  DormantRankedCandidate,
  DormantRecordRequest,
  DormantRetention,
  DormantStateRecord,
  DormantStore,
} from '../dormant-store.js';
import { checkFeedback } from './profile.js';
import { type DormantCandidateRow, eventFromRow, recordedEvent, stillSelectable } from './rows.js';

/** What a write sets on a memory's state row; the cooldown is only ever extended. */
export interface DormantStateChange {
  retrieved_at?: number;
  shown_at?: number;
  used_at?: number;
  cooldown_until: number;
}

/** The two dormant tables and the key each is exported in order of. */
export type DormantTable =
  | { name: 'dormant_recall_events'; key: 'id' }
  | { name: 'dormant_recall_state'; key: 'item_id' };

/** The SQL primitives of one backend, as it runs them on one connection or transaction. */
export interface DormantRowOps {
  /** Serialises evaluators of one space until the transaction ends (no-op where writes already are). */
  serialise(space: string): void;
  /** The memory behind a scored candidate, joined with its state, or undefined. */
  candidate(space: string, id: string): DormantCandidateRow | undefined;
  /** One event row of a space (locked for update when asked and the backend can), or undefined. */
  readEvent(space: string, id: string, forUpdate: boolean): DormantEventRecord | undefined;
  /** Inserts an event row; false when `ifAbsent` and the id exists. */
  insertEvent(event: DormantEventRecord, ifAbsent: boolean): boolean;
  setShown(eventId: string, at: number): void;
  setFeedback(eventId: string, category: DormantFeedback, at: number): void;
  /** True when the memory exists in the space, is active (or legacy null) and of a profile kind. */
  isEligible(space: string, id: string, kinds: readonly Kind[]): boolean;
  /** Sets exposure times and extends (never shortens) the cooldown of one memory's state row. */
  upsertState(space: string, itemId: string, at: number, change: DormantStateChange): void;
  /** Inserts a state row; false when the memory already has one. */
  insertState(record: DormantStateRecord): boolean;
  /** Caps the log by age (all spaces) and count (per space); drops state of ineligible memories. */
  prune(space: string, retention: DormantRetention, kinds: readonly Kind[]): void;
  /** Newest events of a space first. */
  listEvents(space: string, limit: number): DormantEventRecord[];
  readState(space: string, itemId: string): DormantStateRecord | undefined;
  /** Rows of a table (a space, or all with null) with keys after `after`, in key order. */
  page(table: DormantTable, space: string | null, after: string, limit: number): object[];
}

/** The same primitives over an asynchronous driver. */
export type AsyncDormantRowOps = {
  [K in keyof DormantRowOps]: (
    ...args: Parameters<DormantRowOps[K]>
  ) => Promise<ReturnType<DormantRowOps[K]>>;
};

/** One primitive call a flow asks its driver to run. */
export type DormantCall = {
  [K in keyof DormantRowOps]: { op: K; args: Parameters<DormantRowOps[K]> };
}[keyof DormantRowOps];

/** A dormant-recall operation: yields primitive calls, receives their results, returns T. */
export type DormantFlow<T> = Generator<DormantCall, T, unknown>;

/** Yields one primitive call and returns its result, typed. */
export function* call<K extends keyof DormantRowOps>(
  op: K,
  ...args: Parameters<DormantRowOps[K]>
): DormantFlow<ReturnType<DormantRowOps[K]>> {
  return (yield { op, args } as DormantCall) as ReturnType<DormantRowOps[K]>;
}

function invoke(ops: DormantRowOps | AsyncDormantRowOps, c: DormantCall): unknown {
  return (ops[c.op] as (...args: unknown[]) => unknown).apply(ops, c.args);
}

/** Runs a flow against synchronous primitives (inside a synchronous transaction). */
export function runSync<T>(flow: DormantFlow<T>, ops: DormantRowOps): T {
  let step = flow.next();
  while (!step.done) step = flow.next(invoke(ops, step.value));
  return step.value;
}

/** Runs a flow against asynchronous primitives. */
export async function runAsync<T>(flow: DormantFlow<T>, ops: AsyncDormantRowOps): Promise<T> {
  let step = flow.next();
  while (!step.done) step = flow.next(await invoke(ops, step.value));
  return step.value;
}

function* readEvent(space: string, id: string, forUpdate = false) {
  const row = yield* call('readEvent', space, id, forUpdate);
  return row ? eventFromRow(row) : undefined;
}

/**
 * Records one evaluation, serialised per space: selects the first ranked candidate that is still
 * selectable, writes the event and the chosen memory's state, and prunes.
 */
export function* recordFlow(request: DormantRecordRequest): DormantFlow<DormantEventRecord> {
  const { space } = request.event;
  const { now, kinds } = request.eligibility;
  yield* call('serialise', space);
  let chosen: DormantRankedCandidate | undefined;
  for (const c of request.ranked)
    if (stillSelectable(yield* call('candidate', space, c.id), request, c)) {
      chosen = c;
      break;
    }
  const event = recordedEvent(request, chosen);
  yield* call('insertEvent', event, false);
  if (chosen)
    yield* call('upsertState', space, chosen.id, now, {
      retrieved_at: now,
      cooldown_until: request.cooldownUntil,
    });
  yield* call('prune', space, request.retention, kinds);
  return event;
}

/** Prunes the log and stale state of a space. */
export function* pruneFlow(
  space: string,
  retention: DormantRetention,
  kinds: readonly Kind[],
): DormantFlow<true> {
  yield* call('prune', space, retention, kinds);
  return true;
}

/** Marks an event shown (first time only), and the memory's exposure and cooldown if eligible. */
export function* markShownFlow(
  ...[space, eventId, at, cooldownUntil, kinds]: Parameters<DormantStore['markShown']>
): DormantFlow<DormantEventRecord | undefined> {
  const event = yield* readEvent(space, eventId, true);
  if (!event) return undefined;
  if (event.shown_at === null) yield* call('setShown', eventId, at);
  if (event.candidate_id && (yield* call('isEligible', space, event.candidate_id, kinds)))
    yield* call('upsertState', space, event.candidate_id, at, {
      shown_at: at,
      cooldown_until: cooldownUntil,
    });
  return yield* readEvent(space, eventId);
}

/** Records feedback (first category sticks) and the memory's cooldown, and use for *useful*. */
export function* feedbackFlow(
  ...[space, eventId, category, at, cooldownUntil, kinds]: Parameters<DormantStore['feedback']>
): DormantFlow<{ event: DormantEventRecord; changed: boolean } | undefined> {
  const event = yield* readEvent(space, eventId, true);
  if (!event) return undefined;
  if (!checkFeedback(event, category)) return { event, changed: false };
  yield* call('setFeedback', eventId, category, at);
  const id = event.candidate_id!;
  if (yield* call('isEligible', space, id, kinds))
    yield* call('upsertState', space, id, at, {
      cooldown_until: cooldownUntil,
      ...(category === 'useful' ? { used_at: at } : {}),
    });
  return { event: (yield* readEvent(space, eventId))!, changed: true };
}

/** Imports events; an existing id is left alone. */
export function* importEventsFlow(
  records: readonly DormantEventRecord[],
): DormantFlow<('imported' | 'exists')[]> {
  const out: ('imported' | 'exists')[] = [];
  for (const r of records) out.push((yield* call('insertEvent', r, true)) ? 'imported' : 'exists');
  return out;
}

/** Imports state rows; an existing row is kept. */
export function* importStatesFlow(
  records: readonly DormantStateRecord[],
): DormantFlow<('imported' | 'exists')[]> {
  const out: ('imported' | 'exists')[] = [];
  for (const r of records) out.push((yield* call('insertState', r)) ? 'imported' : 'exists');
  return out;
}

/** One event of a space. */
export function eventFlow(space: string, id: string): DormantFlow<DormantEventRecord | undefined> {
  return readEvent(space, id);
}

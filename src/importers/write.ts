/**
 * The writing half of an import: validated drafts become memories through the ordinary batch
 * write (`rememberMany`: embedding, exact-duplicate answers, graph upkeep), records an earlier run
 * imported are left alone or updated (existing.ts), and links between drafts become `related`
 * relations once every draft has its memory.
 */
import type { Config } from '../config/schema.js';
import { EngramError, type ErrorCode, toEngramError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { ReviseInput } from '../domain/input.js';
import type { ItemExport, RelationRecord } from '../domain/records.js';
import { bodyHash } from '../domain/text.js';
import type { BatchResult, Memory } from '../domain/types.js';
import type { ImportOutcome, Store } from '../store/store.js';
import { IMPORT_ACTOR } from './common.js';
import { ImportedKeys, reimport } from './existing.js';
import type { ImportDraft, ImportLink, RecordError } from './importer.js';

/** What an import needs of the engram service (the composed Engram satisfies it). */
export interface ImportTarget {
  readonly config: Config;
  /** The store, read for the keys of earlier imports and the relations that exist. */
  readonly storeForTransfer: Store;
  /** Stores memories in one batch; a bad item fails alone. */
  rememberMany(
    inputs: readonly unknown[],
    options?: { priority?: 'write' | 'background' },
  ): Promise<BatchResult[]>;
  /** Writes relations (and items) as records; ids that exist already are left alone. */
  importRecords(
    items: readonly ItemExport[],
    relations: readonly RelationRecord[],
  ): Promise<{ items: ImportOutcome[]; relations: ImportOutcome[] }>;
  /** Writes a new version of a memory. */
  revise(id: string, input: ReviseInput): Promise<Memory>;
}

/** The outcome of one record of an import. */
export interface ImportResult {
  record: string;
  status: 'created' | 'duplicate' | 'exists' | 'updated' | 'valid' | 'skipped' | 'error';
  id?: string;
  error?: RecordError;
  /** What was read but not kept as given, or why a record was skipped. */
  warnings?: string[];
}

/** Totals of the relations an import read. */
export interface RelationTotals {
  /** Links read between records (dry run: all of them that resolve within the input). */
  valid: number;
  created: number;
  exists: number;
  /** Links to a note that is not there, or to a record that failed. */
  unresolved: number;
  error: number;
}

/** A draft that passed validation: its remember input (with provenance) and its parsed fields. */
export interface ValidDraft {
  draft: ImportDraft;
  input: Record<string, unknown>;
  space: string;
  body: string;
  title: string | null;
  tags: string[];
}

/** An error result naming the record, with the field in the source format's terms. */
export function errorResult(draft: ImportDraft | { record: string }, err: unknown): ImportResult {
  const e = toEngramError(err);
  const fields = 'fields' in draft ? draft.fields : undefined;
  const field = e.details.field;
  const top = field?.split(/[.[]/u)[0] ?? '';
  const mapped = field && fields?.[top] ? `${fields[top]}${field.slice(top.length)}` : field;
  const message = mapped && e.details.rule ? `${mapped}: ${String(e.details.rule)}` : e.message;
  return { record: draft.record, status: 'error', error: { code: e.code, message, field: mapped } };
}

function withWarnings(result: ImportResult, warnings: readonly string[] = []): ImportResult {
  return warnings.length > 0 ? { ...result, warnings: [...warnings] } : result;
}

/** Writes one import's drafts and links into a target. */
export class ImportWriter {
  private readonly keys: ImportedKeys;
  /** Memory of every key written or found, for the links. */
  private readonly ids = new Map<string, { id: string; space: string }>();
  /** Memories this run created (they have no relations yet). */
  private readonly created = new Set<string>();
  private readonly live = new Map<string, Promise<Set<string>>>();

  constructor(
    private readonly target: ImportTarget,
    prefix: string,
    private readonly batchSize: number,
  ) {
    this.keys = new ImportedKeys(target.storeForTransfer, prefix);
  }

  /** Writes validated drafts: found ones are left or updated, the others remembered in batches. */
  async drafts(valid: readonly ValidDraft[]): Promise<ImportResult[]> {
    const results: ImportResult[] = [];
    const fresh: ValidDraft[] = [];
    for (const v of valid) {
      const found = (await this.keys.of(v.space)).get(v.draft.key);
      if (found) {
        this.ids.set(v.draft.key, { id: found.id, space: v.space });
        results.push(await this.again(v, found));
      } else fresh.push(v);
    }
    for (let at = 0; at < fresh.length; at += this.batchSize)
      results.push(...(await this.remember(fresh.slice(at, at + this.batchSize))));
    return results;
  }

  private async again(v: ValidDraft, found: Parameters<typeof reimport>[2]): Promise<ImportResult> {
    const store = this.target.storeForTransfer;
    const decision = await reimport(store, v.space, found, v);
    const warnings = v.draft.warnings ?? [];
    if (decision.action === 'exists')
      return withWarnings({ record: v.draft.record, status: 'exists', id: found.id }, [
        ...warnings,
        ...(decision.warning ? [decision.warning] : []),
      ]);
    try {
      const { space, body, title, tags } = v;
      const reason = v.input.reason as string;
      await this.target.revise(found.id, { space, body, title, tags, actor: IMPORT_ACTOR, reason });
      Object.assign(found, { body_hash: bodyHash(body), title, tags });
      return withWarnings({ record: v.draft.record, status: 'updated', id: found.id }, warnings);
    } catch (err) {
      return errorResult(v.draft, err);
    }
  }

  private async remember(batch: readonly ValidDraft[]): Promise<ImportResult[]> {
    const written = await this.target.rememberMany(
      batch.map((v) => v.input),
      { priority: 'background' },
    );
    const results: ImportResult[] = [];
    for (const r of written) {
      const v = batch[r.index]!;
      if (!r.ok) {
        const { code, message, field } = r.error;
        const rule =
          field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : undefined;
        results.push(
          errorResult(v.draft, new EngramError(code as ErrorCode, message, { field, rule })),
        );
        continue;
      }
      const id = r.memory.id;
      this.ids.set(v.draft.key, { id, space: v.space });
      if (r.created) this.created.add(id);
      const status = r.created ? 'created' : 'duplicate';
      results.push(withWarnings({ record: v.draft.record, status, id }, v.draft.warnings));
    }
    return results;
  }

  /** Writes the links between records as `related` relations (each pair once). */
  async links(links: readonly ImportLink[], now: number): Promise<RelationTotals> {
    const totals: RelationTotals = { valid: 0, created: 0, exists: 0, unresolved: 0, error: 0 };
    const pending: RelationRecord[] = [];
    const pairs = new Set<string>();
    for (const link of links) {
      const from = this.ids.get(link.from);
      const to = link.to === null ? undefined : this.ids.get(link.to);
      if (!from || !to || from.space !== to.space) {
        totals.unresolved++;
        continue;
      }
      const pair = `${from.id}>${to.id}`;
      if (from.id === to.id || pairs.has(pair)) continue;
      pairs.add(pair);
      totals.valid++;
      if (!this.created.has(from.id) && (await this.related(from)).has(to.id)) {
        totals.exists++;
        continue;
      }
      pending.push(relation(from.space, from.id, to.id, link.reason, now));
    }
    const max = this.target.config.limits.max_batch_items;
    for (let at = 0; at < pending.length; at += max) {
      const batch = pending.slice(at, at + max);
      try {
        const outcomes = (await this.target.importRecords([], batch)).relations;
        for (const o of outcomes) totals[o === 'imported' ? 'created' : 'exists']++;
      } catch {
        totals.error += batch.length;
      }
    }
    return totals;
  }

  /** The memories a memory already relates to (live `related` relations from it). */
  private related(from: { id: string; space: string }): Promise<Set<string>> {
    let found = this.live.get(from.id);
    if (!found) {
      found = this.target.storeForTransfer
        .relations(from.space, from.id)
        .then(
          (rs) =>
            new Set(
              rs
                .filter(
                  (r) => r.type === 'related' && r.from_id === from.id && r.invalidated_at === null,
                )
                .map((r) => r.to_id),
            ),
        );
      this.live.set(from.id, found);
    }
    return found;
  }
}

function relation(
  space: string,
  from: string,
  to: string,
  reason: string,
  now: number,
): RelationRecord {
  return {
    id: newId(now),
    space,
    type: 'related',
    from_id: from,
    to_id: to,
    actor: IMPORT_ACTOR,
    reason: reason.slice(0, 2_000),
    created_at: now,
    invalidated_at: null,
    invalidated_reason: null,
  };
}

/**
 * Facade for new memories: remember one, remember a batch (a bad item fails alone), and import
 * exported records. Vectors are made within the write budget; derived state hears through the bus.
 */
import { EngramError } from '../domain/errors.js';
import type { RememberInput } from '../domain/input.js';
import { toMemory } from '../domain/memory.js';
import type { ItemExport, RelationRecord } from '../domain/records.js';
import { embeddingText } from '../domain/text.js';
import type { BatchResult, RememberResult } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import { draftItem } from '../memories/draft.js';
import { groupBySpace } from '../memories/write-bus.js';
import type { CreateOutcome, ImportOutcome, ItemDraft } from '../store/store.js';
import { arrayArg, optionalArrayArg, optionsArg } from './args.js';
import type { WriteRelated } from './autorecall.js';
import type { ServiceContext } from './context.js';
import { applyToDuplicate, givenOptions } from './duplicates.js';
import type { MemoryChanges } from './memory-changes.js';

export type { BatchResult, RememberResult } from '../domain/types.js';

/** Options of a batch write. */
export interface BatchOptions {
  /** The first invalid input throws instead of failing alone. */
  strict?: boolean;
  /** Embedding priority: a caller waiting, or background work. */
  priority?: 'write' | 'background';
}

/** Starts work that runs beside a write's embedding (graph extraction); returns its release. */
export type WritePrefetch = (items: ItemDraft['item'][]) => (() => void) | undefined;

/** The write facade. */
export interface MemoryWrites {
  /**
   * Stores one memory; an exact duplicate returns the existing item (§2). With auto-recall on
   * writes (subtle mode, or interactive and `related: true`), also its related memories (§6).
   */
  remember(input: RememberInput): Promise<RememberResult>;
  /** Stores many memories in one transaction; each input is validated on its own. */
  rememberMany(inputs: readonly unknown[], options?: BatchOptions): Promise<BatchResult[]>;
  /** Imports full exported records (ids kept); ids that exist already are left alone. */
  importRecords(
    items: readonly ItemExport[],
    relations?: readonly RelationRecord[],
  ): Promise<{ items: ImportOutcome[]; relations: ImportOutcome[] }>;
}

/** A validated input's draft and its place in the batch. */
interface Drafted {
  index: number;
  draft: ItemDraft;
}

/**
 * The write facade over a context; `prefetch` starts graph extraction beside embedding, and
 * `related` adds auto-recall's related memories to a single remember (§6).
 */
export function memoryWrites(
  ctx: ServiceContext,
  prefetch?: WritePrefetch,
  related?: WriteRelated,
  /** Applies a duplicate's differing options to the existing memory (see duplicates.ts). */
  changes?: Pick<MemoryChanges, 'move' | 'setImportance' | 'tag' | 'pin'>,
): MemoryWrites {
  const rememberMany = async (raw: readonly unknown[], given?: BatchOptions) => {
    const inputs = arrayArg(raw, 'items');
    const options = optionsArg(given);
    checkBatchSize(ctx, inputs.length);
    const now = ctx.now();
    const results: BatchResult[] = [];
    const drafts: Drafted[] = [];
    inputs.forEach((raw, index) => {
      try {
        const input = parseWith(ctx.schemas.remember, raw);
        drafts.push({ index, draft: draftItem(input, ctx.space(input.space), now) });
      } catch (err) {
        if (options.strict || !(err instanceof EngramError)) throw err;
        const error = { code: err.code, message: err.message, field: err.details.field };
        results.push({ index, ok: false, error });
      }
    });
    results.push(...(await storeDrafts(ctx, drafts, options.priority ?? 'write', prefetch)));
    return results.sort((a, b) => a.index - b.index);
  };
  return {
    async remember(input) {
      const { related: asked, ...fields } = parseWith(ctx.schemas.rememberOne, input);
      const space = ctx.space(fields.space);
      // The space's auto-recall settings are read beside the write; nothing loads when it is off.
      const addRelated = related?.(space, asked ?? false);
      const draft = draftItem(fields, space, ctx.now());
      const [result] = await storeDrafts(ctx, [{ index: 0, draft }], 'write', prefetch);
      if (!result?.ok) throw new EngramError('INTERNAL', 'unreachable');
      let written: RememberResult = { memory: result.memory, created: result.created };
      const wanted = givenOptions(input, fields);
      if (!result.created && changes && Object.keys(wanted).length > 0) {
        const { memory, applied } = await applyToDuplicate(changes, result.memory, wanted);
        written = { memory, created: false, ...(applied.length > 0 ? { applied } : {}) };
      }
      return addRelated ? { ...written, ...(await addRelated(result.memory)) } : written;
    },
    rememberMany,
    importRecords: async (items, relations) =>
      importRecords(ctx, arrayArg(items, 'items'), optionalArrayArg(relations, 'relations')),
  };
}

/** Embeds (within the write budget) and stores drafts in one transaction; tells the bus. */
async function storeDrafts(
  ctx: ServiceContext,
  drafts: Drafted[],
  priority: 'write' | 'background',
  prefetch: WritePrefetch | undefined,
): Promise<BatchResult[]> {
  // Entity extraction starts now, beside the embedding, when the graph has a worker thread.
  const release = prefetch?.(drafts.map((d) => d.draft.item));
  await attachVectors(
    ctx,
    drafts.map((d) => d.draft),
    priority,
  );
  const outcomes = drafts.length > 0 ? await ctx.store.createItems(drafts.map((d) => d.draft)) : [];
  await embedAgainAfterSwap(
    ctx,
    drafts.map((d) => d.draft),
    outcomes,
    priority,
  );
  const results: BatchResult[] = outcomes.map((o, i) => ({
    index: drafts[i]!.index,
    ok: true,
    memory: toMemory(o.item),
    created: o.created,
  }));
  await ctx.bus.created(outcomes.filter((o) => o.created).map((o) => o.item));
  release?.();
  if (outcomes.some((o) => o.created && o.item.vector_state === 'pending')) ctx.vectors.schedule();
  return results;
}

function checkBatchSize(ctx: ServiceContext, count: number): void {
  const max = ctx.config.limits.max_batch_items;
  if (count > max)
    throw new EngramError('PAYLOAD_TOO_LARGE', `items: at most ${max} per batch`, {
      field: 'items',
      rule: `at most ${max}`,
    });
}

async function attachVectors(
  ctx: ServiceContext,
  drafts: ItemDraft[],
  priority: 'write' | 'background',
): Promise<void> {
  if (drafts.length === 0) return;
  const vectors = await ctx.vectors.embedForWrite(
    drafts.map((d) => embeddingText(d.item)),
    priority,
  );
  if (!vectors) return;
  drafts.forEach(
    (d, i) => (d.vector = { model: vectors.model, vector: vectors.vectors[i] ?? null }),
  );
}

/**
 * Items created vector-pending although the write brought vectors: a model swap (§8) published
 * another model between embedding and commit, and the store keeps only vectors of the published
 * one current. They are embedded again with the model now published, once, so a write racing a
 * swap ends with a current vector instead of waiting for the backfill (which still takes any the
 * second try misses).
 */
async function embedAgainAfterSwap(
  ctx: ServiceContext,
  drafts: readonly ItemDraft[],
  outcomes: readonly CreateOutcome[],
  priority: 'write' | 'background',
): Promise<void> {
  const stale = outcomes.flatMap((o, i) => {
    const model = drafts[i]!.vector?.model;
    return o.created && o.item.vector_state === 'pending' && model ? [{ item: o.item, model }] : [];
  });
  if (stale.length === 0) return;
  ctx.vectors.forgetPublished();
  const fresh = await ctx.vectors.embedForWrite(
    stale.map((s) => embeddingText(s.item)),
    priority,
  );
  // No other model published: they are pending for another reason, which the backfill handles.
  if (!fresh || stale.some((s) => s.model === fresh.model)) return;
  const entries = stale.map(({ item }, i) => ({
    id: item.id,
    version: item.version,
    vector: fresh.vectors[i] ?? null,
  }));
  // All or nothing for the reported state: an item changed meanwhile stays pending.
  if ((await ctx.store.putVectors(fresh.model, entries)) !== entries.length) return;
  stale.forEach((s, i) => (s.item.vector_state = fresh.vectors[i] ? 'ready' : 'empty'));
}

async function importRecords(
  ctx: ServiceContext,
  items: readonly ItemExport[],
  relations: readonly RelationRecord[],
): Promise<{ items: ImportOutcome[]; relations: ImportOutcome[] }> {
  const itemOutcomes = items.length ? await ctx.store.importItems(items) : [];
  const relationOutcomes = relations.length ? await ctx.store.importRelations(relations) : [];
  const imported = items.filter((_, i) => itemOutcomes[i] === 'imported').map((r) => r.item);
  await ctx.bus.created(imported);
  const newRelations = relations.filter((_, i) => relationOutcomes[i] === 'imported');
  for (const [space, group] of groupBySpace(newRelations)) {
    const ids = group.flatMap((r) => [r.from_id, r.to_id]);
    await ctx.bus.notify({ type: 'relations', space, ids, operation: 'import' });
  }
  if (imported.some((i) => i.vector_state === 'pending')) ctx.vectors.schedule();
  return { items: itemOutcomes, relations: relationOutcomes };
}

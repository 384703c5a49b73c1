/**
 * Model transitions as the service offers them (§8): choose a model (`models use`), see the
 * rebuild's progress, rate and ETA (`models status`), roll back to the previous model, prune the
 * vectors a rollback would use, and the embedder's queue, pending items and failures
 * (`embedder status`). The rebuild itself runs as a `models.rebuild` job (src/models/rebuild.ts).
 */
import { EngramError } from '../domain/errors.js';
import type { ItemFailure, JobRecord } from '../domain/jobs.js';
import type { ModelCoverage, StoredModel } from '../domain/models.js';
import { chooseModel } from '../embed/providers.js';
import type { ModelStore } from '../store/model-store.js';
import { objectArg, optionsArg } from './args.js';
import type { ServiceContext } from './context.js';
import { queueJob } from './job-parts.js';

/** The dedupe key of the one rebuild a store runs at a time. */
export const REBUILD_KEY = 'models.rebuild';

/** What choosing a model did. */
export interface UseModelResult {
  /**
   * `started`: a rebuild into the model was queued; `running`: it was already the target;
   * `published`: its vectors were complete, so it was published at once (a rollback);
   * `cancelled`: it was the published model and the running transition was cancelled;
   * `unchanged`: it was already published and nothing was running.
   */
  action: 'started' | 'running' | 'published' | 'cancelled' | 'unchanged';
  model: string;
  /** The published model before, when it changed. */
  previous?: string;
  /** The rebuild job, when one runs. */
  job?: JobRecord;
}

/** A running transition, with its progress. */
export interface TransitionState {
  model: StoredModel;
  coverage: ModelCoverage;
  job: JobRecord | null;
  /** Vectors made per second since the rebuild started, when known. */
  rate_per_s: number | null;
  /** Seconds left at that rate, when known. */
  eta_s: number | null;
}

/** What `models status` reports. */
export interface ModelsStatus {
  published: StoredModel | null;
  target: TransitionState | null;
  standby: StoredModel[];
  /** The configured embedder's model, and whether it is the published one. */
  configured: { model_id: string | null; published: boolean };
}

/** What `embedder status` reports (§8). */
export interface EmbedderStatus {
  /** Live work: calls queued by priority and in flight, in this process. */
  queue: unknown;
  /** Persisted items of the space waiting for a vector of the published model. */
  pending: number;
  /** Recorded failures (vector backfill and rebuild), newest first, with reasons. */
  failures: ItemFailure[];
  /** Each model the process may need, and whether its embedder is available here. */
  providers: { model: string; role: string; available: boolean; reason?: string }[];
}

/** The transitions facade. */
export interface TransitionsFacade {
  useModel(input: { model: string }): Promise<UseModelResult>;
  modelsStatus(): Promise<ModelsStatus>;
  rollbackModel(): Promise<UseModelResult>;
  pruneModels(): Promise<{ models: string[]; vectors: number }>;
  embedderStatus(options?: { space?: string; limit?: number }): Promise<EmbedderStatus>;
}

function modelStore(ctx: ServiceContext): ModelStore {
  const models = ctx.store.models;
  if (!models)
    throw new EngramError('CONFLICT', 'this store keeps no model records', {
      rule: 'a store with model transitions',
    });
  return models;
}

/** The transitions facade over a context. */
export function transitionsFacade(ctx: ServiceContext): TransitionsFacade {
  const rebuildJob = async (): Promise<JobRecord | null> => {
    const page = await ctx.store.jobs?.listJobs({
      kinds: ['models.rebuild'],
      states: ['queued', 'running'],
      limit: 1,
    });
    return page?.jobs[0] ?? null;
  };
  const cancelRebuild = async () => {
    const job = await rebuildJob();
    if (job) await ctx.store.jobs!.cancelJob(job.id);
  };
  const startRebuild = async (model: string) =>
    (
      await queueJob(ctx, {
        kind: 'models.rebuild',
        payload: { model },
        dedupe_key: REBUILD_KEY,
      })
    ).job;

  /** Makes `target` the target; publishes it at once when its vectors are already complete. */
  const moveTo = async (
    target: StoredModel | { id: string; dimension: number; spec: NonNullable<StoredModel['spec']> },
    previous: string | undefined,
  ): Promise<UseModelResult> => {
    const models = modelStore(ctx);
    const running = await models.targetId();
    if (running === target.id) {
      const job = (await rebuildJob()) ?? (await startRebuild(target.id));
      return { action: 'running', model: target.id, job };
    }
    if (running !== undefined) await cancelRebuild();
    await models.setTarget(
      { id: target.id, dimension: target.dimension, spec: target.spec! },
      ctx.now(),
    );
    const swap = await models.swap(target.id, ctx.now());
    if (swap.swapped) {
      ctx.vectors.forgetPublished();
      return { action: 'published', model: target.id, previous };
    }
    return { action: 'started', model: target.id, job: await startRebuild(target.id) };
  };

  return {
    async useModel(input) {
      const { model: choice } = objectArg(input, 'input');
      const models = modelStore(ctx);
      const known = await models.list();
      const spec = chooseModel(choice, ctx.config, known);
      // Loading it now turns a wrong folder, URL or key into an error here, not a failed rebuild.
      const embedder = await asChoice(async () => {
        const built = ctx.vectors.embedders.build(spec);
        await built.prepare();
        return built;
      });
      const published = (await ctx.vectors.publishedModel())?.id;
      if (embedder.modelId === published) {
        if ((await models.targetId()) === undefined)
          return { action: 'unchanged', model: embedder.modelId };
        await cancelRebuild();
        await models.clearTarget();
        return { action: 'cancelled', model: embedder.modelId };
      }
      return moveTo({ id: embedder.modelId, dimension: embedder.dimension, spec }, published);
    },

    async rollbackModel() {
      const models = modelStore(ctx);
      const known = await models.list();
      const current = known.find((m) => m.role === 'published');
      const previous = known
        .filter((m) => m.role !== 'published' && m.published_at !== null)
        .sort((a, b) => b.published_at! - a.published_at!)[0];
      if (!previous)
        throw new EngramError(
          'NOT_FOUND',
          'no model was published before this one: nothing to roll back to',
        );
      if (previous.pruned_at !== null)
        throw new EngramError(
          'CONFLICT',
          `the vectors of ${previous.id} were pruned, so going back would be a full rebuild, not a rollback; run \`engram models use ${previous.id}\` to rebuild them`,
          { rule: 'rollback needs the previous model vectors', model: previous.id },
        );
      if (!previous.spec)
        throw new EngramError('CONFLICT', `${previous.id} has no recorded spec to embed with`, {
          rule: 'known_spec',
        });
      return moveTo(previous, current?.id);
    },

    async modelsStatus() {
      const models = modelStore(ctx);
      // A store that never embedded anything publishes the configured model now, as recall would.
      await ctx.vectors.publishedModel();
      const known = await models.list();
      const published = known.find((m) => m.role === 'published') ?? null;
      const target = known.find((m) => m.role === 'target');
      return {
        published,
        target: target ? await transitionState(models, target, await rebuildJob()) : null,
        standby: known.filter((m) => m.role === 'standby'),
        configured: {
          model_id: ctx.vectors.modelId,
          published: ctx.vectors.modelId !== null && ctx.vectors.modelId === published?.id,
        },
      };
    },

    async pruneModels() {
      return modelStore(ctx).prune(ctx.now());
    },

    async embedderStatus(options) {
      const { space: asked, limit } = optionsArg(options);
      const space = ctx.space(asked);
      const stats = await ctx.store.stats(space);
      const failures =
        (await ctx.store.jobs?.listItemFailures({ spaces: [space], limit: limit ?? 20 })) ?? [];
      const known = (await ctx.store.models?.list()) ?? [];
      const providers = known
        .filter((m) => m.role !== 'standby')
        .map((m) => {
          const embedder = ctx.vectors.embedderFor(m.id, m.spec);
          const reason = embedder
            ? embedder.state().reason
            : (ctx.vectors.embedders.failure(m.id) ?? 'no spec recorded for it');
          return {
            model: m.id,
            role: m.role,
            available: embedder?.state().available ?? false,
            ...(reason ? { reason } : {}),
          };
        });
      return {
        queue: ctx.vectors.queue?.stats() ?? null,
        pending: stats.vectors.pending,
        failures,
        providers,
      };
    },
  };
}

async function transitionState(
  models: ModelStore,
  target: StoredModel,
  job: JobRecord | null,
): Promise<TransitionState> {
  const coverage = await models.coverage(target.id);
  const embedded = typeof job?.progress?.embedded === 'number' ? job.progress.embedded : 0;
  const started = job?.started_at ? Date.parse(job.started_at) : NaN;
  const seconds = (Date.now() - started) / 1000;
  const rate = embedded > 0 && seconds > 0 ? embedded / seconds : null;
  const left = coverage.items - coverage.done - coverage.failed;
  return {
    model: target,
    coverage,
    job,
    rate_per_s: rate === null ? null : Math.round(rate * 10) / 10,
    eta_s: rate === null ? null : Math.ceil(Math.max(0, left) / rate),
  };
}

/** A chosen model's configuration error is the caller's: INVALID_INPUT naming `model`. */
async function asChoice<T>(build: () => Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (err) {
    if (err instanceof EngramError && err.code === 'CONFIG_INVALID')
      throw new EngramError('INVALID_INPUT', `model: ${err.message}`, {
        field: 'model',
        rule: 'a usable model',
      });
    throw err;
  }
}

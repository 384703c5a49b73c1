/**
 * createEngram(config): the one place that wires engram together. It opens the store, the
 * embedder and its queue, builds the capability modules (graph upkeep, recall channels, dormant
 * recall, lifecycle, auto-recall) and composes the service facades into one Engram object.
 */
import { AccessLedger } from './access/ledger.js';
import { loadConfig } from './config/load.js';
import type { Config, ConfigInput } from './config/schema.js';
import { type Logger, stderrLogger } from './domain/log.js';
import type { ModelSpec } from './domain/models.js';
import type { WriteObserver } from './domain/observers.js';
import { keywordTerms } from './domain/text.js';
import { DormantRecall } from './dormant/dormant-recall.js';
import type { Embedder } from './embed/embedder.js';
import { buildEmbedder, configuredSpec } from './embed/providers.js';
import { EmbeddingQueue } from './embed/queue.js';
import { InlineExtractor, WorkerExtractor } from './graph/extractor.js';
import { GraphMaintainer } from './graph/maintainer.js';
import type { JobWorker } from './jobs/worker.js';
import { Lifecycle } from './lifecycle/lifecycle.js';
import { ModelEmbedders } from './models/embedders.js';
import { VectorSupply } from './models/supply.js';
import type { Channel } from './retrieval/channels/channel.js';
import { graphLimits } from './retrieval/channels/graph.js';
import { configuredChannels } from './retrieval/channels/registry.js';
import type { DecisionAdapter } from './retrieval/decision/adapter.js';
import { decisionAdapter } from './retrieval/decision/adapters.js';
import { DecisionRecallStage } from './retrieval/decision/decision-stage.js';
import { DocsIndex } from './retrieval/decision/docs-index.js';
import {
  type CandidateSource,
  DocsSource,
  GraphSource,
  SessionsSource,
} from './retrieval/decision/sources.js';
import type { WordVectorSource } from './retrieval/rerank/alignment.js';
import type { RelevanceScorer } from './retrieval/rerank/relevance.js';
import { absoluteScorer, configuredScorer, wordVectorSource } from './retrieval/rerank/scorers.js';
import { objectArg, optionsArg } from './service/args.js';
import { type AutoRecallFacade, autoRecallFacade, writeRelated } from './service/autorecall.js';
import { type ServiceContext, serviceContext } from './service/context.js';
import { type DormantFacade, dormantFacade } from './service/dormant.js';
import { type DreamsFacade, dreamsFacade, publicDreams } from './service/dreams.js';
import { type GraphFacade, graphFacade } from './service/graph.js';
import { type InsightsFacade, insightsFacade } from './service/insights.js';
import type { DreamJobRun } from './service/job-handlers.js';
import { itemRetry, jobParts, queueJob } from './service/job-parts.js';
import { type JobsFacade, jobsFacade } from './service/jobs.js';
import { type LifecycleFacade, lifecycleFacade } from './service/lifecycle.js';
import { type MemoryChanges, memoryChanges } from './service/memory-changes.js';
import { type MemoryReads, memoryReads } from './service/memory-reads.js';
import { type MemoryWrites, memoryWrites } from './service/memory-writes.js';
import { type ModelsFacade, modelsFacade } from './service/models.js';
import { once } from './service/once.js';
import { type RecallFacade, recallFacade } from './service/recall.js';
import { RecallLatency, timedRecall } from './service/recall-latency.js';
import { type SessionsFacade, sessionsFacade } from './service/sessions.js';
import { type SettingsFacade, settingsFacade } from './service/settings.js';
import { type TransitionsFacade, transitionsFacade } from './service/transitions.js';
import { type WriteSessionsFacade, writeSessionsFacade } from './service/write-sessions.js';
import { openStore } from './store/open.js';
import type { Store } from './store/store.js';

/** Options of createEngram. */
export interface CreateEngramOptions {
  /** Configuration values; they win over the file and the environment. */
  config?: ConfigInput;
  /** A YAML configuration file (else `ENGRAM_CONFIG`, else defaults only). */
  configFile?: string;
  /** Environment for `ENGRAM_*` overrides (default process.env). */
  env?: Record<string, string | undefined>;
  /** An embedder to use instead of the configured provider. */
  embedder?: Embedder | null;
  /** Where warnings go (default: stderr). */
  logger?: Logger;
  /** Run background work (vector backfill) in this process (default true). */
  background?: boolean;
  /** Clock, for tests of time-dependent behaviour. */
  now?: () => number;
}

/** The engram service: every capability's facade, composed; what every interface calls. */
export type Engram = MemoryWrites &
  MemoryReads &
  MemoryChanges &
  RecallFacade &
  ModelsFacade &
  LifecycleFacade &
  AutoRecallFacade &
  GraphFacade &
  DormantFacade &
  JobsFacade &
  SessionsFacade &
  SettingsFacade &
  DreamsFacade &
  TransitionsFacade &
  WriteSessionsFacade &
  InsightsFacade & {
    /** The validated configuration the service runs with. */
    readonly config: Config;
    /** The store, for import/export and maintenance modules. */
    readonly storeForTransfer: Store;
    /** Registers a module that follows committed writes (e.g. the HTTP backfill worker). */
    addWriteObserver(observer: WriteObserver): void;
    /**
     * Resolves once the background work of every write so far has finished in this process (the
     * knowledge graph's upkeep), so a recall after it never reports `graph_catching_up`, and the
     * accesses of every recall so far are in the store (also with write-behind accounting, §3.6).
     */
    idle(): Promise<void>;
    /** Waits for background work (bounded), then releases the store and the embedder. */
    close(options?: { drainMs?: number }): Promise<void>;
  };

/** What an Engram is assembled from once the store and the vector supply exist. */
export interface EngramParts {
  config: Config;
  store: Store;
  vectors: VectorSupply;
  log: Logger;
  now?: () => number;
  /** The relevance scorer (§8) for reranking; none when no word vectors are available. */
  relevance?: RelevanceScorer | null;
  /** The scorer of the dormant relevance check (§9.2); default: `relevance`. */
  dormantRelevance?: RelevanceScorer | null;
  /** The decision adapter (§5.1); none leaves the decision stage off. */
  decision?: DecisionAdapter | null;
  /** Word vectors (the embedder's, or the built-in ones it borrows) for consolidation (§10). */
  words?: WordVectorSource | null;
}

/** The candidate sources of the decision stage (§5.3) that this store and process can offer. */
function decisionSources(ctx: ServiceContext, channels: readonly Channel[]): CandidateSource[] {
  const { store } = ctx;
  const sources: CandidateSource[] = [new DocsSource(() => DocsIndex.load())];
  const graph = channels.find((c) => c.name === 'graph');
  if (graph) sources.push(new GraphSource(graph, (space, ids) => store.getItems(space, ids)));
  const sessions = store.sessions;
  if (sessions)
    sources.push(
      new SessionsSource(async (space, query, limit) =>
        (await sessions.searchSessions(space, keywordTerms(query), { limit })).map((h) => ({
          session_id: h.session_id,
          turn_index: h.turn_index,
          role: h.role,
          text: h.text,
          agent: h.session.agent,
          title: h.session.title,
          started_at: h.session.started_at,
        })),
      ),
    );
  return sources;
}

/** Loads configuration, opens the store and returns the engram service. */
export function createEngram(options: CreateEngramOptions = {}): Engram {
  const config = loadConfig({
    file: options.configFile,
    env: options.env,
    overrides: options.config,
  });
  const log = options.logger ?? stderrLogger();
  const store = openStore(config, log);
  const env = options.env ?? process.env;
  const factory = (spec: ModelSpec) => buildEmbedder(spec, config, env);
  // An embedder given by the caller is used as is; its spec is not known, so none is recorded.
  const spec = options.embedder === undefined ? configuredSpec(config) : null;
  const embedder = options.embedder === undefined ? spec && factory(spec) : options.embedder;
  const embedders = new ModelEmbedders(embedder, factory, log);
  const queue = embedder ? new EmbeddingQueue(embedder) : null;
  const background = options.background ?? true;
  const vectors = new VectorSupply(
    store,
    embedders,
    queue,
    config,
    log,
    background,
    itemRetry(config),
    spec,
  );
  // Alignment reads word vectors: an embedder without them (onnx, openai) lends the built-in ones.
  const words =
    wordVectorSource(embedder) ??
    (config.embedder.provider === 'none'
      ? null
      : wordVectorSource(factory({ provider: 'static', sif_a: config.embedder.sif_a })));
  const relevance = configuredScorer(config.recall.rerank, words);
  const decision = decisionAdapter(config, words, env);
  return assembleEngram({
    config,
    store,
    vectors,
    log,
    now: options.now,
    relevance,
    dormantRelevance: absoluteScorer(config.recall.rerank, words),
    decision,
    words,
  });
}

/**
 * Graph upkeep as a write observer, the graph API (§4, built on first use: most processes never
 * ask for it), and the wait the graph channel uses.
 */
function wireGraph(ctx: ServiceContext) {
  const { config, store } = ctx;
  const graph = store.graph;
  const graphApi = (maintainer: GraphMaintainer | undefined) =>
    once(
      async () => new (await import('./graph/graph-api.js')).GraphApi(store, config, maintainer),
    );
  if (!config.graph.enabled || !graph)
    return { api: graphApi(undefined), settle: undefined, maintainer: undefined };
  const options = graphLimits(config.graph).extraction;
  const maintainer = new GraphMaintainer(
    store,
    graph,
    options,
    config.graph.worker ? new WorkerExtractor(options) : new InlineExtractor(options),
    (err) => ctx.log.warn('graph upkeep failed; graph rebuild repairs it', { error: String(err) }),
  );
  ctx.bus.add(maintainer);
  const settle = (ms: number) => maintainer.settle(ms);
  return { api: graphApi(maintainer), settle, maintainer };
}

/** Builds the capability modules over a store and a vector supply, and composes the facades. */
export function assembleEngram(parts: EngramParts): Engram {
  const ctx = serviceContext(parts);
  const { config, store, vectors, log, now } = ctx;
  const relevance = parts.relevance ?? null;
  const graph = wireGraph(ctx);
  const channels = configuredChannels({
    store,
    config,
    embedding: vectors,
    now,
    settleGraph: graph.settle,
  });
  const scorer = parts.dormantRelevance === undefined ? relevance : parts.dormantRelevance;
  const space = ctx.space;
  const dormant = new DormantRecall({ config, store, embedding: vectors, scorer, log, now, space });
  const lifecycle = new Lifecycle({
    config,
    store,
    log,
    now,
    space,
    mutate: ctx.mutate,
    notifyChanged: (s, items, operation) =>
      ctx.bus.notify({ type: 'changed', space: s, items, operation }),
    // A backend that cannot copy its file backs up as a JSONL export of one snapshot; the export
    // modules load only then, so a short-lived process (one CLI command) never pays for them.
    exportBackup: async (destination) =>
      (await import('./transfer/export-file.js')).writeExportFile(store, destination),
  });
  const autoRecall = once(
    async () =>
      new (await import('./autorecall/engine.js')).AutoRecall({
        config,
        store,
        vectors,
        lifecycle,
        now,
        space,
      }),
  );
  const reads = memoryReads(ctx);
  const maintainer = graph.maintainer;
  const changes = memoryChanges(ctx);
  const writes = memoryWrites(
    ctx,
    maintainer && ((items) => maintainer.prefetch(items)),
    writeRelated(ctx, autoRecall),
    changes,
  );
  // Recall durations of this process, for the console's health page (service/insights.ts).
  const latency = new RecallLatency(undefined, now);
  const access = new AccessLedger(store, config.recall.access, log);
  const words = parts.words;
  const dreams = dreamsFacade(ctx, {
    words: async () => words?.wordVectors(),
    conflicts: parts.decision?.contradicts?.bind(parts.decision),
    queueRun: store.jobs && ((s) => queueDream(ctx, jobs!.worker(), s)),
  });
  const dream: DreamJobRun = async (s, options) => dreams.dreamRunFor(s, options);
  const jobs = store.jobs ? jobParts(ctx, { maintainer, lifecycle, dream }) : undefined;
  if (jobs && config.worker.enabled)
    vectors.onPending = () => queueBackfill(ctx, jobs.backfillWorker());
  return {
    config,
    storeForTransfer: store,
    ...writes,
    ...writeSessionsFacade(ctx, writes),
    ...reads,
    ...changes,
    ...timedRecall(
      recallFacade(ctx, {
        channels,
        relevance,
        observers: [dormant],
        access,
        decision: new DecisionRecallStage(
          parts.decision ?? null,
          config.recall.decision,
          log,
          decisionSources(ctx, channels),
        ),
      }),
      latency,
    ),
    ...modelsFacade(ctx),
    ...transitionsFacade(ctx),
    ...lifecycleFacade(
      lifecycle,
      { revise: changes.revise, get: reads.get },
      jobs && (() => queueMaintenance(ctx, jobs.worker())),
    ),
    ...autoRecallFacade(ctx, autoRecall),
    ...graphFacade(graph.api),
    ...dormantFacade(dormant),
    ...jobsFacade(ctx, jobs),
    ...sessionsFacade(ctx),
    ...settingsFacade(ctx),
    ...publicDreams(dreams),
    ...insightsFacade(ctx, latency),
    addWriteObserver: (observer) => ctx.bus.add(objectArg(observer, 'observer')),
    idle: async () => {
      await maintainer?.idle();
      await access
        .flush()
        .catch((err: unknown) => log.warn('access accounting skipped', { error: String(err) }));
    },
    async close(given) {
      const options = optionsArg(given);
      // A worker's running job stops at its next checkpoint and is queued again for later.
      await jobs?.stopWorker(Math.min(options.drainMs ?? 0, 5_000));
      // Accounting never fails anything: a store that refuses the last accesses loses only them.
      await access
        .close()
        .catch((err: unknown) =>
          log.warn('access accounting skipped at close', { error: String(err) }),
        );
      await dormant.close();
      await vectors.close(options.drainMs ?? 0);
      await maintainer?.close();
      await store.close();
    },
  };
}

/** Queues the vector backfill (joining a waiting one) and wakes this process's worker for it. */
function queueBackfill(ctx: ServiceContext, worker: JobWorker): void {
  queueJob(ctx, { kind: 'vectors.backfill', dedupe_key: 'vectors.backfill' }).then(
    () => worker.nudge(),
    (err: unknown) => ctx.log.warn('could not queue the vector backfill', { error: String(err) }),
  );
}

/** Queues a dream run of a space as a job (joining a waiting one) and wakes the worker for it. */
async function queueDream(ctx: ServiceContext, worker: JobWorker, space: string): Promise<void> {
  await queueJob(ctx, { kind: 'dream.run', space, dedupe_key: `dream.run:${space}` });
  worker.nudge();
}

/** Queues whole-store maintenance as a job (joining a waiting one) and wakes the worker for it. */
async function queueMaintenance(ctx: ServiceContext, worker: JobWorker): Promise<void> {
  await queueJob(ctx, {
    kind: 'lifecycle.maintain',
    payload: { space: null },
    dedupe_key: 'lifecycle.maintain',
  });
  worker.nudge();
}

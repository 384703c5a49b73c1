/** Facade for the store's and the embedder's state: status, health, model preparation, backfill. */
import { toEngramError } from '../domain/errors.js';
import type { ModelRecord } from '../domain/records.js';
import type { EmbedderState, PrepareOptions } from '../embed/embedder.js';
import type { StoreStats } from '../store/store.js';
import { optionsArg } from './args.js';
import type { ServiceContext } from './context.js';

/** What `status` reports. */
export interface ServiceStatus {
  space: string;
  store: StoreStats & { backend: string };
  embedder: (EmbedderState & { queue: unknown }) | { available: false; reason: string };
  published_model: ModelRecord | null;
}

/** Whether the knowledge graph is configured on, and whether the store keeps one. */
export interface GraphHealth {
  enabled: boolean;
  supported: boolean;
}

/** What `health` reports: whether the store answers, the embedder's and the graph's state. */
export interface ServiceHealth {
  store: { ok: boolean; backend: string; latency_ms?: number; reason?: string };
  embedder: ServiceStatus['embedder'];
  /** The graph's configuration and support (no graph query: constant time). */
  graph?: GraphHealth;
}

/** The models facade. */
export interface ModelsFacade {
  /** Store, embedder and model state. */
  status(options?: { space?: string }): Promise<ServiceStatus>;
  /** Cheap liveness of the store (one small read) and the embedder, for health checks. */
  health(): Promise<ServiceHealth>;
  /** Builds or loads the embedder's model cache (`engram models prepare`). */
  prepareModels(options?: PrepareOptions): Promise<void>;
  /** Embeds items waiting for a vector; returns how many were filled. */
  backfill(options?: { limit?: number; onProgress?: (done: number) => void }): Promise<number>;
}

/** The models facade over a context. */
export function modelsFacade(ctx: ServiceContext): ModelsFacade {
  const { store, vectors } = ctx;
  return {
    async status(options) {
      const space = ctx.space(optionsArg(options).space);
      const stats = await store.stats(space);
      return {
        space,
        store: { ...stats, backend: store.capabilities.backend },
        embedder: vectors.state(),
        published_model: modelRecord(await vectors.publishedModel()),
      };
    },
    async health() {
      const backend = store.capabilities.backend;
      const started = performance.now();
      let state: ServiceHealth['store'];
      try {
        await store.publishedModel();
        const latency_ms = Math.round((performance.now() - started) * 100) / 100;
        state = { ok: true, backend, latency_ms };
      } catch (err) {
        state = { ok: false, backend, reason: toEngramError(err).code };
      }
      const graph = { enabled: ctx.config.graph.enabled, supported: store.graph !== undefined };
      return { store: state, embedder: vectors.state(), graph };
    },
    prepareModels: async (options) => vectors.prepare(optionsArg(options)),
    backfill: async (options) => vectors.backfill(optionsArg(options)),
  };
}

/** The published model as `status` reports it: id, dimension and publication time. */
function modelRecord(model: ModelRecord | undefined): ModelRecord | null {
  return model
    ? { id: model.id, dimension: model.dimension, published_at: model.published_at }
    : null;
}

/**
 * The models page's reads and writes: the models of the store (`/v1/models`), the embedder status
 * of a space (`/v1/embedder`) and of the process (`/v1/health`), and the three changes an admin
 * makes (`use`, `rollback`, `prune`), each with a sentence that says what happened.
 */
import { api, call, type Schemas } from '../../lib/api';

/** What `/v1/models` reports. */
export type ModelsStatus = Schemas['ModelsStatus'];
/** A model the store knows. */
export type StoredModel = NonNullable<Schemas['StoredModel']>;
/** A transition in progress. */
export type Transition = NonNullable<Schemas['Transition']>;
/** What `/v1/embedder` reports. */
export type EmbedderStatus = Schemas['EmbedderStatus'];
/** The embedder component of `/v1/health`. */
export type EmbedderHealth = Schemas['Health']['components']['embedder'];
type UseResult = Schemas['UseModelResult'];

/** The models of the store. */
export function loadModels(): Promise<ModelsStatus> {
  return call(api.GET('/v1/models'));
}

/** The embedder status of a space (with the live queue, for an admin of every space). */
export function loadEmbedder(space: string): Promise<EmbedderStatus> {
  return call(api.GET('/v1/embedder', { params: { query: { space, limit: 20 } } }));
}

/** The embedder as the process's health reports it (loaded, loading, unavailable and why). */
export async function loadEmbedderHealth(): Promise<EmbedderHealth> {
  const { data, response } = await api.GET('/v1/health');
  // 503 still carries the components (the store is down, not the answer).
  if (!data) throw new Error(`The health check failed (HTTP ${response.status}).`);
  return data.components.embedder;
}

/** Moves the store to `model`; says what that did. */
export async function useModel(model: string): Promise<string> {
  return describe(await call(api.POST('/v1/models/use', { body: { model } })));
}

/** Publishes the previous model again; says what that did. */
export async function rollback(): Promise<string> {
  return describe(await call(api.POST('/v1/models/rollback')));
}

/** Deletes the vectors of the standby models; says which and how many. */
export async function prune(): Promise<string> {
  const { models, vectors } = await call(api.POST('/v1/models/prune'));
  if (models.length === 0) return 'Nothing to prune: no standby model keeps vectors.';
  return `Deleted ${vectors.toLocaleString()} vectors of ${models.join(', ')}. Going back to ${models.length === 1 ? 'it' : 'one of them'} is now a full rebuild.`;
}

/** A sentence for each outcome of `use` and `rollback`. */
export function describe(result: UseResult): string {
  const { model, previous } = result;
  switch (result.action) {
    case 'started':
      return `A rebuild into ${model} started: every memory is embedded again in the background while recall stays on the published model; the two swap when it is complete.`;
    case 'running':
      return `${model} is already being built; its progress is shown below.`;
    case 'published':
      return `${model} is published${previous ? ` (it replaces ${previous}, kept as a standby)` : ''}: recall uses it now.`;
    case 'cancelled':
      return `The transition was cancelled: ${model} stays published.`;
    case 'unchanged':
      return `${model} is already published and nothing was running: nothing changed.`;
  }
}

/** The provider of a model and what builds it, in a line (never a key). */
export function specText(spec: StoredModel['spec']): string {
  if (!spec) return 'no recorded spec';
  if (spec.provider === 'static') return `static word vectors (SIF a = ${spec.sif_a})`;
  if (spec.provider === 'onnx') return `ONNX model in ${spec.path} (${spec.pooling} pooling)`;
  return `OpenAI-compatible ${spec.model}${spec.dimensions ? ` @ ${spec.dimensions}` : ''} at ${spec.base_url}`;
}

/** "12 s", "4 min", "2 h 5 min": an estimate of time left. */
export function eta(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const m = Math.round(seconds / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * The persistence of embedding models and their transitions (§8), one implementation per backend:
 * the models the store knows, the items a model still lacks a current vector for, and the atomic
 * swap of the published model.
 */
import type { ModelCoverage, ModelSpec, StoredModel, SwapResult } from '../domain/models.js';
import type { PendingVector } from './store.js';

/** An item a model lacks a current vector for, with its position for a resumable scan. */
export interface MissingVector extends PendingVector {
  pk: number;
}

/** Models and transitions of one store. */
export interface ModelStore {
  /** Every model the store knows: the published one first, then the target, then standbys. */
  list(): Promise<StoredModel[]>;
  /** The id of the transition target, if a transition is running (one cheap read). */
  targetId(): Promise<string | undefined>;
  /** Records what the model is made from (for a model published before specs were kept). */
  setSpec(id: string, spec: ModelSpec): Promise<void>;
  /** Makes `model` the transition target (registering it when new); any other target stops being one. */
  setTarget(model: { id: string; dimension: number; spec: ModelSpec }, at: number): Promise<void>;
  /** No model is the target any more (a cancelled transition); its vectors are kept. */
  clearTarget(): Promise<void>;
  /**
   * Items after `afterPk` lacking a vector of `model` made from their current version, in pk order;
   * items whose rebuild failed at their current version are left out.
   */
  missing(model: string, afterPk: number, limit: number): Promise<MissingVector[]>;
  /** How far `model`'s current vectors cover the store's items. */
  coverage(model: string): Promise<ModelCoverage>;
  /**
   * Builds `model`'s approximate vector index where the store would search it with one (the
   * store is in the index's size range); called before the swap. True when one was built.
   */
  prepareIndex(model: string, dimension: number): Promise<boolean>;
  /**
   * Publishes `model` in one transaction when no item lacks a current vector of it (failed items
   * excepted; they become vector-pending under the new model). Recall before the commit uses only
   * the old model, after it only the new one.
   */
  swap(model: string, at: number): Promise<SwapResult>;
  /**
   * Deletes the vectors of every model that is neither published nor the target; the models stay
   * known, marked pruned (so a rollback to one can be refused with a reason).
   */
  prune(at: number): Promise<{ models: string[]; vectors: number }>;
}

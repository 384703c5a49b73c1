/**
 * What every service facade is built from: the configuration, the store, the vector supply, the
 * write bus and the few helpers they share (the space a call is in, who changes what and when).
 */
import type { Config } from '../config/schema.js';
import { type InputSchemas, inputSchemas, spaceSchema } from '../domain/input.js';
import type { Logger } from '../domain/log.js';
import { parseWith } from '../domain/zod.js';
import { type Mutate, mutator } from '../memories/mutator.js';
import type { ChangeMeta } from '../memories/plans.js';
import { WriteBus } from '../memories/write-bus.js';
import type { VectorSupply } from '../models/supply.js';
import type { Store } from '../store/store.js';

/** Options common to changes: which space, who, why. */
export interface ChangeOptions {
  space?: string;
  actor?: string;
  reason?: string;
}

/** The shared parts of the facades. */
export interface ServiceContext {
  readonly config: Config;
  readonly store: Store;
  readonly vectors: VectorSupply;
  readonly log: Logger;
  readonly now: () => number;
  readonly schemas: InputSchemas;
  readonly bus: WriteBus;
  readonly mutate: Mutate;
  /** A caller's space, validated, or the configured one. */
  space(space: string | undefined): string;
  /** Who changes, why, and when, for a change's history. */
  meta(options?: ChangeOptions): ChangeMeta;
}

/** What the context is made from. */
export interface ContextDeps {
  config: Config;
  store: Store;
  vectors: VectorSupply;
  log: Logger;
  now?: () => number;
}

/** Builds the context the facades share. */
export function serviceContext(deps: ContextDeps): ServiceContext {
  const now = deps.now ?? Date.now;
  const bus = new WriteBus(deps.log);
  return {
    config: deps.config,
    store: deps.store,
    vectors: deps.vectors,
    log: deps.log,
    now,
    schemas: inputSchemas(deps.config),
    bus,
    mutate: mutator(deps.store, bus),
    space: (space) =>
      space === undefined ? deps.config.space : parseWith(spaceSchema, space, 'space'),
    meta: (options = {}) => ({
      actor: options.actor ?? null,
      reason: options.reason ?? null,
      now: now(),
    }),
  };
}

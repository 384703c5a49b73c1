/**
 * Facade for the lifecycle (§7): maintenance (decay, archive candidates, backups), the review
 * window and its actions, recorded uses, and the nightly schedule. Rules live in src/lifecycle.
 */
import { EngramError } from '../domain/errors.js';
import { toMemory } from '../domain/memory.js';
import type { Memory } from '../domain/types.js';
import type { MaintainInput, ObserveInput, ReviewInput } from '../lifecycle/input.js';
import type { Lifecycle, ObserveResult, ReviewList } from '../lifecycle/lifecycle.js';
import type { MaintenanceReport } from '../lifecycle/maintain.js';
import { REVIEW_ACTIONS, type ReviewAction } from '../lifecycle/review.js';
import type { MaintenanceSchedule } from '../lifecycle/scheduler.js';
import {
  callbackArg,
  choiceArg,
  objectArg,
  optionalArrayArg,
  optionsArg,
  stringArg,
} from './args.js';
import type { ChangeOptions } from './context.js';
import type { MemoryChanges } from './memory-changes.js';
import type { MemoryReads } from './memory-reads.js';

/** The lifecycle facade. */
export interface LifecycleFacade {
  /** Runs the decay job (§7.2, §7.3); with `dry_run` a preview that writes nothing. */
  maintain(
    options?: MaintainInput,
    onProgress?: (done: number, total: number) => void,
  ): Promise<MaintenanceReport>;
  /** Memories in the review window, highest priority first (§7.4). */
  review(options?: ReviewInput): Promise<ReviewList>;
  /** A review action: reinforce (a use), revise (a new version) or let go (archived, restorable). */
  reviewAction(
    id: string,
    action: ReviewAction,
    options?: ChangeOptions & { body?: string; title?: string },
  ): Promise<Memory>;
  /**
   * Records that memories were used (§6 step 4): last_used_at, use_count and a bounded strength
   * boost (larger across domains), as use events. Unknown ids fail alone; the rest are applied.
   */
  observeMemoryUsage(
    input: ObserveInput | readonly string[],
    contextTags?: readonly string[],
  ): Promise<ObserveResult>;
  /**
   * Starts the nightly maintenance schedule (for long-running service processes); where the store
   * keeps jobs, each night queues maintenance as a job for a worker instead of running it here.
   */
  startMaintenanceSchedule(): MaintenanceSchedule;
}

/** The lifecycle facade over the lifecycle module and the memory facades it acts through. */
export function lifecycleFacade(
  lifecycle: Lifecycle,
  memories: Pick<MemoryChanges, 'revise'> & Pick<MemoryReads, 'get'>,
  queueMaintenance?: () => Promise<unknown>,
): LifecycleFacade {
  return {
    maintain: async (options, onProgress) =>
      lifecycle.maintain(optionsArg(options), callbackArg(onProgress)),
    review: async (options) => lifecycle.review(optionsArg(options)),
    async reviewAction(id, action, given) {
      stringArg(id, 'id');
      choiceArg(action, REVIEW_ACTIONS, 'action');
      const options = optionsArg(given);
      if (action === 'revise')
        return memories.revise(id, {
          space: options.space,
          actor: options.actor,
          reason: options.reason ?? 'review',
          body: options.body,
          title: options.title,
        });
      if (action === 'let_go') return toMemory(await lifecycle.letGo(id, options));
      const observed = await lifecycle.observe(
        { space: options.space, memory_ids: [id], actor: options.actor },
        'review',
      );
      const [result] = observed.results;
      if (result && !result.ok)
        throw new EngramError(
          result.error.code === 'NOT_FOUND' ? 'NOT_FOUND' : 'CONFLICT',
          result.error.message,
          { id },
        );
      return memories.get(id, { space: options.space });
    },
    observeMemoryUsage: async (input, contextTags) =>
      lifecycle.observe(observeRequest(input, contextTags)),
    startMaintenanceSchedule: () => lifecycle.startSchedule(queueMaintenance),
  };
}

/** observe_memory_usage's input: its full form, or a list of ids and context tags. */
function observeRequest(
  input: ObserveInput | readonly string[],
  contextTags: readonly string[] | undefined,
): ObserveInput {
  const tags = optionalArrayArg(contextTags, 'context_tags');
  if (!Array.isArray(input)) return objectArg(input as ObserveInput, 'input');
  return { memory_ids: [...(input as readonly string[])], context_tags: [...tags] };
}

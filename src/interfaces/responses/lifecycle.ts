/** Lifecycle (§7) as the edges return it: observed uses, the review list, a maintenance report. */
import { z } from 'zod';

import { KINDS, STATUSES } from '../../domain/types.js';
import { iso } from './memories.js';

/** Per-id results of observe: the rest are applied when some fail. */
export const ObserveResultSchema = z
  .object({
    applied: z.number().int(),
    failed: z.number().int(),
    links_created: z.number().int(),
    results: z.array(
      z.discriminatedUnion('ok', [
        z.object({
          id: z.string(),
          ok: z.literal(true),
          cross_domain: z.boolean(),
          strength_before: z.number(),
          strength: z.number(),
          base: z.number(),
          use_count: z.number().int(),
          status: z.enum(STATUSES),
          review_priority: z.number().nullable(),
          linked: z.array(z.string()),
        }),
        z.object({
          id: z.string(),
          ok: z.literal(false),
          error: z.object({ code: z.string(), message: z.string() }),
        }),
      ]),
    ),
  })
  .meta({ id: 'ObserveResult' });

/** Memories in the review window, highest priority first. */
export const ReviewListSchema = z
  .object({
    space: z.string(),
    window: z.object({ low: z.number(), high: z.number() }),
    total: z.number().int(),
    items: z.array(
      z.object({
        id: z.string(),
        space: z.string(),
        kind: z.enum(KINDS),
        area: z.string(),
        status: z.enum(STATUSES),
        strength: z.number(),
        importance: z.number(),
        use_count: z.number().int(),
        last_used_at: iso.nullable(),
        last_reinforced_at: iso,
        days_to_archive: z.number().nullable(),
        priority: z.number(),
        title: z.string().nullable(),
        body: z.string(),
      }),
    ),
  })
  .meta({ id: 'ReviewList' });

const EdgeListSchema = z.object({ total: z.number().int(), ids: z.array(z.string()) });

/** What a maintenance run did (or, dry, would do). */
export const MaintenanceReportSchema = z
  .object({
    dry_run: z.boolean(),
    space: z.string().nullable(),
    at: iso,
    items_scanned: z.number().int(),
    strength_updates: z.number().int(),
    promoted: z.number().int(),
    archived: z.number().int(),
    transitions: z.array(
      z.object({
        id: z.string(),
        space: z.string(),
        kind: z.enum(KINDS),
        area: z.string(),
        from: z.enum(STATUSES),
        to: z.enum(STATUSES),
        reason: z.string(),
        strength: z.number(),
        importance: z.number(),
      }),
    ),
    transitions_total: z.number().int(),
    histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
    edge_cases: z.object({
      near_archive: EdgeListSchema,
      near_promotion: EdgeListSchema,
      important_archived: EdgeListSchema,
      pinned_held: EdgeListSchema,
    }),
    backup: z.object({ path: z.string(), pruned: z.array(z.string()) }).nullable(),
    run_id: z.string().nullable(),
    timings_ms: z.record(z.string(), z.number()),
  })
  .meta({ id: 'MaintenanceReport' });

/** The `dream` section of the configuration (§10): consolidation stages, caps and schedule. */
import { z } from 'zod';

import { unit } from './fields.js';

const time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)')
  .default('04:00');

/** Near-duplicates: same space and kind, similar vectors AND overlapping text. */
const duplicatesSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    /** Cosine similarity of the two items' vectors, at least. */
    similarity: unit(0.9),
    /** Share of the content words of the longer text matched in the other (a synonym counts), at least. */
    overlap: unit(0.7),
    /**
     * Nearest neighbours looked at per item (through an approximate index, never all pairs). Items
     * of one template with other facts can sit closer than an item's own paraphrase: 10 finds more
     * of the planted duplicates than 5 (bench/hygiene/duplicates-quality.ts).
     */
    neighbours: z.number().int().min(1).max(50).default(10),
    /** The keeper takes the lesser item's sentences it lacks, as a new version (never new text). */
    union_bodies: z.boolean().default(true),
    /** Merges per space and day, across runs and processes. */
    daily_cap: z.number().int().min(0).max(100_000).default(200),
  })
  .prefault({});

/**
 * Conflicts: close pairs that state different facts, judged by the decision adapter when it can
 * judge conflicts (`recall.decision.adapter: openai-compatible`); without one, none (§10).
 */
const conflictsSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    /** Pairs judged per run, at most (each is one request to the adapter). */
    max_per_run: z.number().int().min(0).max(10_000).default(50),
    /** The adapter's probability that the later memory contradicts the earlier, at least. */
    min_probability: unit(0.5),
    /** The longest one judgment may take. */
    timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
  })
  .prefault({});

/** Area folding: structurally similar area names whose contents agree. */
const foldsSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    /** Folds applied per run, at most. */
    max_per_run: z.number().int().min(0).max(3).default(3),
    /** Cosine similarity of the two areas' sample contents to fold; below it the pair is left alone. */
    min_content_similarity: unit(0.8),
    /** Items sampled per area to judge the pair. */
    sample: z.number().int().min(1).max(200).default(20),
  })
  .prefault({});

/** Stale archival (off by default): untouched for a year, nothing around it touched either. */
const staleSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    age_days: z.number().int().min(1).max(36_500).default(365),
    /** Stale archives per space and day, across runs and processes. */
    daily_cap: z.number().int().min(0).max(100_000).default(200),
  })
  .prefault({});

/** Skill library upkeep: structural dedupe and a cap of active skills per area. */
const skillsSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    max_active_per_area: z.number().int().min(1).max(100_000).default(50),
  })
  .prefault({});

/** Consolidation (§10). */
export const dreamSchema = z
  .strictObject({
    duplicates: duplicatesSchema,
    conflicts: conflictsSchema,
    folds: foldsSchema,
    stale: staleSchema,
    skills: skillsSchema,
    /** The longest a run takes before it stops and finalises its diary as partial. */
    deadline_minutes: z.number().min(0.01).max(45).default(10),
    /** A nightly run in the configured space, queued for the worker (`engram serve`, `engram worker`). */
    schedule: z
      .strictObject({ enabled: z.boolean().default(false), time, utc: z.boolean().default(false) })
      .prefault({}),
  })
  .prefault({});

/**
 * The configuration schema of engram: every key, its type, its rule and its documented default.
 * docs/configuration.md is the human reference of this file; keep the two in step.
 */
import { z } from 'zod';

import { dreamSchema } from './dream-schema.js';
import { embedderSchema } from './embedder-schema.js';
import { ms, unit } from './fields.js';
import { recallSchema } from './recall-schema.js';

/** TLS towards PostgreSQL, passed through to the driver (libpq's sslmode meanings). */
const pgSslSchema = z.strictObject({
  mode: z.enum(['disable', 'require', 'verify-ca', 'verify-full']).default('verify-full'),
  ca: z.string().min(1).optional(),
  cert: z.string().min(1).optional(),
  key: z.string().min(1).optional(),
  servername: z.string().min(1).optional(),
});

/**
 * The approximate vector index and from what size recall uses it (SQLite: hnswlib HNSW beside the
 * store file; PostgreSQL: pgvector HNSW); defaults measured with bench/scale
 * (bench/results/scale-*.md). `max_pending` is SQLite's: changes not yet in its index that a
 * search scans exactly beside it before falling back to the exact scan.
 */
const annSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    min_items: z.number().int().min(1).max(1_000_000_000).default(20_000),
    m: z.number().int().min(4).max(64).default(16),
    ef_construction: z.number().int().min(10).max(2_000).default(100),
    ef_search: z.number().int().min(10).max(5_000).default(400),
    /**
     * PostgreSQL's HNSW build and search widths. pgvector's graph needs a wider build and walk
     * than SQLite's index for the same recall: on the synthetic 100k corpus of bench/scale,
     * recall@10 against exact was 0.94-0.97 with ef_construction 100 and 0.98-0.995 with 200
     * (ef_search 400-1,000; bench/results/postgres-*.md). pgvector caps ef_search at 1,000.
     */
    postgres_ef_construction: z.number().int().min(10).max(1_000).default(200),
    postgres_ef_search: z.number().int().min(10).max(1_000).default(1_000),
    max_pending: z.number().int().min(0).max(10_000_000).default(10_000),
  })
  .prefault({});

const storeSchema = z
  .strictObject({
    backend: z.enum(['sqlite', 'postgres']).default('sqlite'),
    path: z.string().min(1).optional(),
    busy_timeout_ms: ms(5_000),
    write_retry_ms: ms(30_000),
    /**
     * SQLite: how much of the store file (MiB, from its start) is read through memory mapping
     * instead of a read call per page; 0 reads every page with read calls. Recall reads rows
     * scattered over the file (candidates, their neighbours), far more than SQLite's own page
     * cache holds at 100,000 memories (bench/locomo/levers.md, "Latency work").
     */
    mmap_mb: z.number().int().min(0).max(65_536).default(256),
    url: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be 1-63 lowercase letters, digits or "_"')
      .default('engram'),
    pool_size: z.number().int().min(1).max(1_000).default(10),
    statement_timeout_ms: ms(30_000),
    connect_timeout_ms: ms(10_000),
    ssl: pgSslSchema.optional(),
    ann: annSchema,
    /**
     * SQLite: answer keyword search from an in-memory index kept in step with the store (exact
     * FTS5 BM25; src/store/sqlite/keyword-memory.ts). Off: every search runs on FTS5.
     */
    keyword_memory: z.boolean().default(true),
    /**
     * SQLite: copy the write-ahead log back into the store file from a worker thread once a
     * process has written a while, instead of in the write that crosses SQLite's threshold
     * (src/store/sqlite/checkpointer.ts). Off: SQLite's own checkpoints in the committing call.
     */
    checkpoint_thread: z.boolean().default(true),
  })
  .refine((s) => s.backend !== 'postgres' || s.url !== undefined, {
    message: 'is required when store.backend is postgres',
    path: ['url'],
  })
  .prefault({});

/** Hard maximum of graph traversal depth (hops), whatever the configuration asks. */
export const GRAPH_MAX_DEPTH = 4;

/** Knowledge graph (§4): extraction bounds, traversal depth and fan-out caps, hub thresholds. */
const graphSchema = z
  .strictObject({
    /** Extract entities on write and offer the graph channel. */
    enabled: z.boolean().default(true),
    /** Extract in a worker thread, off the writing thread (upkeep then trails writes briefly). */
    worker: z.boolean().default(true),
    /** Hops of the graph channel: 1 = items naming a query entity, 2 = one entity edge further. */
    depth: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(GRAPH_MAX_DEPTH, `must be at most ${GRAPH_MAX_DEPTH} (hard cap)`)
      .default(2),
    max_entities_per_memory: z.number().int().min(1).max(256).default(24),
    /** Extraction reads at most this many characters of title + body: it bounds extraction time. */
    max_chars: z.number().int().min(100).max(1_000_000).default(20_000),
    /** Neighbours followed per entity in one hop (strongest edges first). */
    max_neighbors: z.number().int().min(1).max(10_000).default(16),
    /** Entities reached by one traversal at most. */
    max_reached: z.number().int().min(1).max(100_000).default(64),
    /** Items the graph channel returns at most (its best), whatever the candidate pool. */
    max_results: z.number().int().min(1).max(10_000).default(30),
    /** Items read per reached entity at most (newest first). */
    max_items_per_entity: z.number().int().min(1).max(100_000).default(100),
    /** An entity named by more than max(hub_min_mentions, hub_share × items) items is a hub. */
    hub_share: unit(0.05),
    hub_min_mentions: z.number().int().min(1).max(100_000_000).default(50),
  })
  .prefault({});

const limitsSchema = z
  .strictObject({
    max_body_bytes: z
      .number()
      .int()
      .min(1)
      .max(16 * 1024 * 1024)
      .default(32 * 1024),
    max_title_chars: z.number().int().min(1).max(10_000).default(200),
    max_tags: z.number().int().min(0).max(1_000).default(32),
    max_tag_chars: z.number().int().min(1).max(1_000).default(64),
    max_query_chars: z.number().int().min(1).max(100_000).default(4_000),
    max_batch_items: z.number().int().min(1).max(1_000_000).default(1_000),
    /** Turns one stored session (§1.4) may hold at most. */
    max_session_turns: z.number().int().min(1).max(1_000_000).default(10_000),
    /** Bytes of one session turn's text at most (UTF-8). */
    max_turn_bytes: z
      .number()
      .int()
      .min(1)
      .max(16 * 1024 * 1024)
      .default(64 * 1024),
  })
  .prefault({});

const decayRatesSchema = z
  .strictObject({
    identity: z.number().min(0).max(10).default(0.0001),
    fact: z.number().min(0).max(10).default(0.001),
    preference: z.number().min(0).max(10).default(0.001),
    note: z.number().min(0).max(10).default(0.003),
    rule: z.number().min(0).max(10).default(0.005),
    skill: z.number().min(0).max(10).default(0.005),
    procedure: z.number().min(0).max(10).default(0.005),
    episode: z.number().min(0).max(10).default(0.01),
    working: z.number().min(0).max(10).default(0.05),
  })
  .prefault({});

/** Lifecycle (§7): decay per kind, status thresholds, reinforcement, review, backups, schedule. */
const lifecycleSchema = z
  .strictObject({
    decay_rates: decayRatesSchema,
    strength_floor: unit(0.05),
    promote_threshold: unit(0.5),
    archive_threshold: unit(0.2),
    candidate_base: z.number().min(0).max(10).default(0.45),
    max_base: z.number().min(0).max(10).default(2),
    use_boost: z.number().min(0).max(10).default(0.1),
    cross_domain_boost: z.number().min(0).max(10).default(0.25),
    /** A cross-domain use relates the memory to the other memories of its context (§4, §6). */
    cross_domain_links: z.boolean().default(true),
    important_threshold: unit(0.7),
    review: z
      .strictObject({
        window_low: unit(0.15),
        window_high: unit(0.35),
        min_importance: unit(0.5),
        limit: z.number().int().min(1).max(1000).default(20),
      })
      .refine((r) => r.window_low < r.window_high, {
        message: 'window_low must be below window_high',
        path: ['window_low'],
      })
      .prefault({}),
    backup: z
      .strictObject({
        enabled: z.boolean().default(true),
        dir: z.string().min(1).optional(),
        keep_days: z.number().int().min(0).max(3650).default(7),
      })
      .prefault({}),
    schedule: z
      .strictObject({
        enabled: z.boolean().default(true),
        time: z
          .string()
          .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)')
          .default('03:30'),
        utc: z.boolean().default(false),
      })
      .prefault({}),
  })
  .refine((l) => l.archive_threshold < l.promote_threshold, {
    message: 'archive_threshold must be below promote_threshold',
    path: ['archive_threshold'],
  })
  .refine((l) => l.strength_floor <= l.archive_threshold, {
    message: 'strength_floor must not exceed archive_threshold',
    path: ['strength_floor'],
  })
  .prefault({});

/** Auto-recall modes (§6). */
export const AUTO_RECALL_MODES = ['silent', 'subtle', 'interactive'] as const;

/** Auto-recall during conversation (§6); runtime changes are persisted in the store. */
const autoRecallSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    mode: z.enum(AUTO_RECALL_MODES).default('silent'),
    relevance_threshold: unit(0.7),
    max_results: z.number().int().min(1).max(50).default(3),
    min_interval_s: z.number().min(0).max(31_536_000).default(300),
    max_message_chars: z.number().int().min(1).max(1_000_000).default(20_000),
    history_window: z.number().int().min(0).max(50).default(6),
    cosine_floor: unit(0.65),
    cosine_ceiling: unit(0.95),
    /** Longest a write waits for its related memories (subtle/interactive); then it skips them. */
    related_budget_ms: ms(20, 60_000),
  })
  .refine((a) => a.cosine_floor < a.cosine_ceiling, {
    message: 'cosine_floor must be below cosine_ceiling',
    path: ['cosine_floor'],
  })
  .prefault({});

/** Dormant-recall modes (§9): `off` disables evaluation and logging; there is no visible mode. */
export const DORMANT_RECALL_MODES = ['shadow', 'off'] as const;

/** Hard maxima of the dormant-recall block (§9.1): larger values are configuration errors. */
export const DORMANT_HARD_MAX = Object.freeze({
  candidate_limit: 200,
  max_bonus: 0.1,
  log_max_events: 10_000,
});

const hardMax = (max: number) => `must be at most ${max} (hard maximum)`;

/**
 * Dormant recall (§9.1), the shadow experiment. Off by default; `mode: off` (or YAML `false`)
 * disables evaluation and logging. Thresholds are on the configured models' own scales.
 */
const dormantRecallSchema = z
  .strictObject({
    mode: z
      .preprocess((v) => (v === false ? 'off' : v), z.enum(DORMANT_RECALL_MODES))
      .default('off'),
    candidate_limit: z
      .number()
      .int()
      .min(1)
      .max(DORMANT_HARD_MAX.candidate_limit, hardMax(DORMANT_HARD_MAX.candidate_limit))
      .default(50),
    dormancy_days: z.number().positive().max(36_500).default(30),
    /** Raw embedding cosine floor, applied before any bonus. */
    min_relevance: z.number().min(-1).max(1).default(0.75),
    max_bonus: z
      .number()
      .min(0)
      .max(DORMANT_HARD_MAX.max_bonus, hardMax(DORMANT_HARD_MAX.max_bonus))
      .default(0.05),
    rerank_candidates: z.number().int().min(1).max(DORMANT_HARD_MAX.candidate_limit).default(12),
    min_rerank_score: unit(0.6),
    cooldown_days: z.number().min(0).max(36_500).default(7),
    feedback_cooldown_days: z.number().min(0).max(36_500).default(30),
    log_max_events: z
      .number()
      .int()
      .min(1)
      .max(DORMANT_HARD_MAX.log_max_events, hardMax(DORMANT_HARD_MAX.log_max_events))
      .default(1_000),
    log_retention_days: z.number().positive().max(36_500).default(30),
  })
  .prefault({});

/** Roles of HTTP bearer tokens: read < write < admin. */
export const SERVER_ROLES = ['read', 'write', 'admin'] as const;

/** One HTTP bearer token, stored only as its sha256 hash (`engram serve --hash-token`). */
const serverTokenSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, ".", "_" or "-"'),
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" and 64 lowercase hex digits'),
  role: z.enum(SERVER_ROLES),
  spaces: z
    .array(
      z
        .string()
        .regex(
          /^(\*|[A-Za-z0-9][A-Za-z0-9._-]{0,63})$/,
          'must be a space name or "*" (every space)',
        ),
    )
    .min(1),
});

/** The HTTP service (`engram serve`): bind address, auth, CORS, limits, shutdown. */
const serverSchema = z
  .strictObject({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65_535).default(8_765),
    /** Serve the web console at `/` (built into dist/web by `npm run build`); the API stays under /v1. */
    console: z.boolean().default(true),
    tokens: z
      .array(serverTokenSchema)
      .default([])
      .refine((t) => new Set(t.map((x) => x.name)).size === t.length, 'token names must be unique'),
    cors: z
      .strictObject({
        origins: z.array(z.string().min(1)).default([]),
        max_age_s: z.number().int().min(0).max(86_400).default(600),
      })
      .prefault({}),
    max_body_bytes: z.number().int().min(1_024).max(1_073_741_824).default(1_048_576),
    max_import_bytes: z.number().int().min(1_024).max(68_719_476_736).default(268_435_456),
    max_import_line_bytes: z.number().int().min(1_024).max(1_073_741_824).default(8_388_608),
    shutdown_grace_ms: ms(10_000),
    backfill_interval_ms: ms(30_000, 86_400_000),
    /** A client must send a request's headers within this time (slow-header clients are cut off). */
    headers_timeout_ms: z.number().int().min(1_000).max(600_000).default(10_000),
    /** A whole request (a streamed import's body included) must arrive within this time; 0: no limit. */
    request_timeout_ms: ms(1_800_000, 86_400_000),
  })
  .refine((s) => s.request_timeout_ms === 0 || s.request_timeout_ms > s.headers_timeout_ms, {
    message: 'request_timeout_ms must be 0 or more than headers_timeout_ms',
    path: ['request_timeout_ms'],
  })
  .prefault({});

/** Background jobs (§11): who runs them, how long a run may take, how failures are retried. */
const workerSchema = z
  .strictObject({
    /** Run the job worker in `engram serve` (and in other long-lived processes of the library). */
    enabled: z.boolean().default(true),
    /** How often an idle worker looks for due jobs (also those queued by other processes). */
    poll_ms: z.number().int().min(100).max(3_600_000).default(2_000),
    /** A running job's lease; renewed every third of it, taken over by another process after it. */
    lease_ms: z.number().int().min(1_000).max(3_600_000).default(60_000),
    /** Longest run of one job before it stops at a checkpoint and continues in a next run. */
    deadline_minutes: z.number().min(0.01).max(45).default(45),
    /** Failed runs before a job stays failed (until `engram jobs retry`). */
    max_attempts: z.number().int().min(1).max(100).default(5),
    /** Back-off before the first retry; doubled per retry, with ±20% jitter, capped. */
    retry_base_ms: z.number().int().min(0).max(86_400_000).default(30_000),
    retry_max_ms: z.number().int().min(0).max(604_800_000).default(3_600_000),
    /** Failed attempts of one item's work (e.g. its embedding) before it waits for a retry. */
    item_max_attempts: z.number().int().min(1).max(100).default(5),
  })
  .prefault({});

/** The whole configuration file. Unknown keys are errors, so a typo never goes unnoticed. */
export const configSchema = z.strictObject({
  space: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
      'letters, digits, ".", "_" or "-", at most 64, not starting with punctuation',
    )
    .default('default'),
  store: storeSchema,
  embedder: embedderSchema,
  recall: recallSchema,
  limits: limitsSchema,
  lifecycle: lifecycleSchema,
  auto_recall: autoRecallSchema,
  server: serverSchema,
  graph: graphSchema,
  dormant_recall: dormantRecallSchema,
  worker: workerSchema,
  dream: dreamSchema,
});

/** The validated configuration (defaults applied). */
export type Config = z.output<typeof configSchema>;
/** What a configuration file or `createEngram` may give: every key optional. */
export type ConfigInput = z.input<typeof configSchema>;

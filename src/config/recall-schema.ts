/** The `recall` section of the configuration (§3): how hybrid recall finds, fuses and orders. */
import { z } from 'zod';

import { type ChannelName, perChannel, STATUSES } from '../domain/types.js';
import { ms, unit } from './fields.js';

/**
 * Fusion weight of each channel by default (§3.2, chosen by bench/locomo); 0 disables a channel:
 * the graph channel, or the time channel (keyword search within the time a query names).
 */
const DEFAULT_WEIGHTS: Readonly<Record<ChannelName, number>> = {
  keyword: 1,
  vector: 0.3,
  graph: 0.5,
  time: 1,
};

const weightsSchema = z
  .strictObject(perChannel((c) => z.number().min(0).max(10).default(DEFAULT_WEIGHTS[c])))
  .prefault({});

const boostsSchema = z
  .strictObject({
    recency: unit(0.05),
    recency_half_life_days: z.number().positive().max(36_500).default(30),
    frequency: unit(0.03),
    frequency_saturation: z.number().int().min(1).max(1_000_000).default(20),
    importance: unit(0.05),
    strength: unit(0.03),
    /** For memories whose `source.speaker` the query names ("What did Melanie paint?"). */
    speaker: unit(0.25),
  })
  .prefault({});

/**
 * Session context (src/retrieval/context.ts): nearby turns of the same conversation
 * (source.session + source.turn) lend a share of their keyword evidence to a turn.
 */
const contextSchema = z
  .strictObject({
    /** Turns on each side that lend evidence; 0 turns session context off. */
    window: z.number().int().min(0).max(50).default(3),
    weight: z.number().min(0).max(10).default(0.5),
    decay: unit(0.7),
    /**
     * Notes and episodes written with no session take their write neighbours as their
     * conversation: the alike memories of the space written just before and after them, created
     * at most this far apart (default 30 minutes); 0 turns it off. Measured with bench/locomo's
     * body-only protocols (bench/locomo/levers.md).
     */
    write_gap_ms: ms(1_800_000, 2_592_000_000),
  })
  .prefault({});

/**
 * The time channel (src/retrieval/channels/time.ts): how far around the date a query names a
 * memory may have been created. Memories are written after what they tell, so more after.
 */
const timeSchema = z
  .strictObject({
    before_days: z.number().min(0).max(36_500).default(1),
    after_days: z.number().min(0).max(36_500).default(7),
  })
  .prefault({});

/** Tunables of the built-in `alignment` relevance scorer (src/retrieval/rerank/alignment.ts). */
const alignmentSchema = z
  .strictObject({
    floor: z.number().min(0).max(0.99).default(0.4),
    lexical_weight: unit(0.5),
    context_weight: unit(0.7),
    common_rank: z.number().positive().max(1_000_000).default(100),
    /** Weigh each query term by how many of the judged candidates hold it (alignment.ts). */
    pool_weighting: z.boolean().default(true),
  })
  .prefault({});

/** A local ONNX cross-encoder (e.g. an ms-marco-MiniLM or bge-reranker export). */
const crossEncoderSchema = z
  .strictObject({
    path: z.string().min(1).optional(),
    max_length: z.number().int().min(8).max(8_192).default(512),
    batch_size: z.number().int().min(1).max(1_024).default(16),
  })
  .prefault({});

/** Legacy reranking (§5.2, src/retrieval/rerank/rerank.ts); the request's `rerank` overrides `enabled`. */
const rerankSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    scorer: z.enum(['alignment', 'cross-encoder']).default('alignment'),
    /** How many of the best first-stage candidates are judged. */
    top_n: z.number().int().min(1).max(10_000).default(100),
    /** Weight of the normalised first-stage score in the reranked order. */
    blend: unit(0.5),
    /** Turns on each side of a conversation turn the scorer reads as its context. */
    context_window: z.number().int().min(0).max(50).default(2),
    alignment: alignmentSchema,
    /** A cross-encoder exported to ONNX in a local folder (`scorer: cross-encoder`). */
    cross_encoder: crossEncoderSchema,
  })
  .refine((r) => r.scorer !== 'cross-encoder' || r.cross_encoder.path !== undefined, {
    message: 'is required when recall.rerank.scorer is cross-encoder',
    path: ['cross_encoder', 'path'],
  })
  .prefault({});

/** The OpenAI-compatible chat endpoint of the `openai-compatible` decision adapter. */
const judgeSchema = z
  .strictObject({
    base_url: z.url({ protocol: /^https?$/ }).optional(),
    model: z.string().min(1).optional(),
    /** The API key; better kept out of files: see api_key_env. */
    api_key: z.string().min(1).optional(),
    /** The environment variable the API key is read from when `api_key` is not set. */
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .default('OPENAI_API_KEY'),
    /** Judgments in flight at once. */
    concurrency: z.number().int().min(1).max(64).default(4),
    /** Ask for token log-probabilities (P(yes)); `auto` falls back to the answer where refused. */
    logprobs: z.union([z.literal('auto'), z.boolean()]).default('auto'),
  })
  .prefault({});

/** Decision recall (§5.1): the second stage that judges the pool all or nothing. */
const decisionSchema = z
  .strictObject({
    /** The adapter that judges; `none` leaves the stage off (responses as ordinary recall). */
    adapter: z.enum(['none', 'alignment', 'cross-encoder', 'openai-compatible']).default('none'),
    /** Candidates of the ordinary order judged (at least k). */
    pool: z.number().int().min(1).max(200).default(30),
    /** The one deadline of the whole judgment; past it the ordinary hits return (fell_back). */
    deadline_ms: ms(3_000),
    /** `low_confidence` when the best relevance is below this (it never removes results). */
    min_relevance: unit(0.5),
    /** Conversation turns on each side of a turn that the judge reads as its context. */
    context_window: z.number().int().min(0).max(50).default(2),
    /**
     * Candidates each source (§5.3) adds to the judged pool at most; 0 turns a source off. All off
     * by default: on LoCoMo neither graph nor docs improved answers (bench/results/decision-*.md).
     */
    sources: z
      .strictObject({
        /** Memory items tied to the query's entities that the pool lacks. */
        graph: z.number().int().min(0).max(50).default(0),
        /** Sections of engram's own documentation and CLI reference. */
        docs: z.number().int().min(0).max(50).default(0),
        /** Excerpts of past sessions, labelled with their session. */
        sessions: z.number().int().min(0).max(50).default(0),
      })
      .prefault({}),
    /** The `alignment` adapter. */
    alignment: z
      .strictObject({
        /**
         * γ of the rank prior: relevance is the alignment score times (1 + position)^-γ, position
         * being the candidate's 0-based place in the ordinary order, which carries evidence the
         * word-vector score lacks (channels, session context, time). 0 judges by alignment alone.
         * Chosen on LoCoMo conversations 1-5 (bench/decision/levers.md).
         */
        rank_prior: z.number().min(0).max(4).default(0.3),
        /**
         * Weigh query terms by how many of the judged pool hold them, as the reranker does
         * (recall.rerank.alignment.pool_weighting). Off: the judge's relevance is absolute, which
         * low_confidence reads. Chosen on LoCoMo conversations 1-5 (bench/decision/levers.md).
         */
        pool_weighting: z.boolean().default(false),
      })
      .prefault({}),
    openai: judgeSchema,
  })
  .refine((d) => d.adapter !== 'openai-compatible' || (d.openai.base_url && d.openai.model), {
    message: 'base_url and model are required when the adapter is openai-compatible',
    path: ['openai'],
  })
  .prefault({});

/** Recall (§3): pool sizes, fusion, weights, boosts, session context, the time channel, rerank. */
export const recallSchema = z
  .strictObject({
    k: z.number().int().min(1).max(200).default(5),
    pool: z.number().int().min(1).max(10_000).default(100),
    max_pool: z.number().int().min(1).max(10_000).default(200),
    rrf_k: z.number().min(0).max(10_000).default(30),
    semantic_budget_ms: ms(800),
    weights: weightsSchema,
    boosts: boostsSchema,
    context: contextSchema,
    time: timeSchema,
    rerank: rerankSchema,
    decision: decisionSchema,
    default_statuses: z.array(z.enum(STATUSES)).min(1).default(['active', 'challenged']),
    /**
     * Access accounting (§3.6): written within each recall (flush_ms 0), or behind it, at most
     * flush_ms later or once max_pending items wait.
     */
    access: z
      .strictObject({
        flush_ms: z.number().int().min(0).max(60_000).default(0),
        max_pending: z.number().int().min(1).max(100_000).default(1_000),
      })
      .prefault({}),
  })
  .refine((r) => r.pool <= r.max_pool, { message: 'pool must not exceed max_pool', path: ['pool'] })
  .prefault({});

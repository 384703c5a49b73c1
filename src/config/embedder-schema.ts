/** The `embedder` section of the configuration (§8): providers and their settings. */
import { z } from 'zod';

import { ms } from './fields.js';

/** A sentence-transformers model exported to ONNX in a local folder (`embedder.provider: onnx`). */
const onnxEmbedderSchema = z
  .strictObject({
    /** The model folder: `model.onnx` or `onnx/model*.onnx`, `tokenizer.json`, `config.json`. */
    path: z.string().min(1).optional(),
    /** `auto` reads the folder's `1_Pooling/config.json` (mean when absent). */
    pooling: z.enum(['auto', 'mean', 'cls']).default('auto'),
    normalize: z.boolean().default(true),
    batch_size: z.number().int().min(1).max(1_024).default(32),
    max_length: z.number().int().min(8).max(8_192).default(512),
  })
  .prefault({});

/** An OpenAI-compatible `/v1/embeddings` endpoint (`embedder.provider: openai`). */
const openAiEmbedderSchema = z
  .strictObject({
    base_url: z.url({ protocol: /^https?$/ }).default('https://api.openai.com/v1'),
    model: z.string().min(1).optional(),
    dimensions: z.number().int().min(1).max(65_536).optional(),
    /** The API key; better kept out of files: see api_key_env. */
    api_key: z.string().min(1).optional(),
    /** The environment variable the API key is read from when `api_key` is not set. */
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .default('OPENAI_API_KEY'),
    batch_size: z.number().int().min(1).max(2_048).default(64),
    timeout_ms: ms(30_000),
    max_retries: z.number().int().min(0).max(10).default(3),
  })
  .prefault({});

/** The embedder (§8): the provider a new store publishes, and each provider's settings. */
export const embedderSchema = z
  .strictObject({
    provider: z.enum(['static', 'onnx', 'openai', 'none']).default('static'),
    cache_dir: z.string().min(1).optional(),
    sif_a: z.number().positive().max(1).default(1e-3),
    write_budget_ms: ms(2_000),
    backfill_batch: z.number().int().min(1).max(10_000).default(256),
    onnx: onnxEmbedderSchema,
    openai: openAiEmbedderSchema,
  })
  .refine((e) => e.provider !== 'onnx' || e.onnx.path !== undefined, {
    message: 'is required when embedder.provider is onnx',
    path: ['onnx', 'path'],
  })
  .refine((e) => e.provider !== 'openai' || e.openai.model !== undefined, {
    message: 'is required when embedder.provider is openai',
    path: ['openai', 'model'],
  })
  .prefault({});

/**
 * The `onnx` embedder: sentence vectors from a local Hugging Face model folder (a BERT-like encoder
 * exported to ONNX, as sentence-transformers models are published with `onnx/model.onnx`), run on
 * the CPU by transformers.js and onnxruntime-node. Nothing is ever downloaded: the folder must hold
 * the ONNX graph, `tokenizer.json`, `tokenizer_config.json` and `config.json`, and is checked when
 * the embedder is constructed. The runtime itself loads on `prepare` (or the first `embed`).
 *
 * A sentence vector is the mean of the token vectors under the attention mask (special tokens
 * included, as sentence-transformers pools) or the CLS token's vector, then scaled to unit length.
 * Extra sentence-transformers modules after pooling (`2_Dense`, ...) are not applied.
 */
import { EngramError, invalidInput } from '../../domain/errors.js';
import type { Embedder, EmbedderState } from '../embedder.js';
import { normalize } from '../embedder.js';
import { type FloatTensor, pool } from './encoding.js';
import { LoadedModel } from './loaded-model.js';
import {
  checkModelFolder,
  declaredPooling,
  hiddenSize,
  lengthLimit,
  type ModelFolder,
  type Pooling,
} from './model-folder.js';

/** Configuration field that names the model folder (used in error messages). */
export const ONNX_PATH_FIELD = 'embedder.onnx.path';

/** Options of the ONNX embedder. */
export interface OnnxEmbedderOptions {
  /** The local model folder. */
  path: string;
  /** `auto` (default) follows `1_Pooling/config.json`, and means `mean` when it is absent. */
  pooling?: 'auto' | Pooling;
  /**
   * Scale vectors to unit length (default true). With false the raw pooled vector is returned:
   * the Embedder contract's unit length then no longer holds, so only callers that normalise (or
   * compare by cosine) themselves should turn it off.
   */
  normalize?: boolean;
  /** Texts per model run (default 32). */
  batchSize?: number;
  /** Longest input in tokens, special tokens included; longer texts lose their end (default 512). */
  maxLength?: number;
  /** Model id stamped on vectors (default `onnx:<folder name>`). */
  modelId?: string;
}

/** Default texts per model run. */
export const ONNX_DEFAULT_BATCH_SIZE = 32;
/** Default input length limit in tokens. */
export const ONNX_DEFAULT_MAX_LENGTH = 512;

/** Names of the token-vector output in the exports engram knows (transformers, sentence-transformers). */
const HIDDEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];

/** Sentence embedder over a local ONNX encoder. */
export class OnnxEmbedder implements Embedder {
  /** Model id stamped on every vector. */
  readonly modelId: string;
  /** Vector length: the model's hidden size from config.json. */
  readonly dimension: number;
  /** The pooling in use, resolved from the option or the folder. */
  readonly pooling: Pooling;
  private readonly folder: ModelFolder;
  private readonly unit: boolean;
  private readonly batchSize: number;
  private readonly model: LoadedModel;

  /** Checks the folder and reads its configuration; throws CONFIG_INVALID naming a missing file. */
  constructor(options: OnnxEmbedderOptions) {
    const batchSize = options.batchSize ?? ONNX_DEFAULT_BATCH_SIZE;
    const maxLength = options.maxLength ?? ONNX_DEFAULT_MAX_LENGTH;
    checkCount('batchSize', batchSize, 1);
    checkCount('maxLength', maxLength, 2);
    this.folder = checkModelFolder(options.path, ONNX_PATH_FIELD);
    this.dimension = hiddenSize(this.folder, ONNX_PATH_FIELD);
    const pooling = options.pooling ?? 'auto';
    this.pooling = pooling === 'auto' ? declaredPooling(this.folder, ONNX_PATH_FIELD) : pooling;
    this.unit = options.normalize ?? true;
    this.batchSize = batchSize;
    this.modelId = options.modelId ?? `onnx:${this.folder.name}`;
    const limit = lengthLimit(this.folder, maxLength, ONNX_PATH_FIELD);
    this.model = new LoadedModel(this.folder, 'base', limit, 'onnx embedder');
  }

  /** Loads the tokenizer and the ONNX session; concurrent calls share one load. */
  prepare(): Promise<void> {
    return this.model.load();
  }

  /**
   * One vector per text (unit length unless `normalize: false`), or null for an empty or
   * whitespace-only text, which never reaches the model. Texts run in batches of `batchSize`.
   */
  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
      throw invalidInput('texts', 'string_array', 'texts must be an array of strings');
    }
    const out = new Array<Float32Array | null>(texts.length).fill(null);
    const sent = texts.flatMap((text, i) => (text.trim() === '' ? [] : [i]));
    for (let from = 0; from < sent.length; from += this.batchSize) {
      const batch = sent.slice(from, from + this.batchSize);
      const vectors = await this.embedBatch(batch.map((i) => texts[i]!));
      batch.forEach((i, k) => (out[i] = vectors[k] ?? null));
    }
    return out;
  }

  /** Availability from the file system and the last load, without loading anything. */
  state(): EmbedderState {
    const base = { model_id: this.modelId, dimension: this.dimension };
    const loaded = this.model.isLoaded;
    if (loaded) return { ...base, available: true, loaded };
    try {
      checkModelFolder(this.folder.root, ONNX_PATH_FIELD);
    } catch (error) {
      return { ...base, available: false, loaded, reason: (error as Error).message };
    }
    const reason = this.model.lastFailure;
    return reason === undefined
      ? { ...base, available: true, loaded }
      : { ...base, available: false, loaded, reason };
  }

  /** Releases the ONNX session; a later `embed` loads it again. */
  close(): Promise<void> {
    return this.model.close();
  }

  private async embedBatch(texts: string[]): Promise<(Float32Array | null)[]> {
    const { outputs, batch } = await this.model.run(texts.map((text) => [text]));
    const hidden = this.hiddenOutput(outputs);
    return pool(hidden, batch.mask, this.pooling).map((v) => (this.unit ? normalize(v) : v));
  }

  private hiddenOutput(outputs: Record<string, FloatTensor>): FloatTensor {
    const named = HIDDEN_OUTPUTS.map((name) => outputs[name]).find((t) => t !== undefined);
    const hidden = named ?? Object.values(outputs).find((t) => t.dims.length === 3);
    if (hidden === undefined || hidden.dims[2] !== this.dimension) {
      const shape = hidden ? `[${hidden.dims.join(', ')}]` : 'none';
      throw new EngramError(
        'EMBEDDER_UNAVAILABLE',
        `onnx embedder: the model in ${this.folder.root} gave no token vectors of size ${this.dimension} (got ${shape})`,
        { rule: 'output_shape', path: this.folder.root },
      );
    }
    return hidden;
  }
}

function checkCount(field: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw invalidInput(
      field,
      `integer >= ${min}`,
      `${field} must be an integer of at least ${min}`,
    );
  }
}

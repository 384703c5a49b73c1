/**
 * The `cross-encoder` relevance scorer (§8): a local ONNX sequence-classification model (e.g.
 * cross-encoder/ms-marco-MiniLM-L-6-v2 exported to ONNX) reads each (query, document) pair as
 * `[CLS] query [SEP] document [SEP]` and returns a logit, mapped to 0..1: the sigmoid of a single
 * logit, or the softmax probability of label 1 for a two-label head. Nothing is downloaded; the
 * folder is checked when the scorer is constructed and the ONNX runtime loads on first use.
 *
 * Only a document's own text is scored: its `context` (adjacent turns) is ignored, because the
 * model reads the pair as one passage and would weigh context as strongly as the text itself.
 * A pair longer than `maxLength` tokens loses the end of the document. An empty query or document
 * text scores 0 without reaching the model.
 */
import { EngramError, invalidInput } from '../../domain/errors.js';
import type { FloatTensor } from '../../embed/onnx/encoding.js';
import { LoadedModel } from '../../embed/onnx/loaded-model.js';
import { checkModelFolder, lengthLimit } from '../../embed/onnx/model-folder.js';
import type { RelevanceDocument, RelevanceScorer } from './relevance.js';

/** Configuration field that names the model folder (used in error messages). */
export const CROSS_ENCODER_PATH_FIELD = 'recall.rerank.cross_encoder.path';

/** Options of the cross-encoder scorer. */
export interface CrossEncoderOptions {
  /** The local model folder. */
  path: string;
  /** Longest (query, document) pair in tokens, special tokens included (default 512). */
  maxLength?: number;
  /** Pairs per model run (default 16). */
  batchSize?: number;
}

/** Default pairs per model run. */
export const CROSS_ENCODER_DEFAULT_BATCH_SIZE = 16;
/** Default pair length limit in tokens. */
export const CROSS_ENCODER_DEFAULT_MAX_LENGTH = 512;

/** Relevance scorer running a local ONNX cross-encoder. */
export class CrossEncoderScorer implements RelevanceScorer {
  /** The scorer's configured name. */
  readonly name = 'cross-encoder';
  private readonly batchSize: number;
  private readonly model: LoadedModel;

  /** Checks the model folder; throws CONFIG_INVALID naming a missing file. */
  constructor(options: CrossEncoderOptions) {
    const batchSize = options.batchSize ?? CROSS_ENCODER_DEFAULT_BATCH_SIZE;
    const maxLength = options.maxLength ?? CROSS_ENCODER_DEFAULT_MAX_LENGTH;
    checkCount('batchSize', batchSize, 1);
    checkCount('maxLength', maxLength, 4);
    const folder = checkModelFolder(options.path, CROSS_ENCODER_PATH_FIELD);
    const limit = lengthLimit(folder, maxLength, CROSS_ENCODER_PATH_FIELD);
    this.model = new LoadedModel(folder, 'classifier', limit, 'cross-encoder');
    this.batchSize = batchSize;
  }

  /** Loads the tokenizer and the ONNX session; concurrent calls share one load. */
  prepare(): Promise<void> {
    return this.model.load();
  }

  /** One relevance in 0..1 per document, in the order given; pairs run in batches. */
  async score(query: string, documents: readonly RelevanceDocument[]): Promise<number[]> {
    const out = new Array<number>(documents.length).fill(0);
    if (query.trim() === '') return out;
    const sent = documents.flatMap((doc, i) => (doc.text.trim() === '' ? [] : [i]));
    for (let from = 0; from < sent.length; from += this.batchSize) {
      const batch = sent.slice(from, from + this.batchSize);
      const inputs = batch.map((i) => [query, documents[i]!.text] as const);
      const { outputs } = await this.model.run(inputs);
      const scores = this.relevance(outputs);
      batch.forEach((i, k) => (out[i] = scores[k]!));
    }
    return out;
  }

  /** Releases the ONNX session; a later `score` loads it again. */
  close(): Promise<void> {
    return this.model.close();
  }

  private relevance(outputs: Record<string, FloatTensor>): number[] {
    const logits = outputs.logits ?? Object.values(outputs)[0];
    const labels = logits?.dims.length === 2 ? logits.dims[1] : undefined;
    if (logits === undefined || (labels !== 1 && labels !== 2)) {
      const shape = logits ? `[${logits.dims.join(', ')}]` : 'none';
      throw new EngramError(
        'EMBEDDER_UNAVAILABLE',
        `cross-encoder: the model in ${this.model.folder.root} must output logits [batch, 1] or [batch, 2] (got ${shape})`,
        { rule: 'output_shape', path: this.model.folder.root },
      );
    }
    return logitsToRelevance(logits.data, labels);
  }
}

/**
 * Maps rows of `labels` logits to 0..1: sigmoid for one label, the softmax probability of label 1
 * for two.
 */
export function logitsToRelevance(data: Float32Array, labels: 1 | 2): number[] {
  const out: number[] = [];
  for (let row = 0; row * labels < data.length; row++) {
    const first = data[row * labels]!;
    // softmax([a, b])[1] = sigmoid(b - a)
    out.push(labels === 1 ? sigmoid(first) : sigmoid(data[row * labels + 1]! - first));
  }
  return out;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
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

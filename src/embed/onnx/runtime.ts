/**
 * The one module that imports transformers.js (and, through it, onnxruntime-node). The ONNX
 * embedder and the cross-encoder import it lazily (`await import('./runtime.js')`), so loading
 * engram never loads the ONNX runtime. Models load from local folders only: remote downloads are
 * switched off and nothing is written to transformers.js' file cache.
 */
import {
  AutoModel,
  AutoModelForSequenceClassification,
  AutoTokenizer,
  env,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  Tensor,
} from '@huggingface/transformers';

import type { Encoding, FloatTensor, PaddedBatch } from './encoding.js';
import type { ModelFile } from './model-folder.js';

/** A loaded tokenizer, reduced to what engram asks of it. */
export interface TextTokenizer {
  /** The tokenizer's own length limit (`model_max_length`), when it declares a usable one. */
  readonly maxLength: number | undefined;
  /** Id of the padding token. */
  readonly padId: number;
  /** Token ids with special tokens added, for one text or a text pair; no truncation. */
  encode(text: string, pair?: string): Encoding;
}

/** A loaded ONNX model: runs a padded batch, returns its float outputs by name. */
export interface TokenModel {
  run(batch: PaddedBatch): Promise<Record<string, FloatTensor>>;
  dispose(): Promise<void>;
}

/** Which head the model has: token vectors (`base`) or classification logits. */
export type ModelHead = 'base' | 'classifier';

/** Lengths above this are the "no limit" sentinel transformers.js and HF use (1e30). */
const NO_LIMIT = 1_000_000;

function localOnly(): void {
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.useBrowserCache = false;
}

/** Loads `tokenizer.json` + `tokenizer_config.json` from the absolute folder `root`. */
export async function loadTokenizer(root: string): Promise<TextTokenizer> {
  localOnly();
  const tokenizer = await AutoTokenizer.from_pretrained(root, { local_files_only: true });
  const limit: unknown = tokenizer.model_max_length;
  return {
    maxLength: typeof limit === 'number' && limit > 0 && limit < NO_LIMIT ? limit : undefined,
    padId: tokenizer.pad_token_id ?? 0,
    encode: (text, pair) => encodeWith(tokenizer, text, pair),
  };
}

function encodeWith(tokenizer: PreTrainedTokenizer, text: string, pair?: string): Encoding {
  const out = tokenizer._call(text, {
    text_pair: pair ?? null,
    add_special_tokens: true,
    return_token_type_ids: true,
    return_tensor: false,
  }) as { input_ids: number[]; token_type_ids?: number[] };
  const ids = out.input_ids;
  return { ids, typeIds: out.token_type_ids ?? new Array<number>(ids.length).fill(0) };
}

/** Loads the ONNX graph `file` of the absolute folder `root` on the CPU, in full precision. */
export async function loadModel(
  root: string,
  file: ModelFile,
  head: ModelHead,
): Promise<TokenModel> {
  localOnly();
  const auto = head === 'base' ? AutoModel : AutoModelForSequenceClassification;
  const model = await auto.from_pretrained(root, {
    local_files_only: true,
    subfolder: file.subfolder,
    model_file_name: file.name,
    dtype: 'fp32',
    device: 'cpu',
  });
  return {
    run: (batch) => runModel(model, batch),
    dispose: async () => {
      await model.dispose();
    },
  };
}

async function runModel(
  model: PreTrainedModel,
  batch: PaddedBatch,
): Promise<Record<string, FloatTensor>> {
  const dims = [batch.rows, batch.length];
  const outputs = (await model({
    input_ids: new Tensor('int64', batch.ids, dims),
    attention_mask: new Tensor('int64', batch.mask, dims),
    token_type_ids: new Tensor('int64', batch.typeIds, dims),
  })) as Record<string, unknown>;
  const floats: Record<string, FloatTensor> = {};
  for (const [name, value] of Object.entries(outputs)) {
    if (value instanceof Tensor && value.data instanceof Float32Array) {
      floats[name] = { data: value.data, dims: value.dims };
    }
  }
  return floats;
}

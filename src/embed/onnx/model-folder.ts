/**
 * Checks a local Hugging Face model folder (as exported for transformers.js or
 * sentence-transformers) synchronously, before anything loads: the ONNX file, the tokenizer files
 * and config.json must be there, and config.json tells the hidden size. Every problem is a
 * CONFIG_INVALID error naming the missing file and the configuration field that points at it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

import { EngramError } from '../../domain/errors.js';

/** Where the ONNX graph lies, in the terms transformers.js loads it by. */
export interface ModelFile {
  /** Folder inside the model folder: `onnx`, or `` for a top-level file. */
  subfolder: string;
  /** File name without `.onnx`, e.g. `model` or `model_quantized`. */
  name: string;
  /** Absolute path of the file. */
  path: string;
}

/** A checked model folder. */
export interface ModelFolder {
  /** Absolute path of the folder. */
  root: string;
  /** The folder's base name (used in default model ids). */
  name: string;
  model: ModelFile;
  /** Parsed config.json. */
  config: Readonly<Record<string, unknown>>;
}

/** How token vectors become one sentence vector. */
export type Pooling = 'mean' | 'cls';

/** Files every model folder needs besides the ONNX graph (transformers.js reads all three). */
const REQUIRED_FILES = ['tokenizer.json', 'tokenizer_config.json', 'config.json'] as const;

/**
 * Checks the folder at `path` (configured at `field`) and reads its config.json. Throws
 * CONFIG_INVALID naming the first missing file.
 */
export function checkModelFolder(path: string, field: string): ModelFolder {
  if (typeof path !== 'string' || path.trim() === '') {
    throw configError(field, 'non_empty_path', `${field} must name a model folder`, path);
  }
  const root = resolve(path);
  if (!isDirectory(root)) {
    throw configError(
      field,
      'folder_exists',
      `${field}: model folder ${root} does not exist`,
      root,
    );
  }
  const model = findModelFile(root, field);
  for (const file of REQUIRED_FILES) {
    const filePath = join(root, file);
    if (!isFile(filePath)) {
      throw configError(field, 'file_exists', `${field}: ${filePath} is missing`, filePath);
    }
  }
  const config = readJsonObject(join(root, 'config.json'), field);
  return { root, name: basename(root), model, config };
}

/**
 * The ONNX graph of a folder: `onnx/model.onnx`, else `model.onnx`, else the first
 * `onnx/model*.onnx` in name order.
 */
export function findModelFile(root: string, field: string): ModelFile {
  const onnxDir = join(root, 'onnx');
  const candidates: ModelFile[] = [
    { subfolder: 'onnx', name: 'model', path: join(onnxDir, 'model.onnx') },
    { subfolder: '', name: 'model', path: join(root, 'model.onnx') },
  ];
  const found = candidates.find((c) => isFile(c.path));
  if (found) return found;
  const other = listModelFiles(onnxDir)[0];
  if (other !== undefined) {
    return { subfolder: 'onnx', name: other.slice(0, -'.onnx'.length), path: join(onnxDir, other) };
  }
  const expected = join(onnxDir, 'model.onnx');
  throw configError(
    field,
    'file_exists',
    `${field}: no ONNX model in ${root} (expected ${expected}, ${join(root, 'model.onnx')} or ${join(onnxDir, 'model*.onnx')})`,
    expected,
  );
}

/** Hidden size of the model from config.json (`hidden_size`, `dim` or `d_model`). */
export function hiddenSize(folder: ModelFolder, field: string): number {
  for (const key of ['hidden_size', 'dim', 'd_model']) {
    const value = folder.config[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  const file = join(folder.root, 'config.json');
  throw configError(field, 'hidden_size', `${field}: ${file} declares no hidden_size`, file);
}

/**
 * Pooling that the sentence-transformers `1_Pooling/config.json` declares: `cls` when it asks for
 * the CLS token, else `mean` (also when the file is absent).
 */
export function declaredPooling(folder: ModelFolder, field: string): Pooling {
  const file = join(folder.root, '1_Pooling', 'config.json');
  if (!isFile(file)) return 'mean';
  const config = readJsonObject(file, field);
  return config.pooling_mode_cls_token === true && config.pooling_mode_mean_tokens !== true
    ? 'cls'
    : 'mean';
}

/**
 * The longest input the model takes, in tokens: the smallest of `requested`, config.json's
 * `max_position_embeddings` and sentence-transformers' `max_seq_length`, when they are given.
 */
export function lengthLimit(folder: ModelFolder, requested: number, field: string): number {
  const limits = [requested, positiveInt(folder.config.max_position_embeddings)];
  const sentenceConfig = join(folder.root, 'sentence_bert_config.json');
  if (isFile(sentenceConfig)) {
    limits.push(positiveInt(readJsonObject(sentenceConfig, field).max_seq_length));
  }
  return Math.min(...limits.filter((n): n is number => n !== undefined));
}

function listModelFiles(dir: string): string[] {
  if (!isDirectory(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith('model') && f.endsWith('.onnx') && isFile(join(dir, f)))
    .sort();
}

function readJsonObject(file: string, field: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw configError(field, 'valid_json', `${field}: ${file} is not valid JSON: ${why}`, file);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw configError(field, 'json_object', `${field}: ${file} must hold a JSON object`, file);
  }
  return data as Record<string, unknown>;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function configError(field: string, rule: string, message: string, file: unknown): EngramError {
  return new EngramError('CONFIG_INVALID', message, { field, rule, file });
}

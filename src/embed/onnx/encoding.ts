/**
 * Pure helpers between the tokenizer and the ONNX graph: cutting token sequences to the model's
 * length, padding a batch into int64 rows, and pooling token vectors into sentence vectors.
 */
import type { Pooling } from './model-folder.js';

/** Token ids of one text (or text pair) and the segment (token type) of each. */
export interface Encoding {
  ids: number[];
  typeIds: number[];
}

/** A batch padded on the right to one length, as the model's int64 inputs. */
export interface PaddedBatch {
  rows: number;
  length: number;
  ids: BigInt64Array;
  mask: BigInt64Array;
  typeIds: BigInt64Array;
}

/** A float tensor read back from the model. */
export interface FloatTensor {
  data: Float32Array;
  dims: readonly number[];
}

/**
 * Cuts an encoding to at most `max` tokens, keeping its closing special token ([SEP], </s>): the
 * end of the text (of the second text, for a pair) is dropped, as Hugging Face's `only_second`
 * truncation would.
 */
export function truncate(encoding: Encoding, max: number): Encoding {
  if (encoding.ids.length <= max) return encoding;
  const cut = (values: number[]): number[] => [...values.slice(0, max - 1), values.at(-1)!];
  return { ids: cut(encoding.ids), typeIds: cut(encoding.typeIds) };
}

/** Pads encodings on the right with `padId` (mask 0, type 0) to the longest one. */
export function padBatch(encodings: readonly Encoding[], padId: number): PaddedBatch {
  const rows = encodings.length;
  const length = Math.max(1, ...encodings.map((e) => e.ids.length));
  const ids = new BigInt64Array(rows * length).fill(BigInt(padId));
  const mask = new BigInt64Array(rows * length);
  const typeIds = new BigInt64Array(rows * length);
  encodings.forEach((encoding, row) => {
    const offset = row * length;
    encoding.ids.forEach((id, i) => {
      ids[offset + i] = BigInt(id);
      mask[offset + i] = 1n;
      typeIds[offset + i] = BigInt(encoding.typeIds[i] ?? 0);
    });
  });
  return { rows, length, ids, mask, typeIds };
}

/**
 * One sentence vector per row of `hidden` ([rows, length, dimension]): the mean of the token
 * vectors under the attention mask, or the first (CLS) token's vector.
 */
export function pool(hidden: FloatTensor, mask: BigInt64Array, pooling: Pooling): Float32Array[] {
  const [rows = 0, length = 0, dimension = 0] = hidden.dims;
  const out: Float32Array[] = [];
  for (let row = 0; row < rows; row++) {
    const base = row * length * dimension;
    if (pooling === 'cls') {
      out.push(hidden.data.slice(base, base + dimension));
      continue;
    }
    out.push(meanOfRow(hidden.data, mask, { row, base, length, dimension }));
  }
  return out;
}

interface RowShape {
  row: number;
  base: number;
  length: number;
  dimension: number;
}

function meanOfRow(data: Float32Array, mask: BigInt64Array, shape: RowShape): Float32Array {
  const { row, base, length, dimension } = shape;
  const sum = new Float32Array(dimension);
  let count = 0;
  for (let t = 0; t < length; t++) {
    if (mask[row * length + t] === 0n) continue;
    count++;
    const offset = base + t * dimension;
    for (let d = 0; d < dimension; d++) sum[d] = sum[d]! + data[offset + d]!;
  }
  if (count > 0) for (let d = 0; d < dimension; d++) sum[d] = sum[d]! / count;
  return sum;
}

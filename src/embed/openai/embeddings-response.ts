/**
 * Reads the answer of `POST /embeddings` (`{ data: [{ index, embedding }], model, usage }`) into
 * one vector per input, in input order, rejecting a body that is off in any way with a message
 * saying exactly what: a server that answers wrongly must not slip bad vectors into the store.
 */
import { z } from 'zod';

import { EngramError } from '../../domain/errors.js';
import { issuePath } from '../../domain/zod.js';

/** The envelope; the numbers are checked while they are copied, to read each vector once. */
const responseSchema = z.object({
  data: z.array(
    z.object({
      // Every server we know sends `index`; without it, the position in `data` is the index.
      index: z.number().int().min(0).optional(),
      embedding: z.array(z.unknown()),
    }),
  ),
});

/** What the caller knows about the request the body answers. */
export interface ExpectedEmbeddings {
  /** Number of inputs sent. */
  count: number;
  /** Known vector length, or undefined when the first response teaches it. */
  dimension: number | undefined;
  /** Why that length is expected, quoted when a vector differs, e.g. `embedder.openai.dimensions`. */
  dimensionSource: string;
  /** Start of error messages, e.g. `openai embedder: POST http://…/v1/embeddings`. */
  where: string;
}

/** One raw (not yet normalised) vector per input, in input order; throws EMBEDDER_UNAVAILABLE. */
export function readEmbeddings(body: unknown, expected: ExpectedEmbeddings): Float32Array[] {
  const malformed = (what: string, rule = 'malformed_response') =>
    new EngramError('EMBEDDER_UNAVAILABLE', `${expected.where}: malformed response: ${what}`, {
      rule,
    });
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw malformed(issue ? `${issuePath(issue.path)}: ${issue.message}` : 'unexpected shape');
  }
  const data = parsed.data.data;
  if (data.length !== expected.count) {
    throw malformed(`${data.length} embeddings for ${expected.count} inputs`);
  }
  const out = new Array<Float32Array | undefined>(data.length);
  let dimension = expected.dimension;
  data.forEach((item, position) => {
    const index = item.index ?? position;
    const field = `data[${position}]`;
    if (index >= data.length) throw malformed(`${field}.index ${index} is out of range`);
    if (out[index] !== undefined) throw malformed(`${field}.index ${index} appears twice`);
    if (item.embedding.length === 0) throw malformed(`${field}.embedding is empty`);
    dimension ??= item.embedding.length;
    if (item.embedding.length !== dimension) {
      const source =
        expected.dimension === undefined ? 'the length of the first one' : expected.dimensionSource;
      throw malformed(
        `${field}.embedding has ${item.embedding.length} numbers, expected ${dimension} (${source})`,
        'dimension_mismatch',
      );
    }
    out[index] = toFloat32(item.embedding, (i) =>
      malformed(`${field}.embedding[${i}] is not a finite number`),
    );
  });
  return out as Float32Array[];
}

function toFloat32(values: readonly unknown[], bad: (i: number) => Error): Float32Array {
  const vector = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'number') throw bad(i);
    vector[i] = value;
    // Checked after the cast: a double beyond the float range becomes Infinity as a float.
    if (!Number.isFinite(vector[i])) throw bad(i);
  }
  return vector;
}

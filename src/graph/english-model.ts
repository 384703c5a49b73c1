/**
 * The English language model (wink-eng-lite-web-model) assembled for wink-nlp from the package's
 * own parts, with a faster reader for its large core part. The package's reader clones the core's
 * JSON through a string round trip and decodes its two packed arrays one character at a time; this
 * one parses the file once and decodes with Buffer. The result is the same model: the tests compare
 * the analyses of both, token for token. Every `core()` call returns a fresh copy, because wink-nlp
 * adds the words it learns to the model it was given.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type { Model } from 'wink-nlp';

// The model is CommonJS and large: required on first use, never imported.
const require = createRequire(import.meta.url);

/** One feature of the core model: its values in order, and each value's index. */
interface Feature {
  list: string[];
  hash: Record<string, number>;
  intrinsicSize: number;
  index: number;
  maxIndex: number;
}

/** The parts of the core model's JSON that loading completes. */
interface CoreModel {
  packing: { layout: Record<string, number[]>; efList: string[] };
  features: Record<string, Feature> & { posClusters: { list: (string | Set<number>)[] } };
  pos: { hash: Record<string, number> };
  lexicon: string | Uint32Array;
  xpansions: string | Uint32Array;
}

/** The package's folder of compiled parts. */
function distDir(): string {
  return dirname(require.resolve('wink-eng-lite-web-model'));
}

/** Base64 text as 32-bit words, in a buffer of its own (aligned, not shared with a pool). */
function words(base64: string): Uint32Array {
  const bytes = Buffer.from(base64, 'base64');
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

/**
 * A value-to-index table of a feature's list, as wink-nlp reads and extends it (`hash[value]`,
 * `hash[value] = index`). A Map behind a proxy: filling a Map with the 87,593 lexemes takes about
 * a third of the time of a plain object's properties, and the table is built in every process
 * that analyses text.
 */
function indexOf(list: string[]): Record<string, number> {
  const map = new Map<string, number>();
  for (let k = 0; k < list.length; k++) map.set(list[k]!, k);
  return new Proxy(Object.create(null) as Record<string, number>, {
    get: (_, key) => (typeof key === 'string' ? map.get(key) : undefined),
    set: (_, key, value: number) => {
      if (typeof key !== 'string') return false;
      map.set(key, value);
      return true;
    },
    has: (_, key) => typeof key === 'string' && map.has(key),
  });
}

/** Reads and completes the core model: packed arrays, lookup tables, sizes, POS clusters. */
function readCore(file: string): CoreModel {
  const model = JSON.parse(readFileSync(file, 'utf8')) as CoreModel;
  const { packing, features, pos } = model;
  model.lexicon = words(model.lexicon as string);
  model.xpansions = words(model.xpansions as string);
  packing.efList = [];
  for (const name in packing.layout) {
    const layout = packing.layout[name]!;
    // Layout fields: [offset, mask, shift, stored as an index (0), extensible (1), ...].
    if (layout[3] === 0) {
      const feature = features[name]!;
      feature.hash = indexOf(feature.list);
      feature.intrinsicSize = feature.list.length;
      feature.index = feature.list.length;
      feature.maxIndex = layout[1]! >>> layout[2]!;
    }
    if (layout[4] === 1) packing.efList.push(name);
  }
  const lexeme = features.lexeme!;
  lexeme.hash = indexOf(lexeme.list);
  lexeme.intrinsicSize = lexeme.list.length;
  lexeme.index = lexeme.list.length;
  const clusters = features.posClusters.list;
  for (let k = 0; k < clusters.length; k++)
    clusters[k] = new Set((clusters[k] as string).split('_').map((tag) => pos.hash[tag] || 0));
  return model;
}

/** The English model for wink-nlp: the package's parts, with the fast core reader. */
export function englishModel(): Model {
  const dist = distDir();
  const part = (file: string): unknown => require(join(dist, file));
  const coreFile = join(dist, 'languages', 'cur', 'models', 'eng-core-web-model.json');
  const model = Object.create(null) as Record<string, unknown>;
  model.core = () => readCore(coreFile);
  model.sbd = part('load-sbd-model.js');
  model.pos = part('load-pos-model.js');
  model.ner = part('load-ner-model.js');
  model.negation = part('load-negation-model.js');
  model.sa = part('load-sa-model.js');
  model.metaCER = part('load-cer-meta-model.js');
  model.featureFn = part('feature.js');
  const addons = Object.create(null) as Record<string, unknown>;
  addons.stem = part('porter-stemmer.js');
  addons.lemmatize = part('lemmatize.js');
  addons.readabilityStats = part('readability-stats.js');
  addons.wordVectors = undefined;
  model.addons = addons;
  return model as unknown as Model;
}

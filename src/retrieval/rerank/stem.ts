/**
 * English stemming for lexical evidence: the Porter2 (Snowball English) stemmer that ships with
 * wink-eng-lite-web-model, behind a bounded memo so hot words are stemmed once per process.
 */
import { createRequire } from 'node:module';

const porter2 = createRequire(import.meta.url)(
  'wink-eng-lite-web-model/dist/porter-stemmer.js',
) as (word: string) => string;

const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

/** The Porter2 stem of a lowercase word ("painting" → "paint", "activities" → "activ"). */
export function stem(word: string): string {
  let out = memo.get(word);
  if (out === undefined) {
    out = porter2(word);
    // A full memo is dropped wholesale: cheaper than LRU bookkeeping, and refills in microseconds.
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, out);
  }
  return out;
}

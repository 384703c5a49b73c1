/**
 * Term normalisation shared by cross-domain detection and auto-recall relevance: lower case and
 * the Porter2 stemmer that ships with wink-eng-lite-web-model, applied the same way to both sides
 * of every comparison, so "deploys", "deployed" and "deploying" meet at "deploy".
 */
import { createRequire } from 'node:module';

const porter2 = createRequire(import.meta.url)(
  'wink-eng-lite-web-model/dist/porter-stemmer.js',
) as (word: string) => string;

const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

/** The stem of a word (lower-cased; non-alphabetic tokens are kept as they are). */
export function stemWord(word: string): string {
  const w = word.toLowerCase();
  let out = memo.get(w);
  if (out === undefined) {
    out = /^[a-z]+$/u.test(w) ? porter2(w) : w;
    // A full memo is dropped wholesale: cheaper than LRU bookkeeping, refilled in microseconds.
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(w, out);
  }
  return out;
}

/** Word tokens of a text (letters and digits), lower-cased. */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The stemmed terms of a text, a label or a phrase (a tag, an area segment, a topic). */
export function labelTerms(label: string): string[] {
  return words(label).map(stemWord);
}

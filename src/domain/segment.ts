/**
 * Word segmentation for the keyword index. A full-text engine splits text on spaces and
 * punctuation, which finds no word in scripts written without spaces (Han, Hiragana, Katakana,
 * Thai, Lao, Khmer, Myanmar, Yi) and no bare noun in Korean, whose spaced words carry their
 * particles ("서울에서", "in Seoul"). These "unspaced" scripts (Hangul counted among them) get
 * word boundaries here. The same function runs on a memory's text when it is indexed and on a
 * query before it becomes terms, so both meet on the same words.
 *
 * - Text holding none of these scripts is returned unchanged, byte for byte (Latin, Cyrillic,
 *   Greek, Arabic, Devanagari...), so English text, say, is indexed exactly as it was.
 * - Otherwise the text is NFKC-normalised (as queries are) and split into words with
 *   `Intl.Segmenter` (Node's ICU, granularity `word`, locale-independent): ICU's dictionaries for
 *   Chinese and Japanese, Thai, Lao, Khmer and Burmese. Each word of these scripts is set apart
 *   by spaces; everything else stays as it was.
 * - Where the dictionary is weak or missing, pieces of long words are added after the text, so a
 *   query naming part of a word still finds it (the query gets the same pieces):
 *   - a Han word of more than two characters (an out-of-dictionary name, or a compound the query
 *     splits differently) and a Yi word (no dictionary) add their overlapping character bigrams;
 *   - a Hangul word of more than two syllables adds its leading parts of two syllables and more:
 *     ICU keeps a Korean word whole with its particles and endings ("서울에서" = "서울" + "에서"),
 *     which are suffixes, so "서울에서" adds "서울" and "서울에" and finds a query's "서울에". On the
 *     benchmark's Korean set these prefixes beat bigrams by 12 points of R@10: bigrams of endings
 *     ("예요", "어요") match nearly every memory.
 * ICU's dictionaries come with Node: an upgrade that changes them may move a few word boundaries
 * of text indexed before it; the Han bigrams keep such words findable.
 *
 * Words of inflected languages with spaces (Russian, German, Spanish...) keep their form; the index
 * adds their stems after the text (`indexText`, inflection.ts).
 */

import { inflectionStems } from './inflection.js';

/** The unspaced scripts (see the file header): text holding one of them is segmented. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Yi}]/u;

/** A word that also adds its character bigrams when longer than two characters. */
const BIGRAM_WORD = /^(?:\p{Script=Han}+|\p{Script=Yi}+)$/u;

/** A word that also adds its leading parts when longer than two syllables. */
const PREFIX_WORD = /^\p{Script=Hangul}+$/u;

/**
 * Locale-independent, so a query segments as the text did, whatever the process's locale. Made on
 * first use: making one loads ICU's word-break data (tens of milliseconds), which a command that
 * never meets an unspaced script does not pay.
 */
let segmenter: Intl.Segmenter | undefined;

/** True when the text holds a script written without spaces (and so is segmented). */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED.test(text);
}

/** The leading parts of a word of two characters (code points) and more, the word itself excluded. */
export function leadingParts(word: string): string[] {
  const chars = [...word];
  const out: string[] = [];
  for (let n = 2; n < chars.length; n++) out.push(chars.slice(0, n).join(''));
  return out;
}

/** Overlapping pairs of characters (code points) of a word. */
export function characterBigrams(word: string): string[] {
  const chars = [...word];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * The text as the keyword index reads it: words of unspaced scripts set apart by spaces, with the
 * pieces of their long Han, Yi and Hangul words after it. Unchanged when no such script occurs.
 */
export function segmentText(text: string): string {
  if (!hasUnspacedScript(text)) return text;
  const parts: string[] = [];
  const pieces: string[] = [];
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  for (const { segment } of segmenter.segment(text.normalize('NFKC'))) {
    if (!hasUnspacedScript(segment)) {
      parts.push(segment);
      continue;
    }
    parts.push(` ${segment} `);
    pieces.push(...piecesOf(segment));
  }
  const words = parts.join('').replace(/ {2,}/gu, ' ').trim();
  return pieces.length === 0 ? words : `${words} ${pieces.join(' ')}`;
}

/** What a word of an unspaced script adds after the text (see the file header). */
function piecesOf(word: string): string[] {
  if ([...word].length <= 2) return [];
  if (BIGRAM_WORD.test(word)) return characterBigrams(word);
  if (PREFIX_WORD.test(word)) return leadingParts(word);
  return [];
}

/**
 * What a store keeps beside a text for its keyword index: the segmented text with the stems of its
 * inflected words after it (inflection.ts), or null when that is the text as it is (the index then
 * reads the text itself).
 */
export function indexText(text: string | null): string | null {
  if (text === null) return null;
  const segmented = segmentText(text);
  const stems = inflectionStems(text);
  const indexed = stems.length === 0 ? segmented : `${segmented} ${stems.join(' ')}`;
  return indexed === text ? null : indexed;
}

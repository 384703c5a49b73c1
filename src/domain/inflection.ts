/**
 * Word stems for inflected languages other than English, for the keyword index. The full-text
 * engines stem English (Porter); a Russian, German or Spanish word keeps its ending, so "Казани"
 * never meets "Казань" and "perros" never meets "perro". Here a text's language is told per script
 * from its function words, and each word of that language gets its Snowball-family stem (the
 * `@orama/stemmers` ports), marked as a term of its own (STEM_MARK). The index adds the marked
 * stems after the text (segment.ts `indexText`, as it adds pieces of long Han words) and a query
 * adds them after its words (text.ts `keywordTerms`): a query and a memory sharing a word meet on
 * the word and on its stem, sharing only a stem they meet once. So an exact form ranks above a
 * stem-only match, every word weighs alike whether or not its stem differs from it, and a wrong
 * guess of the language costs nothing that the words found before.
 *
 * How a text's language is told, per script:
 * - Latin: the word counts of the function words (stop-word lists of `@orama/stopwords`, engram's
 *   English list) that belong to one language only ("und", "het", "não", "the"). The language with
 *   the most such words wins when it has one at least and no other ties with it, unless English
 *   lists more of the text's words in all ("do all of" against Irish "go"); English (already
 *   stemmed by the engines) or a tie means no stems. A short query with no telling word gets no
 *   stems and matches words exactly, as before.
 * - Cyrillic: the same count among Russian, Ukrainian and Bulgarian, with each word holding a
 *   letter only Russian (ы, э, ё) or only Ukrainian (і, ї, є, ґ) writes counted as telling too;
 *   Russian when nothing tells.
 * - Devanagari: Hindi (the packages' `indian`) unless Nepali function words tell. Greek, Armenian,
 *   Tamil and the Arabic script: their one language.
 * Words of other scripts (Han, Hangul, Thai...) are segment.ts's.
 *
 * The lists and stemmers of a script are loaded on its first word (tens of milliseconds for all of
 * them), so an English-only store pays for the Latin lists once and loads no stemmer.
 */
import { createRequire } from 'node:module';

import { STOP_WORDS } from './text.js';

const require = createRequire(import.meta.url);

/** A language engram stems: its module name, and what tells it apart besides its word lists. */
interface Language {
  /** Module name under @orama/stemmers and @orama/stopwords. */
  name: string;
  /** The script's language when no other one is told by its words. */
  fallback?: boolean;
  /** Letters that only this language of its script writes, counted as telling words. */
  letters?: RegExp;
}

/** The languages of each script engram stems, English excluded (the engines stem it). */
const SCRIPTS: readonly { script: RegExp; languages: readonly Language[]; english?: true }[] = [
  {
    script: /^\p{Script=Latin}/u,
    english: true,
    languages: [
      'danish',
      'dutch',
      'finnish',
      'french',
      'german',
      'hungarian',
      'indonesian',
      'irish',
      'italian',
      'lithuanian',
      'norwegian',
      'portuguese',
      'romanian',
      'spanish',
      'swedish',
      'turkish',
    ].map((name) => ({ name })),
  },
  {
    script: /^\p{Script=Cyrillic}/u,
    languages: [
      { name: 'russian', fallback: true, letters: /[ыэё]/u },
      { name: 'ukrainian', letters: /[іїєґ]/u },
      { name: 'bulgarian' },
    ],
  },
  { script: /^\p{Script=Greek}/u, languages: [{ name: 'greek', fallback: true }] },
  { script: /^\p{Script=Arabic}/u, languages: [{ name: 'arabic', fallback: true }] },
  { script: /^\p{Script=Armenian}/u, languages: [{ name: 'armenian', fallback: true }] },
  { script: /^\p{Script=Tamil}/u, languages: [{ name: 'tamil', fallback: true }] },
  {
    script: /^\p{Script=Devanagari}/u,
    languages: [{ name: 'indian', fallback: true }, { name: 'nepali' }],
  },
];

/** A script's languages with what telling them apart needs, made on the script's first word. */
interface ScriptTable {
  languages: readonly Language[];
  /** Function word -> bit mask of the languages (English: the top bit) listing it. */
  lists: Map<string, number>;
  /** Each language's stemmer, loaded on first use. */
  stemmers: (((word: string) => string) | undefined)[];
  /** Stems already computed, per language (emptied wholesale past STEM_CACHE_MAX). */
  cache: Map<string, string>[];
}

const tables: (ScriptTable | undefined)[] = [];
const STEM_CACHE_MAX = 20_000;

function tableOf(index: number): ScriptTable {
  const known = tables[index];
  if (known) return known;
  const { languages, english } = SCRIPTS[index]!;
  const lists = new Map<string, number>();
  languages.forEach((language, i) => {
    const words = (require(`@orama/stopwords/${language.name}`) as { stopwords: string[] })
      .stopwords;
    for (const w of words) lists.set(w, (lists.get(w) ?? 0) | (1 << i));
  });
  if (english === true) {
    const bit = 1 << languages.length;
    for (const w of STOP_WORDS) lists.set(w, (lists.get(w) ?? 0) | bit);
  }
  const table: ScriptTable = {
    languages,
    lists,
    stemmers: languages.map(() => undefined),
    cache: languages.map(() => new Map()),
  };
  tables[index] = table;
  return table;
}

/** English, as `languageOf` tells it in the Latin script (the engines stem it: no stems). */
const ENGLISH = -1;

/**
 * The language of a script's words (an index into its languages, or ENGLISH), or null: a tie, or
 * fewer than `least` telling words, in a script with no fallback.
 */
function languageOf(table: ScriptTable, words: readonly string[], least = 1): number | null {
  const n = table.languages.length;
  // counts[n]: English, in the Latin script.
  const counts = new Array<number>(n + 1).fill(0);
  // Every listed word, telling or not: English keeps a text whose function words it lists more.
  const listed = new Array<number>(n + 1).fill(0);
  for (const w of words) {
    const mask = table.lists.get(w) ?? 0;
    // Only a word that one language lists tells it.
    if (mask !== 0 && (mask & (mask - 1)) === 0) counts[31 - Math.clz32(mask)]! += 1;
    for (let bits = mask; bits !== 0; bits &= bits - 1) listed[31 - Math.clz32(bits & -bits)]! += 1;
    table.languages.forEach((language, i) => {
      if (language.letters?.test(w)) counts[i]! += 1;
    });
  }
  let best = -1;
  let tie = false;
  counts.forEach((count, i) => {
    if (count === 0) return;
    if (best < 0 || count > counts[best]!) [best, tie] = [i, false];
    else if (count === counts[best]) tie = true;
  });
  if (best >= 0 && !tie && counts[best]! >= least)
    return best === n || listed[n]! > listed[best]! ? ENGLISH : best;
  const fallback = table.languages.findIndex((l) => l.fallback === true);
  return fallback >= 0 ? fallback : null;
}

/** The language told for each script among the words (script index -> language, see languageOf). */
function languagesOf(words: readonly string[], scripts: readonly number[], least = 1) {
  const languages = new Map<number, number | null>();
  for (const script of new Set(scripts)) {
    if (script < 0) continue;
    const table = tableOf(script);
    languages.set(
      script,
      languageOf(
        table,
        words.filter((_, i) => scripts[i] === script),
        least,
      ),
    );
  }
  return languages;
}

/**
 * The languages a text is told to be written in, one per script that tells one (`english` for
 * Latin text told English; module names of `@orama/stemmers` otherwise: `spanish`, `russian`).
 * Empty when nothing is told (a short Latin question with no function word, say). `least`: the
 * telling words a language needs (stems need one; a script's fallback language needs none).
 */
export function toldLanguages(text: string, least = 1): string[] {
  const words = termWords(text);
  const languages = languagesOf(words, words.map(scriptOf), least);
  return [...languages].flatMap(([script, language]) =>
    language === null
      ? []
      : [language === ENGLISH ? 'english' : SCRIPTS[script]!.languages[language]!.name],
  );
}

function stemmerOf(table: ScriptTable, language: number): (word: string) => string {
  let stem = table.stemmers[language];
  if (!stem) {
    const name = table.languages[language]!.name;
    stem = (require(`@orama/stemmers/${name}`) as { stemmer: (w: string) => string }).stemmer;
    table.stemmers[language] = stem;
  }
  return stem;
}

function stemOf(table: ScriptTable, language: number, word: string): string {
  const cache = table.cache[language]!;
  let stem = cache.get(word);
  if (stem === undefined) {
    stem = stemmerOf(table, language)(word);
    if (cache.size >= STEM_CACHE_MAX) cache.clear();
    cache.set(word, stem);
  }
  return stem;
}

/** Which script table a word belongs to, or -1. */
function scriptOf(word: string): number {
  for (let i = 0; i < SCRIPTS.length; i++) if (SCRIPTS[i]!.script.test(word)) return i;
  return -1;
}

/** The words of a text as keyword terms are made of: NFKC, lower-cased letters, marks, digits. */
export function termWords(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
  );
}

/**
 * Each word's stem (see the file header), or null for a word engram does not stem: English, a
 * script or text whose language is not told, a function word of its language or of English. A
 * stem may equal its word. The language is told from all the words given, function words
 * included. Words are lower-cased NFKC letters and marks (`termWords`).
 */
export function wordStems(words: readonly string[]): (string | null)[] {
  return toldForms(words).map((form) => form ?? null);
}

/**
 * Each word as its told language reads it: its stem (as `wordStems`) when the word is of a
 * language engram stems, null when it is a function word of that language or of English, and
 * undefined when its script's language is English or not told (English rules apply to it).
 */
export function toldForms(words: readonly string[]): (string | null | undefined)[] {
  const scripts = words.map(scriptOf);
  const languages = languagesOf(words, scripts);
  return words.map((w, i) => {
    const script = scripts[i]!;
    const language = languages.get(script);
    if (language === undefined || language === null || language === ENGLISH) return undefined;
    const table = tables[script]!;
    // Function words of the language (its bit in the lists) and of English are not stemmed.
    if (((table.lists.get(w) ?? 0) & (1 << language)) !== 0 || STOP_WORDS.has(w)) return null;
    return stemOf(table, language, w);
  });
}

/**
 * Telling words a question needs before engram's English models are kept from it (the static
 * embedder's word vectors, the alignment reranker's English reading): some names are function
 * words of another language ("Kim" in Turkish, "Sue" in Italian, "Ella" in Spanish), and "Kim's
 * new job" must keep them. Stems need only one (a wrong guess costs nothing there).
 */
export const MODEL_LANGUAGE_EVIDENCE = 2;

/** Whether a text is told, by `least` telling words, to be in a language other than English. */
export function toldOtherThanEnglish(text: string, least = 1): boolean {
  return toldLanguages(text, least).some((language) => language !== 'english');
}

/**
 * Marks a stem as one: a term of its own, which neither meets a word spelled like it nor is stemmed
 * again by the engines. U+A78F LATIN LETTER SINOLOGICAL DOT: a letter (FTS5 and PostgreSQL keep it
 * inside the word), caseless, unchanged by NFKC, and next to never written after a word.
 */
export const STEM_MARK = '\uA78F';

/**
 * The marked stems of a text's words, in its order: one for every word `wordStems` stems, of two
 * letters at least. The keyword index adds them after the text and a query adds them to its words,
 * so a memory and a query that share a word meet twice (the word and its stem), and those that
 * share only a stem meet once. Empty for English text.
 */
export function inflectionStems(text: string): string[] {
  return markedStems(termWords(text));
}

/** `inflectionStems` of words already split. */
export function markedStems(words: readonly string[]): string[] {
  if (words.length === 0) return [];
  return wordStems(words).flatMap((stem) =>
    stem !== null && [...stem].length >= 2 ? [stem + STEM_MARK] : [],
  );
}

/** A marked stem, with the highlight marks a snippet may wrap it in. */
const MARKED_STEM = new RegExp(`\\s*(?:\\*\\*)?[\\p{L}\\p{M}\\p{N}]+${STEM_MARK}(?:\\*\\*)?`, 'gu');

/**
 * A snippet of indexed text as a reader should see it: without the marked stems the index added
 * after the text (null when nothing else is left).
 */
export function withoutStems(snippet: string | null): string | null {
  if (snippet === null || !snippet.includes(STEM_MARK)) return snippet;
  const left = snippet.replace(MARKED_STEM, '').trim();
  return left === '' || left === '…' ? null : left;
}

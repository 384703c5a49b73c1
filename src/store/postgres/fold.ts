/**
 * Latin diacritics folded out of PostgreSQL's keyword index, as SQLite's FTS5 tokenizer folds them
 * (`remove_diacritics 2`), so "cafe" finds "café" and "Sao Paulo" finds "São Paulo" on both
 * backends. PostgreSQL's `english` configuration keeps diacritics, and its `unaccent` extension is
 * not always installed, so the fold is plain SQL: `translate()` with a fixed table, in the generated
 * tsvectors (migration 13), and the same table in JavaScript for query terms.
 *
 * The table: every letter of Latin-1 Supplement, Latin Extended-A and B and Latin Extended
 * Additional whose canonical decomposition is one base letter and combining marks maps to that
 * letter ("é" → "e", "Ș" → "S", "ệ" → "e"); letters that do not decompose so ("ø", "ł", "ß", "đ")
 * stay, as FTS5 keeps them. The combining diacritical marks (U+0300-U+036F) are removed wherever
 * they stand, as FTS5 removes them, so text typed in decomposed form folds alike. Greek and Cyrillic
 * letters stay as they are ("й", "ё", "ά"), as FTS5 keeps them. Canonical decompositions never
 * change between Unicode versions, so the table built here is the one a migrated store holds.
 */

/** The Latin blocks folded (first and last code point). */
const LATIN_BLOCKS: readonly [number, number][] = [
  [0x00c0, 0x024f],
  [0x1e00, 0x1eff],
];
/** The combining diacritical marks, removed. */
const MARKS: readonly [number, number] = [0x0300, 0x036f];

function table(): { from: string; to: string; map: Map<string, string> } {
  const map = new Map<string, string>();
  for (const [first, last] of LATIN_BLOCKS)
    for (let c = first; c <= last; c++) {
      const letter = String.fromCodePoint(c);
      const base = letter.normalize('NFD').replace(/\p{M}/gu, '');
      if (base !== letter && [...base].length === 1 && /^\p{L}$/u.test(base)) map.set(letter, base);
    }
  const from = [...map.keys()].join('');
  const to = [...map.values()].join('');
  let marks = '';
  for (let c = MARKS[0]; c <= MARKS[1]; c++) {
    marks += String.fromCodePoint(c);
    map.set(String.fromCodePoint(c), '');
  }
  // translate() removes the characters of its second argument that have no counterpart in its
  // third: the marks come last, after every letter has its base.
  return { from: from + marks, to, map };
}

const FOLD = table();

/** Every character `translate()` folds, one of each: a quote never occurs among them. */
export const FOLD_FROM = FOLD.from;
/** Their base letters, in the same order; the marks at the end of FOLD_FROM have none. */
export const FOLD_TO = FOLD.to;

/** The SQL expression folding a text expression (see the file header). */
export function foldSql(expr: string): string {
  return `translate(${expr}, '${FOLD_FROM}', '${FOLD_TO}')`;
}

/** Any character the fold changes. */
const FOLDED = new RegExp(`[${FOLD_FROM}]`, 'u');

/** A text folded as `foldSql` folds it in the index, for query terms. */
export function foldLatin(text: string): string {
  if (!FOLDED.test(text)) return text;
  let out = '';
  for (const ch of text) out += FOLD.map.get(ch) ?? ch;
  return out;
}

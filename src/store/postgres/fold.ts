/**
 * Latin diacritics folded out of PostgreSQL's keyword index, as SQLite's FTS5 tokenizer folds them
 * (`remove_diacritics 2`), so "cafe" finds "café" and "Sao Paulo" finds "São Paulo" on both
 * backends. PostgreSQL's `english` configuration keeps diacritics, and its `unaccent` extension is
 * not always installed, so the fold is plain SQL: a function of the store's schema,
 * `keyword_fold(text)` (migration 13), which both the generated tsvectors and every keyword query
 * read their text through.
 *
 * The fold: a text holding a letter of Latin-1 Supplement, Latin Extended-A or B or Latin Extended
 * Additional, or a combining diacritical mark (U+0300-U+036F), is decomposed (NFD), the marks that
 * follow a basic Latin letter are removed, and the rest is composed again (NFC): "é" → "e", "Ș" →
 * "S", "ệ" → "e", "e" + U+0301 → "e". Letters that do not decompose so ("ø", "ł", "ß", "đ") stay, and
 * so do Greek and Cyrillic letters ("й", "ё", "ά"), as FTS5 keeps them. Text with no such character
 * (English, Chinese, Russian...) is returned as it is, after one regular-expression test.
 *
 * `normalize()` needs PostgreSQL 13 and a UTF8 database. On an older server, or a database in
 * another encoding (where most of these letters cannot be written), `keyword_fold` returns its text
 * unchanged: such a store keeps diacritics, as every PostgreSQL store did before migration 13.
 */

/** The characters that send a text through the fold, as a regular-expression class. */
const FOLDABLE = '[\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]';

/** Combining diacritical marks after a basic Latin letter, the letter captured. */
const MARKED_LETTER = '([A-Za-z])[\u0300-\u036f]+';

/**
 * Migration 13's `keyword_fold(text)` (see the file header), created or replaced, so the step can
 * run again. `folds` is false on a server older than PostgreSQL 13 or a database whose encoding is
 * not UTF8: the function then returns its text.
 */
export function keywordFoldFunctionSql(folds: boolean): string {
  const body = folds
    ? `SELECT CASE WHEN t ~ '${FOLDABLE}'
  THEN normalize(regexp_replace(normalize(t, NFD), '${MARKED_LETTER}', '\\1', 'g'), NFC)
  ELSE t END`
    : 'SELECT t';
  return `CREATE OR REPLACE FUNCTION keyword_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ ${body} $$;`;
}

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { FTS_TOKENIZER } from '../sqlite/keyword-index.js';
import { FOLD_FROM, FOLD_TO, foldLatin, foldSql } from './fold.js';

/** The terms SQLite's keyword tokenizer makes of each text, one text a row. */
function ftsTerms(texts: readonly string[]): string[] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = "${FTS_TOKENIZER}");
CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    texts.forEach((text, i) => insert.run(i + 1, text));
    const terms = new Map(
      (db.prepare('SELECT doc, term FROM v').all() as { doc: number; term: string }[]).map((r) => [
        r.doc,
        r.term,
      ]),
    );
    return texts.map((_, i) => terms.get(i + 1) ?? '');
  } finally {
    db.close();
  }
}

/** Letters FTS5 treats otherwise: it keeps these five pairs, and folds the long s. */
const FTS5_OTHERWISE = new Set([...'ǠǡǢǣǮǯǼǽǾǿſẛ']);

describe('the Latin fold of the PostgreSQL keyword index', () => {
  it('folds each Latin letter as SQLite folds it (lower case aside), bar a dozen rare ones', () => {
    const letters: string[] = [];
    for (const [first, last] of [
      [0xc0, 0x24f],
      [0x1e00, 0x1eff],
    ] as const)
      for (let c = first; c <= last; c++) {
        const letter = String.fromCodePoint(c);
        if (/^\p{L}$/u.test(letter) && !FTS5_OTHERWISE.has(letter)) letters.push(letter);
      }
    const sqlite = ftsTerms(letters);
    const differ = letters.filter((l, i) => foldLatin(l).toLowerCase() !== sqlite[i]);
    expect(differ).toEqual([]);
    expect(letters.length).toBeGreaterThan(600);
  });

  it('folds words of several languages and decomposed text, and leaves other scripts alone', () => {
    expect(foldLatin('São Paulo, Ærøskøbing, Łódź, straße')).toBe(
      'Sao Paulo, Ærøskøbing, Łodz, straße',
    );
    expect(foldLatin('Nguyễn Thị Ánh, Ștefan, Dvořák')).toBe('Nguyen Thi Anh, Stefan, Dvorak');
    expect(foldLatin('Jose\u0301')).toBe('Jose');
    expect(foldLatin('йод, ёлка, ά, हिन्दी, 杭州')).toBe('йод, ёлка, ά, हिन्दी, 杭州');
    const text = 'plain English text';
    expect(foldLatin(text)).toBe(text);
  });

  it('gives translate() one base letter for each folded letter, and no quote', () => {
    expect([...FOLD_FROM].length - [...FOLD_TO].length).toBe(0x36f - 0x300 + 1);
    expect(FOLD_FROM).not.toMatch(/['\\]/u);
    expect(FOLD_TO).toMatch(/^[\p{L}]+$/u);
    expect(foldSql('body')).toBe(`translate(body, '${FOLD_FROM}', '${FOLD_TO}')`);
  });
});

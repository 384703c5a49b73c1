import { describe, expect, it } from 'vitest';

import { keywordFoldFunctionSql } from './fold.js';

// What the function computes is tested on a real server against SQLite's own tokens
// (test/postgres-fold.test.ts).
describe('keyword_fold', () => {
  it('folds through NFD, the marks after a basic Latin letter removed, and NFC', () => {
    const sql = keywordFoldFunctionSql(true);
    expect(sql).toMatch(/^CREATE OR REPLACE FUNCTION keyword_fold\(t text\) RETURNS text\n/u);
    expect(sql).toContain('IMMUTABLE');
    expect(sql).toContain(
      "normalize(regexp_replace(normalize(t, NFD), '([A-Za-z])[\u0300-\u036f]+', '\\1', 'g'), NFC)",
    );
    expect(sql).not.toMatch(/\$\$.*\$\$.*\$\$/su);
  });

  it('returns its text where the server cannot fold', () => {
    expect(keywordFoldFunctionSql(false)).toContain('AS $$ SELECT t $$;');
  });
});

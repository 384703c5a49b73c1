/**
 * Tokens exactly as the store's full-text index holds them, read back from FTS5 itself: a private
 * in-memory FTS5 table with the store's tokenizer, each text inserted and its instances read
 * through `fts5vocab` (keyword-memory.ts builds its copy of the index from them).
 */
import Database from 'better-sqlite3';

import { FTS_TOKENIZER } from './keyword-index.js';

/** BM25 column weights of title, body and tags text (`bm25(items_fts, ...)` uses the same). */
export const COLUMN_WEIGHTS = [2, 1, 1] as const;
const COLUMNS = ['title', 'body', 'tags_text'] as const;
/** Query terms whose tokens are remembered (emptied wholesale past this). */
const TERM_CACHE_MAX = 50_000;

/** The indexed text of a row: its title, body and tags text columns. */
export interface IndexedText {
  title: string | null;
  body: string;
  tags: string;
}

/** A row's indexed text as FTS5 reads it, with what the index filters on. */
export interface RowText extends IndexedText {
  pk: number;
  id: string;
  space: string;
  status: string | null;
  created_at: number;
}

/** A row's tokens: weighted frequency per term, and its length in tokens. */
export interface RowTokens {
  freqs: Map<string, number>;
  length: number;
}

/** Tokenizes text exactly as the store's full-text index does, through FTS5 itself. */
export class Tokenizer {
  private readonly db = new Database(':memory:');
  private readonly insert;
  private readonly instances;
  private readonly clear;
  private readonly terms = new Map<string, string | null>();

  constructor() {
    this.db.exec(`
      CREATE VIRTUAL TABLE probe USING fts5(title, body, tags_text, content = '', tokenize = "${FTS_TOKENIZER}");
      CREATE VIRTUAL TABLE probe_instances USING fts5vocab(probe, instance);
    `);
    this.insert = this.db.prepare(
      'INSERT INTO probe(rowid, title, body, tags_text) VALUES (?, ?, ?, ?)',
    );
    this.instances = this.db.prepare('SELECT term, doc, col FROM probe_instances').raw();
    this.clear = this.db.prepare("INSERT INTO probe(probe) VALUES ('delete-all')");
  }

  /** The tokens of each row, in the order given. */
  rows(rows: readonly IndexedText[]): RowTokens[] {
    const out = rows.map(() => ({ freqs: new Map<string, number>(), length: 0 }));
    this.db.transaction(() => {
      rows.forEach((r, i) => this.insert.run(i + 1, r.title, r.body, r.tags));
    })();
    for (const [term, doc, col] of this.instances.iterate() as Iterable<[string, number, string]>) {
      const row = out[doc - 1]!;
      const weight = COLUMN_WEIGHTS[COLUMNS.indexOf(col as (typeof COLUMNS)[number])] ?? 1;
      row.freqs.set(term, (row.freqs.get(term) ?? 0) + weight);
      row.length++;
    }
    this.clear.run();
    return out;
  }

  /**
   * The token of each query term (a quoted FTS5 phrase): null when it has none; undefined when
   * some term splits into several tokens (a phrase this index does not answer).
   */
  query(terms: readonly string[]): (string | null)[] | undefined {
    const missing = [...new Set(terms.filter((t) => !this.terms.has(t)))];
    if (missing.length > 0) {
      if (this.terms.size + missing.length > TERM_CACHE_MAX) this.terms.clear();
      const tokens = this.rows(missing.map((body) => ({ title: null, body, tags: '' })));
      missing.forEach((term, i) => {
        const found = [...tokens[i]!.freqs.keys()];
        const one = tokens[i]!.length <= 1;
        this.terms.set(term, one ? (found[0] ?? null) : '\u0000');
      });
    }
    const out = terms.map((t) => this.terms.get(t)!);
    return out.includes('\u0000') ? undefined : out;
  }

  close(): void {
    this.db.close();
  }
}

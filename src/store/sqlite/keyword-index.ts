/**
 * The SQLite keyword index of items and session turns (migration 10), with words of unspaced
 * scripts segmented (domain/segment.ts).
 *
 * FTS5 cannot run JavaScript, so the segmented text is computed when a row is written and kept
 * beside it: `items.seg_title`, `seg_body`, `seg_tags` and `session_turns.seg_text`, null when
 * segmentation leaves the text as it is (every text without such a script: nothing is stored
 * twice). The full-text tables read their content through views that take the segmented text
 * where there is one, so the triggers, `rebuild` and `integrity-check` all see what was indexed.
 * The tokenizer also keeps combining marks inside words (category M), so Thai, Khmer or
 * Devanagari words are not cut at their vowel signs; Latin diacritics are still removed.
 *
 * The migration adds the columns, fills them for existing rows (no item data changes), recreates
 * both full-text tables over the views and rebuilds them from the stored text.
 */
import { indexText } from '../../domain/segment.js';
import type { SqliteDatabase } from './database.js';

/** The full-text tokenizer: Porter stemming over Unicode words that keep their combining marks. */
export const FTS_TOKENIZER = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'";

/** Drops the old full-text tables and their triggers, and adds the segmented-text columns. */
export const KEYWORD_INDEX_PREPARE_SQL = `
DROP TRIGGER items_fts_insert;
DROP TRIGGER items_fts_delete;
DROP TRIGGER items_fts_update;
DROP TABLE items_fts;
ALTER TABLE items ADD COLUMN seg_title TEXT;
ALTER TABLE items ADD COLUMN seg_body TEXT;
ALTER TABLE items ADD COLUMN seg_tags TEXT;

DROP TRIGGER session_turns_fts_insert;
DROP TRIGGER session_turns_fts_delete;
DROP TRIGGER session_turns_fts_update;
DROP TABLE session_turns_fts;
ALTER TABLE session_turns ADD COLUMN seg_text TEXT;
`;

const ITEM_FTS_SQL = `
CREATE VIEW items_fts_source AS
  SELECT pk, coalesce(seg_title, title) AS title, coalesce(seg_body, body) AS body,
    coalesce(seg_tags, tags_text) AS tags_text
  FROM items;
CREATE VIRTUAL TABLE items_fts USING fts5(
  title, body, tags_text,
  content = 'items_fts_source', content_rowid = 'pk',
  tokenize = "${FTS_TOKENIZER}"
);
CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
  INSERT INTO items_fts(rowid, title, body, tags_text)
  VALUES (new.pk, coalesce(new.seg_title, new.title), coalesce(new.seg_body, new.body), coalesce(new.seg_tags, new.tags_text));
END;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
  INSERT INTO items_fts(items_fts, rowid, title, body, tags_text)
  VALUES ('delete', old.pk, coalesce(old.seg_title, old.title), coalesce(old.seg_body, old.body), coalesce(old.seg_tags, old.tags_text));
END;
CREATE TRIGGER items_fts_update AFTER UPDATE OF title, body, tags_text, seg_title, seg_body, seg_tags ON items BEGIN
  INSERT INTO items_fts(items_fts, rowid, title, body, tags_text)
  VALUES ('delete', old.pk, coalesce(old.seg_title, old.title), coalesce(old.seg_body, old.body), coalesce(old.seg_tags, old.tags_text));
  INSERT INTO items_fts(rowid, title, body, tags_text)
  VALUES (new.pk, coalesce(new.seg_title, new.title), coalesce(new.seg_body, new.body), coalesce(new.seg_tags, new.tags_text));
END;
INSERT INTO items_fts(items_fts) VALUES ('rebuild');
`;

const TURN_FTS_SQL = `
CREATE VIEW session_turns_fts_source AS
  SELECT pk, coalesce(seg_text, text) AS text FROM session_turns;
CREATE VIRTUAL TABLE session_turns_fts USING fts5(
  text,
  content = 'session_turns_fts_source', content_rowid = 'pk',
  tokenize = "${FTS_TOKENIZER}"
);
CREATE TRIGGER session_turns_fts_insert AFTER INSERT ON session_turns BEGIN
  INSERT INTO session_turns_fts(rowid, text) VALUES (new.pk, coalesce(new.seg_text, new.text));
END;
CREATE TRIGGER session_turns_fts_delete AFTER DELETE ON session_turns BEGIN
  INSERT INTO session_turns_fts(session_turns_fts, rowid, text) VALUES ('delete', old.pk, coalesce(old.seg_text, old.text));
END;
CREATE TRIGGER session_turns_fts_update AFTER UPDATE OF text, seg_text ON session_turns BEGIN
  INSERT INTO session_turns_fts(session_turns_fts, rowid, text) VALUES ('delete', old.pk, coalesce(old.seg_text, old.text));
  INSERT INTO session_turns_fts(rowid, text) VALUES (new.pk, coalesce(new.seg_text, new.text));
END;
INSERT INTO session_turns_fts(session_turns_fts) VALUES ('rebuild');
`;

/** Rows read per page while filling the segmented-text columns. */
const PAGE = 2_000;

/**
 * The rest of migration 10, after KEYWORD_INDEX_PREPARE_SQL and in its transaction: fills the
 * columns, then creates and rebuilds the two full-text tables.
 */
export function rebuildKeywordIndex(db: SqliteDatabase): void {
  refreshIndexedText(db);
  db.exec(ITEM_FTS_SQL);
  db.exec(TURN_FTS_SQL);
}

/**
 * The indexed text of every item and turn computed again, written where it differs from what is
 * kept: migration 10 fills the new columns with it, migration 14 re-indexes what the stems of
 * inflected languages (inflection.ts) change, through the update triggers (which also log the rows
 * for the in-memory index). No item data changes.
 */
export function refreshIndexedText(db: SqliteDatabase): void {
  const items = db.prepare(
    'SELECT pk, title, body, tags_text, seg_title, seg_body, seg_tags FROM items WHERE pk > ? ORDER BY pk LIMIT ?',
  );
  const setItem = db.prepare(
    'UPDATE items SET seg_title = ?, seg_body = ?, seg_tags = ? WHERE pk = ?',
  );
  for (let after = 0; ; ) {
    const rows = items.all(after, PAGE) as {
      pk: number;
      title: string | null;
      body: string;
      tags_text: string;
      seg_title: string | null;
      seg_body: string | null;
      seg_tags: string | null;
    }[];
    for (const r of rows) {
      const seg = [indexText(r.title), indexText(r.body), indexText(r.tags_text)];
      if (seg[0] !== r.seg_title || seg[1] !== r.seg_body || seg[2] !== r.seg_tags)
        setItem.run(...seg, r.pk);
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.pk;
  }
  const turns = db.prepare(
    'SELECT pk, text, seg_text FROM session_turns WHERE pk > ? ORDER BY pk LIMIT ?',
  );
  const setTurn = db.prepare('UPDATE session_turns SET seg_text = ? WHERE pk = ?');
  for (let after = 0; ; ) {
    const rows = turns.all(after, PAGE) as { pk: number; text: string; seg_text: string | null }[];
    for (const r of rows) {
      const seg = indexText(r.text);
      if (seg !== r.seg_text) setTurn.run(seg, r.pk);
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.pk;
  }
}

/** The segmented-text columns of an item's title, body and tags text, for INSERT/UPDATE. */
export function segmentedColumns(cols: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if ('title' in cols) out.seg_title = indexText(cols.title as string | null);
  if ('body' in cols) out.seg_body = indexText(cols.body as string);
  if ('tags_text' in cols) out.seg_tags = indexText(cols.tags_text as string);
  return out;
}

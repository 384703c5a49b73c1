/**
 * The PostgreSQL keyword index of items and session turns (migration 8), with words of unspaced
 * scripts segmented (domain/segment.ts), as the SQLite store does (its keyword-index.ts).
 *
 * PostgreSQL's parser keeps a run of Han, Kana or Thai as one word, and text search cannot run
 * JavaScript, so the segmented text is computed when a row is written and kept beside it:
 * `items.seg_title`, `seg_body`, `seg_tags` and `session_turns.seg_text`, null when segmentation
 * leaves the text as it is. The generated `search` tsvectors read the segmented text where there
 * is one; for every other text they are exactly what they were.
 *
 * The migration drops the two `search` columns (and their GIN indexes), adds the segmented-text
 * columns and fills them for existing rows (no item data changes), then adds the `search` columns
 * again, which computes every tsvector anew, and recreates the indexes.
 */
import type pg from 'pg';

import type { ItemRecord } from '../../domain/records.js';
import { indexText } from '../../domain/segment.js';
import { keywordFoldFunctionSql } from './fold.js';

/** Drops the tsvector columns and adds the segmented-text columns. */
export const PG_KEYWORD_INDEX_PREPARE_SQL = `
ALTER TABLE items DROP COLUMN search;
ALTER TABLE items ADD COLUMN seg_title text, ADD COLUMN seg_body text, ADD COLUMN seg_tags text;
ALTER TABLE session_turns DROP COLUMN search;
ALTER TABLE session_turns ADD COLUMN seg_text text;
`;

/**
 * The generated tsvectors of items and turns and their GIN indexes, each text read through `fold`:
 * as it is in migration 8, with Latin diacritics folded out since migration 13 (fold.ts).
 */
function searchSql(fold: (expr: string) => string): string {
  return `
ALTER TABLE items ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, ${fold("coalesce(seg_title, title, '')")}), 'A') ||
  setweight(to_tsvector('english'::regconfig, ${fold('coalesce(seg_body, body)')}), 'B') ||
  setweight(to_tsvector('english'::regconfig, ${fold('coalesce(seg_tags, tags_text)')}), 'C')
) STORED;
CREATE INDEX items_search ON items USING gin (search);
ALTER TABLE session_turns ADD COLUMN search tsvector GENERATED ALWAYS AS (
  to_tsvector('english'::regconfig, ${fold('coalesce(seg_text, text)')})
) STORED;
CREATE INDEX session_turns_search ON session_turns USING gin (search);
`;
}

/**
 * Migration 13: `keyword_fold` (fold.ts), which folds Latin diacritics out on a UTF8 database of
 * PostgreSQL 13 or newer, and both tsvectors computed again over text read through it, as SQLite's
 * index folds them; dropping a column drops its index, and adding it again recomputes every row.
 * No item data changes.
 */
export async function foldPgKeywordIndex(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ utf8: boolean; version: number }>(
    "SELECT current_setting('server_encoding') = 'UTF8' AS utf8, current_setting('server_version_num')::int AS version",
  );
  const server = rows[0]!;
  await client.query(keywordFoldFunctionSql(server.utf8 && server.version >= 130_000));
  await client.query(`ALTER TABLE items DROP COLUMN search;
ALTER TABLE session_turns DROP COLUMN search;
${searchSql((expr) => `keyword_fold(${expr})`)}`);
}

/** Rows read per page while filling the segmented-text columns. */
const PAGE = 2_000;

interface ItemTextRow {
  pk: string;
  title: string | null;
  body: string;
  tags_text: string;
  seg_title: string | null;
  seg_body: string | null;
  seg_tags: string | null;
}

/** Writes the indexed text of every item where it differs from what is kept. */
async function refreshItems(client: pg.ClientBase): Promise<void> {
  for (let after = '0'; ; ) {
    const { rows } = await client.query<ItemTextRow>(
      `SELECT pk::text AS pk, title, body, tags_text, seg_title, seg_body, seg_tags FROM items
WHERE pk > $1 ORDER BY pk LIMIT $2`,
      [after, PAGE],
    );
    const changed = rows
      .map((r) => ({
        pk: r.pk,
        t: indexText(r.title),
        b: indexText(r.body),
        g: indexText(r.tags_text),
        kept: [r.seg_title, r.seg_body, r.seg_tags],
      }))
      .filter((r) => r.t !== r.kept[0] || r.b !== r.kept[1] || r.g !== r.kept[2])
      .map(({ kept: _, ...r }) => r);
    if (changed.length > 0)
      await client.query(
        `UPDATE items i SET seg_title = s.t, seg_body = s.b, seg_tags = s.g
FROM json_to_recordset($1::json) AS s(pk int8, t text, b text, g text) WHERE i.pk = s.pk`,
        [JSON.stringify(changed)],
      );
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.pk;
  }
}

/** Writes the indexed text of every session turn where it differs from what is kept. */
async function refreshTurns(client: pg.ClientBase): Promise<void> {
  for (let after: [string, number] = ['0', -1]; ; ) {
    const { rows } = await client.query<{
      s: string;
      n: number;
      text: string;
      seg_text: string | null;
    }>(
      `SELECT session_pk::text AS s, turn AS n, text, seg_text FROM session_turns
WHERE (session_pk, turn) > ($1::int8, $2::int4) ORDER BY session_pk, turn LIMIT $3`,
      [...after, PAGE],
    );
    const changed = rows.flatMap((r) => {
      const seg = indexText(r.text);
      return seg === r.seg_text ? [] : [{ s: r.s, n: r.n, seg }];
    });
    if (changed.length > 0)
      await client.query(
        `UPDATE session_turns t SET seg_text = c.seg
FROM json_to_recordset($1::json) AS c(s int8, n int4, seg text)
WHERE t.session_pk = c.s AND t.turn = c.n`,
        [JSON.stringify(changed)],
      );
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = [last.s, last.n];
  }
}

/**
 * The rest of migration 8, after PG_KEYWORD_INDEX_PREPARE_SQL and in its transaction: fills the
 * columns, then adds the tsvectors and their indexes again.
 */
export async function rebuildPgKeywordIndex(client: pg.ClientBase): Promise<void> {
  await refreshPgIndexedText(client);
  await client.query(searchSql((expr) => expr));
}

/**
 * The indexed text of every item and turn computed again, written where it differs from what is
 * kept: migration 8 fills the new columns with it, migration 12 re-indexes what the stems of
 * inflected languages (inflection.ts) change (the generated tsvectors follow). No item data
 * changes.
 */
export async function refreshPgIndexedText(client: pg.ClientBase): Promise<void> {
  await refreshItems(client);
  await refreshTurns(client);
}

/** The segmented-text columns of an item (or a patch of one), for INSERT/UPDATE. */
export function segmentedColumns(item: Partial<ItemRecord>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (item.title !== undefined) out.seg_title = indexText(item.title);
  if (item.body !== undefined) out.seg_body = indexText(item.body);
  if (item.tags !== undefined) out.seg_tags = indexText(item.tags.join(' '));
  return out;
}

/** PostgreSQL schema step 5: the version stamp of vectors, the spec and target mark of models. */
export const PG_MODEL_TRANSITION_SQL = `
ALTER TABLE vectors ADD COLUMN version integer NOT NULL DEFAULT 0;
UPDATE vectors v SET version = i.version FROM items i WHERE i.pk = v.item_pk;
ALTER TABLE models ADD COLUMN spec jsonb;
ALTER TABLE models ADD COLUMN target_at bigint;
ALTER TABLE models ADD COLUMN pruned_at bigint;
`;

/**
 * Sets every item's vector state from its vector of `model` (an SQL expression) at the item's
 * version: none pending, an empty one empty, else ready. The swap runs it for the model it
 * publishes; schema step 11 for the published one.
 */
export function vectorStatesSql(model: string): string {
  return `UPDATE items i SET vector_state = s.state FROM (
  SELECT i2.pk, CASE WHEN v.item_pk IS NULL THEN 'pending' WHEN v.dimension = 0 THEN 'empty' ELSE 'ready' END AS state
  FROM items i2 LEFT JOIN vectors v ON v.item_pk = i2.pk AND v.model = ${model} AND v.version = i2.version
) s WHERE ${model} IS NOT NULL AND s.pk = i.pk AND i.vector_state IS DISTINCT FROM s.state`;
}

/**
 * PostgreSQL schema step 11: vector states read again from the published model's vectors. A write
 * that waited for a model swap could take the replaced model for the published one and mark its
 * item ready with no vector of the published model (fixed in the write); this finds such items
 * and leaves them pending, for the backfill.
 */
export const PG_VECTOR_STATES_SQL = vectorStatesSql(
  '(SELECT id FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1)',
);

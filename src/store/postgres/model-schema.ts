/** PostgreSQL schema step 5: the version stamp of vectors, the spec and target mark of models. */
export const PG_MODEL_TRANSITION_SQL = `
ALTER TABLE vectors ADD COLUMN version integer NOT NULL DEFAULT 0;
UPDATE vectors v SET version = i.version FROM items i WHERE i.pk = v.item_pk;
ALTER TABLE models ADD COLUMN spec jsonb;
ALTER TABLE models ADD COLUMN target_at bigint;
ALTER TABLE models ADD COLUMN pruned_at bigint;
`;

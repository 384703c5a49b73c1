/**
 * A write racing a model swap on PostgreSQL (§8): a writer whose read of the published model
 * waited for the swap's lock sees the model the swap published, so its item never counts as
 * vector-ready with a vector of the model the swap replaced.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { STATIC_MODEL_ID } from '../src/embed/static/static-embedder.js';
import { testEngram } from './helpers.js';
import {
  dropSchema,
  PG_URL,
  pgConfig,
  randomSchema,
  waitFor,
  waitingBehind,
} from './postgres-helpers.js';

if (PG_URL) {
  describe('a write racing a model swap on PostgreSQL', () => {
    const open: Engram[] = [];
    const schemas: string[] = [];
    afterEach(async () => {
      for (const engram of open.splice(0)) await engram.close();
      for (const schema of schemas.splice(0)) await dropSchema(schema);
    });

    it('reads the model the swap published once the swap lets it through', async () => {
      const schema = randomSchema();
      schemas.push(schema);
      const engram = testEngram({ config: { ...pgConfig(schema), graph: { enabled: false } } });
      open.push(engram);
      const seed = await engram.remember({ body: 'The lighthouse keeper logs the weather.' });
      const started = await engram.useModel({ model: 'static:sif_a=0.01' });
      expect(started.action).toBe('started');
      const TARGET = started.model;
      const store = engram.storeForTransfer;
      const models = store.models!;
      // The target holds a vector of every item, so the swap finds nothing missing.
      const target = (await models.list()).find((m) => m.id === TARGET)!;
      const { id, version } = seed.memory;
      const vector = new Float32Array(target.dimension).fill(1);
      expect(await store.putVectors(TARGET, [{ id, version, vector }])).toBe(1);

      const holder = new pg.Client({ connectionString: PG_URL });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(`SELECT 1 FROM "${schema}".models FOR UPDATE`);
        const [{ pid }] = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))
          .rows as [{ pid: number }];
        // The swap waits for the holder; the write's read of the published model waits behind it,
        // its snapshot taken while the swap's model was not yet published.
        const swap = models.swap(TARGET, Date.now());
        await waitFor(async () => (await waitingBehind(holder, pid)) >= 1);
        const write = engram.remember({ body: 'The harbour crane is painted blue.' });
        await waitFor(async () => (await waitingBehind(holder, pid)) >= 2);
        await holder.query('COMMIT');
        expect(await swap).toMatchObject({ swapped: true });
        const written = await write;

        const { rows } = await holder.query<{ model: string; version: number; state: string }>(
          `SELECT v.model, v.version, i.vector_state AS state FROM "${schema}".items i
JOIN "${schema}".vectors v ON v.item_pk = i.pk WHERE i.id = $1 AND v.embedding IS NOT NULL`,
          [written.memory.id],
        );
        // The write learned its vector was made for the replaced model and embedded it again
        // with the published one; before, it was marked ready with the replaced model's vector.
        expect(rows.map((r) => r.model).sort()).toEqual([STATIC_MODEL_ID, TARGET].sort());
        expect(rows.find((r) => r.model === TARGET)).toMatchObject({
          version: written.memory.version,
          state: 'ready',
        });
      } finally {
        await holder.end().catch(() => undefined);
      }
    });

    it('finds items marked ready without a vector of the published model when it migrates (step 11)', async () => {
      const schema = randomSchema();
      const config = { ...pgConfig(schema), graph: { enabled: false } };
      schemas.push(schema);
      const first = testEngram({ config });
      const written = await first.rememberMany(
        ['The tide table hangs by the door.', 'The ferry leaves at noon.'].map((body) => ({
          body,
        })),
      );
      const [lost, kept] = written.map((r) => (r.ok ? r.memory.id : ''));
      await first.close();
      // A store the write race left behind: ready, but the published model's vector is missing.
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      const states = async () =>
        (
          await client.query<{ id: string; vector_state: string }>(
            `SELECT id, vector_state FROM "${schema}".items ORDER BY pk`,
          )
        ).rows.map((r) => [r.id, r.vector_state]);
      try {
        await client.query(
          `DELETE FROM "${schema}".vectors v USING "${schema}".items i WHERE i.pk = v.item_pk AND i.id = $1`,
          [lost],
        );
        await client.query(`DELETE FROM "${schema}".schema_migrations WHERE version = 11`);
        expect(await states()).toEqual([
          [lost, 'ready'],
          [kept, 'ready'],
        ]);
        const second = testEngram({ config });
        open.push(second);
        expect((await second.status()).store.vectors.pending).toBe(1);
        expect(await states()).toEqual([
          [lost, 'pending'],
          [kept, 'ready'],
        ]);
      } finally {
        await client.end();
      }
    });
  });
}

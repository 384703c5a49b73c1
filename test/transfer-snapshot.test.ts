/**
 * The consistent snapshot an export and a JSONL backup are read from (§12), on each backend:
 * writes made while a snapshot is open stay out of it, a reader that stops an export early ends
 * its snapshot, and a JSONL backup file holds the lines of an export of every space.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { SnapshotView, Store } from '../src/store/store.js';
import { writeExportFile } from '../src/transfer/export-file.js';
import { exportLines } from '../src/transfer/transfer.js';
import { tempDir } from './helpers.js';
import { backendEngram, describeBackends } from './lifecycle-helpers.js';
import { exportedLines } from './transfer-helpers.js';

const NO_EMBEDDER = { embedder: { provider: 'none' as const } };

async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of records) out.push(r);
  return out;
}

/** What a view shows: item ids, relation ids, lifecycle record kinds. */
async function contents(view: SnapshotView) {
  return {
    items: (await collect(view.items(null))).map((r) => r.item.id),
    relations: (await collect(view.relations(null))).map((r) => r.id),
    lifecycle: (await collect(view.lifecycle(null))).map((r) => r.kind),
  };
}

/** Two related memories, one of them used (a base and a use event). */
async function seed(engram: Engram): Promise<{ first: string; second: string }> {
  const first = (await engram.remember({ body: 'The office plants need water on Fridays' })).memory;
  const second = (await engram.remember({ body: 'The watering can lives under the sink' })).memory;
  await engram.relate(first.id, second.id);
  await engram.observeMemoryUsage([first.id]);
  return { first: first.id, second: second.id };
}

describeBackends('store snapshot', (backend) => {
  it('sees the store as of its start while writers carry on', async () => {
    const engram = backendEngram({ backend, config: NO_EMBEDDER });
    const { first, second } = await seed(engram);
    const store = engram.storeForTransfer;
    const before = await store.snapshot(contents);
    const seen = await store.snapshot(async (view) => {
      const later = (await engram.remember({ body: 'Repot the fern in spring' })).memory;
      await engram.relate(second, later.id);
      await engram.observeMemoryUsage([second]);
      return { at: view.at, ...(await contents(view)) };
    });
    expect(seen).toEqual({ at: expect.any(Number), ...before });
    expect(before.items).toHaveLength(2);
    expect(before.items).toContain(first);
    expect(before.relations).toHaveLength(1);
    expect(before.lifecycle).toEqual(['strength_base', 'use_event']);
    const after = await store.snapshot(contents);
    expect(after.items).toHaveLength(3);
    expect(after.relations).toHaveLength(2);
  });

  it('ends the snapshot when the reader of an export stops early', async () => {
    const engram = backendEngram({ backend, config: NO_EMBEDDER });
    await seed(engram);
    const store = engram.storeForTransfer;
    let settled: 'open' | 'ended' = 'open';
    const watched = Object.create(store) as Store;
    watched.snapshot = (read) => store.snapshot(read).finally(() => (settled = 'ended'));
    const target = { ...engram, storeForTransfer: watched };
    const read: string[] = [];
    for await (const line of exportLines(target, null)) {
      read.push(line);
      break;
    }
    expect(JSON.parse(read[0]!)).toMatchObject({ type: 'engram-export', space: null });
    expect(settled).toBe('ended');
    // the store carries on: writes and a full export work after the stopped one
    await engram.remember({ body: 'Ask about the office plant rota' });
    expect(
      (await exportedLines(engram)).filter((l) => l.startsWith('{"type":"item"')),
    ).toHaveLength(3);
  });

  it('writes a JSONL backup holding the lines of an export of every space', async () => {
    const engram = backendEngram({ backend, config: NO_EMBEDDER });
    await seed(engram);
    await engram.remember({ body: 'Tea is in the left cupboard', space: 'alice' });
    const path = join(tempDir(), 'engram-backup.jsonl');
    await writeExportFile(engram.storeForTransfer, path);
    const [header, ...lines] = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(header!)).toMatchObject({ type: 'engram-export', version: 1, space: null });
    expect(lines).toEqual(await exportedLines(engram, null));
    expect(lines.filter((l) => l.startsWith('{"type":"item"'))).toHaveLength(3);
  });
});

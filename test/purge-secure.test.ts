/**
 * A purge leaves no recoverable copy of the purged text in the SQLite store: not in the file's
 * free pages (items, versions), not in the full-text index's segments, not in the WAL, not in
 * the knowledge graph. Checked by reading the raw bytes of the store file and its WAL.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { tempDir, testEngram } from './helpers.js';

function rawContains(path: string, needle: string): boolean {
  const wanted = Buffer.from(needle.toLowerCase(), 'utf8');
  for (const file of [path, `${path}-wal`]) {
    if (!existsSync(file)) continue;
    const bytes = Buffer.from(readFileSync(file).toString('latin1').toLowerCase(), 'latin1');
    if (bytes.includes(wanted)) return true;
  }
  return false;
}

describe('purge (SQLite)', () => {
  it('leaves no copy of the purged text in the store file, its WAL or its indexes', async () => {
    const dir = tempDir();
    const path = join(dir, 'engram.db');
    const engram = testEngram({ dir, config: { graph: { worker: false } } });
    // Other memories around it, so its pages are shared with live rows.
    await engram.rememberMany(
      Array.from({ length: 50 }, (_, i) => ({
        body: `Ordinary note ${i} about the weekly planning.`,
      })),
    );
    const secret = await engram.remember({
      body: 'Patient Quillfeather Zanzibarquokka was diagnosed on 3 May; her number is 555-0199-7731.',
      tags: ['medical-xylophonist'],
    });
    await engram.revise(secret.memory.id, {
      body: 'Patient Quillfeather Zanzibarquokka moved clinics; new number 555-0199-7732.',
    });
    await engram.recall({ query: 'Zanzibarquokka clinic' });
    await engram.purge(secret.memory.id, { reason: 'privacy request' });
    await engram.close();
    for (const needle of ['Zanzibarquokka', 'Quillfeather', '555-0199-773', 'xylophonist'])
      expect(rawContains(path, needle), needle).toBe(false);

    // The store still works, and the purge is audited.
    const again = testEngram({ dir });
    expect((await again.recall({ query: 'weekly planning' })).hits.length).toBeGreaterThan(0);
    await expect(again.get(secret.memory.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('session purge (SQLite)', () => {
  it('leaves no copy of the purged conversation in the store file or its WAL', async () => {
    const dir = tempDir();
    const path = join(dir, 'engram.db');
    const engram = testEngram({ dir });
    await engram.importSessions([
      { id: 'keep', turns: [{ role: 'user', text: 'Plan the weekly sync.' }] },
      {
        id: 'private',
        turns: [
          { role: 'user', text: 'My account Brambleworth-Ostrander has balance 91827364.' },
          { role: 'assistant', text: 'Noted for Brambleworth-Ostrander.' },
        ],
      },
    ]);
    await engram.searchSessions({ query: 'Brambleworth' });
    await engram.purgeSession('private', { reason: 'privacy request' });
    await engram.close();
    for (const needle of ['Brambleworth', 'Ostrander', '91827364'])
      expect(rawContains(path, needle), needle).toBe(false);
  });
});

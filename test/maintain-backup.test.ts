// The backup step of `maintain` (§7.3) is whole or absent: a backup is written under a temporary
// name in the backup folder and renamed when complete, so a killed run (kill -9 mid-copy) never
// leaves a partial file under a backup's name, and the next run removes what a killed run left.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { type BackupWriter, takeBackup } from '../src/lifecycle/backup.js';
import { tempDir } from './helpers.js';
import { clockedEngram, DAY, describeBackends, testClock } from './lifecycle-helpers.js';

const AT = Date.parse('2026-02-10T00:00:00Z');
const FINAL = 'engram-20260210T000000000Z.db';

describe('takeBackup', () => {
  it('fails at once on a backup folder that cannot be created (a recursive mkdir would hang)', async () => {
    const writer: BackupWriter = { extension: '.db', write: async () => {} };
    const dir = '/proc/engram-no-such/backups';
    await expect(
      takeBackup(writer, { storePath: join(tempDir(), 'x.db'), dir, keepDays: 7, now: AT }),
    ).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      details: { field: 'lifecycle.backup.dir' },
    });
  });

  it('writes under a temporary name and renames only a complete backup', async () => {
    const dir = tempDir();
    const seen: { destination: string; finalExisted: boolean }[] = [];
    const writer: BackupWriter = {
      extension: '.db',
      async write(destination) {
        seen.push({ destination, finalExisted: existsSync(join(dir, 'backups', FINAL)) });
        writeFileSync(destination, 'half');
        await new Promise((resolve) => setTimeout(resolve, 5));
        writeFileSync(destination, 'whole');
      },
    };
    const result = await takeBackup(writer, { storePath: join(dir, 'x.db'), keepDays: 7, now: AT });
    expect(result.path).toBe(join(dir, 'backups', FINAL));
    expect(seen).toHaveLength(1);
    expect(basename(seen[0]!.destination)).not.toBe(FINAL);
    expect(seen[0]!.destination.startsWith(join(dir, 'backups'))).toBe(true);
    expect(seen[0]!.finalExisted).toBe(false);
    expect(readFileSync(result.path, 'utf8')).toBe('whole');
    expect(readdirSync(join(dir, 'backups'))).toEqual([FINAL]);
  });

  it('leaves nothing under a backup name when the copy fails', async () => {
    const dir = tempDir();
    const writer: BackupWriter = {
      extension: '.db',
      write(destination) {
        writeFileSync(destination, '');
        return Promise.reject(new Error('disk gone'));
      },
    };
    await expect(
      takeBackup(writer, { storePath: join(dir, 'x.db'), keepDays: 7, now: AT }),
    ).rejects.toThrow('disk gone');
    expect(readdirSync(join(dir, 'backups'))).toEqual([]);
  });

  it('removes the temporary files a killed run left, and nothing else', async () => {
    const dir = tempDir();
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    const orphans = [
      'engram-20260209T000000000Z.db.partial',
      'engram-20260209T000000000Z.db.partial-journal',
      'engram-20260209T000000000Z-1.jsonl.partial.partial',
    ];
    const kept = ['engram-20260209T000000000Z.db', 'notes.txt'];
    for (const name of [...orphans, ...kept]) writeFileSync(join(backups, name), '');
    const writer: BackupWriter = {
      extension: '.db',
      write: async (destination) => writeFileSync(destination, 'whole'),
    };
    await takeBackup(writer, { storePath: join(dir, 'x.db'), keepDays: 7, now: AT });
    expect(readdirSync(backups).sort()).toEqual([...kept, FINAL].sort());
  });
});

describeBackends('maintain backup', (backend) => {
  const extension = backend === 'sqlite' ? 'db' : 'jsonl';

  it('cleans a killed run’s leftovers and reports a complete backup', async () => {
    const clock = testClock();
    const dir = tempDir();
    const engram = clockedEngram(clock, {
      backend,
      dir,
      config: { embedder: { provider: 'none' } },
    });
    await engram.rememberMany(Array.from({ length: 20 }, (_, i) => ({ body: `fixture ${i}` })));
    clock.advance(DAY);
    // What `kill -9` during the copy leaves: an empty file under the temporary name.
    const backups = join(dir, 'backups');
    mkdirSync(backups, { recursive: true });
    const orphan = join(backups, `engram-20260101T000000000Z.${extension}.partial`);
    writeFileSync(orphan, '');
    const report = await engram.maintain();
    const path = report.backup!.path;
    expect(existsSync(orphan)).toBe(false);
    expect(readdirSync(backups)).toEqual([basename(path)]);
    if (backend === 'sqlite') {
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 20 });
      } finally {
        db.close();
      }
    } else {
      const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(20);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    }
  });
});

/**
 * Sessions in the JSONL export (§1.4, §12): `session` lines carry every stored session with its
 * turns, a purged session leaves only its `session_purge` audit line (no text), and an import
 * restores them exactly, on each backend and across backends; a re-import creates nothing, an
 * older export without sessions still imports, and an export taken before a purge never brings
 * the purged session back.
 */
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { importLines } from '../src/transfer/transfer.js';
import { type Backend, BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';
import { exportedLines, lineCounts, linesOf } from './transfer-helpers.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');

function engramOn(backend: Backend): Engram {
  return testEngram({
    now: () => T0,
    config: { ...backend.fresh(), embedder: { provider: 'none' } },
  });
}

const SESSIONS = [
  {
    id: 'conv-1',
    agent: 'claude',
    title: 'Backups',
    source: { tool: 'claude-code', file: '/logs/conv-1.jsonl', original_id: 'conv-1', cwd: '/w' },
    turns: [
      { role: 'user', text: 'Where do the nightly backups go?', at: '2025-05-01T08:00:00.123Z' },
      { role: 'assistant', text: 'To the cold storage bucket, kept 30 days.', at: null },
      { role: 'tool', text: 'call ls: {"path":"/backups"}' },
    ],
  },
  {
    id: 'conv-2',
    turns: [{ role: 'user', text: 'A secret I want gone: the vault code is 4711.' }],
  },
];

/** A store with a memory, two sessions (one in another space) and a purged third. */
async function seed(engram: Engram): Promise<string[]> {
  await engram.remember({ body: 'Backups are kept for 30 days.' });
  await engram.importSessions(SESSIONS);
  await engram.importSessions([{ ...SESSIONS[0], id: 'conv-other' }], { space: 'other' });
  const before = await exportedLines(engram);
  await engram.purgeSession('conv-2', { actor: 'ops', reason: 'privacy request' });
  return before;
}

const PAIRS = BACKENDS.flatMap((from) => BACKENDS.map((to) => [from, to] as const));

describe.each(PAIRS)('session export and import', (from, to) => {
  it(`moves sessions and purge audit rows losslessly (${from.name} -> ${to.name})`, async () => {
    const source = engramOn(from);
    const beforePurge = await seed(source);
    const lines = await exportedLines(source);
    expect(lineCounts(lines)).toMatchObject({ item: 1, session: 2, session_purge: 1 });
    const purge = linesOf(lines, 'session_purge');
    expect(purge).toEqual([
      {
        type: 'session_purge',
        purge: {
          id: 'conv-2',
          space: 'default',
          actor: 'ops',
          reason: 'privacy request',
          at: new Date(T0).toISOString(),
        },
      },
    ]);
    expect(lines.join('\n')).not.toContain('4711');
    expect(linesOf(lines, 'session').map((l) => (l.session as { id: string }).id)).toEqual([
      'conv-1',
      'conv-other',
    ]);

    const target = engramOn(to);
    const report = await importLines(target, lines);
    expect(report).toMatchObject({ imported: 4, error: 0, skipped: 0 });
    for (const [id, space] of [
      ['conv-1', 'default'],
      ['conv-other', 'other'],
    ] as const)
      expect(await target.getSession(id, { space })).toEqual(
        await source.getSession(id, { space }),
      );
    const found = await target.searchSessions({ query: 'cold storage bucket' });
    expect(found.hits.map((h) => [h.session_id, h.turn_index])).toEqual([['conv-1', 1]]);
    expect((await target.list()).items).toHaveLength(1);

    const again = await importLines(target, lines);
    expect(again).toMatchObject({ imported: 0, exists: 4, error: 0 });
    // An export taken before the purge does not bring the purged session back.
    const old = await importLines(target, beforePurge);
    expect(old).toMatchObject({ skipped: 1, error: 0 });
    expect(old.imported).toBe(0);
    await expect(target.getSession('conv-2')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const [retry] = await target.importSessions([SESSIONS[1]]);
    expect(retry).toMatchObject({ ok: true, status: 'purged' });
  });
});

describe.each(BACKENDS)('older exports ($name)', (backend) => {
  it('imports an export without session lines, and refuses a malformed session line alone', async () => {
    const source = engramOn(backend);
    await seed(source);
    const lines = await exportedLines(source);
    const withoutSessions = lines.filter((l) => !l.includes('"type":"session'));
    const target = engramOn(backend);
    const report = await importLines(target, withoutSessions);
    expect(report.error).toBe(0);
    expect((await target.list()).items).toHaveLength(1);
    expect((await target.listSessions()).sessions).toEqual([]);

    const [line] = linesOf(lines, 'session');
    const session = line!.session as { turns: { index: number }[] };
    const broken = JSON.stringify({
      ...line,
      session: { ...session, turns: [{ ...session.turns[0], role: 'robot' }] },
    });
    const mixed = await importLines(target, [
      broken,
      ...linesOf(lines, 'session_purge').map((l) => JSON.stringify(l)),
    ]);
    expect(mixed.errors).toEqual([
      expect.objectContaining({
        line: 1,
        error: expect.objectContaining({ field: 'session.turns[0].role' }),
      }),
    ]);
    expect(mixed.imported).toBe(1);
  });
});

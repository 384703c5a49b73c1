/**
 * `engram dream preview|run|diary|runs|undo|calibrate` through the built CLI, as users run them:
 * two near-duplicate facts are proposed for a merge by a preview that writes nothing (the export
 * is the same before and after), a dry run changes nothing, a run merges them (the lesser shows
 * `merged`), the diary and the listing show the run, undo restores the lesser and is refused the
 * second time, and a bad `--stage` is a usage error naming the option and the stages. A run that
 * did not complete is rendered and exits as no success.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import type { DreamDiary, DreamPreview, DreamRun } from '../src/domain/dreams.js';
import { diaryText, incompleteWarning, runExitCode } from '../src/interfaces/cli/dream-views.js';
import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

/** Near-duplicates at the default thresholds (dream.duplicates: similarity 0.9, overlap 0.7). */
const ALICE = 'Alice prefers dark mode in the editor';
const ALICE_AGAIN = 'In the editor, Alice prefers dark mode';
const OTHER = 'The billing service runs on PostgreSQL 15';

function setup() {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(config, stringify({ store: { path: join(dir, 'engram.db') } }));
  const cli = (args: string[]) => runCli(['--config', config, ...args]);
  const json = async <T>(args: string[]): Promise<T> => {
    const r = await cli(['--json', ...args]);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout) as T;
  };
  return { cli, json };
}

/** The export's bytes with the time of the export taken out of its header: what the store holds. */
async function exportHash(cli: (args: string[]) => ReturnType<typeof runCli>): Promise<string> {
  const r = await cli(['export']);
  expect(r.code, r.stderr).toBe(0);
  const stable = r.stdout.replace(/"exported_at":"[^"]+"/u, '"exported_at":"-"');
  expect(stable.split('\n').length).toBeGreaterThan(3);
  return createHash('sha256').update(stable).digest('hex');
}

describe('engram dream (built CLI)', () => {
  it('previews without writing, runs, shows the diary, lists, undoes once', async () => {
    const { cli, json } = setup();
    const remember = async (body: string) =>
      (await json<{ memory: { id: string } }>(['remember', '--kind', 'fact', body])).memory.id;
    const ids = [await remember(ALICE), await remember(ALICE_AGAIN), await remember(OTHER)];
    const status = async (id: string) => (await json<{ status: string }>(['get', id])).status;

    const none = await cli(['dream', 'diary']);
    expect(none.code).toBe(EXIT_CODES.NOT_FOUND);

    const before = await exportHash(cli);
    const preview = await json<DreamPreview>(['dream', 'preview']);
    const human = await cli(['dream', 'preview', '--stage', 'duplicates']);
    expect(await exportHash(cli)).toBe(before);
    expect((await json<{ runs: unknown[] }>(['dream', 'runs'])).runs).toEqual([]);

    expect(preview.stages.map((s) => s.stage)).toEqual([
      'duplicates',
      'conflicts',
      'folds',
      'stale',
      'skills',
    ]);
    expect(preview.stages.find((s) => s.stage === 'stale')?.off).toMatch(/dream\.stale\.enabled/u);
    const [merge, ...others] = preview.stages.flatMap((s) => s.proposals);
    expect(others).toEqual([]);
    expect(merge).toMatchObject({ stage: 'duplicates', action: 'merge', skip: false });
    expect([...merge!.items].sort()).toEqual([ids[0], ids[1]].sort());
    expect(merge!.detail.similarity).toBeGreaterThanOrEqual(0.9);
    expect(merge!.detail.overlap).toBeGreaterThanOrEqual(0.7);
    const [lesser, keeper] = merge!.items as [string, string];
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('read-only: nothing was changed');
    expect(human.stdout).toContain(`${lesser} -> ${keeper}`);
    expect(human.stdout).toContain('summary: 1 proposals (1 merge); 0 left alone');

    const dry = await json<DreamDiary>(['dream', 'run', '--dry-run']);
    expect(dry.run).toMatchObject({ dry_run: true, state: 'completed', diary: 'final' });
    expect(dry.entries.map((e) => [e.action, e.outcome, e.items])).toEqual([
      ['merge', 'proposed', [lesser, keeper]],
    ]);
    expect(await status(lesser)).toBe('active');

    const ran = await cli(['dream', 'run']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^dream run \w+ in space default: completed, diary final\n/u);
    expect(ran.stdout).toContain('diary (1 entries):');
    expect(ran.stdout).toMatch(/^1 +duplicates +merge +applied /mu);
    expect(await status(lesser)).toBe('merged');
    expect(await status(keeper)).toBe('active');
    const history = await json<{ status_events: { to_status: string; reason: string }[] }>([
      'history',
      lesser,
    ]);
    expect(history.status_events.map((e) => e.to_status)).toEqual(['merged']);

    const diary = await json<DreamDiary>(['dream', 'diary']);
    expect(diary.run).toMatchObject({ dry_run: false, state: 'completed', undone_at: null });
    expect(diary.entries).toMatchObject([
      { seq: 1, action: 'merge', outcome: 'applied', items: [lesser, keeper] },
    ]);
    const runId = diary.run.id;
    expect((await cli(['dream', 'diary', runId])).stdout).toContain(`dream run ${runId}`);
    const listed = await json<{ runs: DreamRun[] }>(['dream', 'runs']);
    expect(listed.runs.map((r) => [r.id, r.dry_run])).toEqual([
      [runId, false],
      [dry.run.id, true],
    ]);
    expect((await cli(['dream', 'runs', '--limit', '1'])).stdout).toContain('more: --cursor ');

    const undone = await cli(['dream', 'undo', runId]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain(`undid dream run ${runId}: 1 entries restored, 0 items not`);
    expect(undone.stdout).toContain(`restored #1 merge: ${lesser} ${keeper}`);
    expect(await status(lesser)).toBe('active');
    const again = await cli(['dream', 'undo', runId]);
    expect(again.code).toBe(EXIT_CODES.CONFLICT);
    expect(again.stderr).toContain(`dream run ${runId} was undone at`);
    const after = await json<DreamDiary>(['dream', 'diary', runId]);
    expect(after.run.undone_at).not.toBeNull();
    expect(after.entries[0]!.detail.undone).toBe(true);
  });

  it('refuses a bad --stage naming the option and the stages; calibrates', async () => {
    const { cli, json } = setup();
    for (const body of [ALICE, ALICE_AGAIN])
      expect((await cli(['remember', '--kind', 'fact', body])).code).toBe(0);
    const bad = await cli(['dream', 'preview', '--stage', 'duplicates', '--stage', 'naps']);
    expect(bad.code).toBe(EXIT_CODES.USAGE);
    expect(bad.stderr).toContain("option '--stage <stage>' argument 'naps' is invalid");
    expect(bad.stderr).toContain('must be one of duplicates, conflicts, folds, stale, skills');
    const twice = await cli(['dream', 'run', '--stage', 'folds,folds']);
    expect(twice.code).toBe(EXIT_CODES.INVALID_INPUT);
    expect(twice.stderr).toContain('stages: must not repeat a stage');
    expect((await json<{ runs: unknown[] }>(['dream', 'runs'])).runs).toEqual([]);

    const report = await json<{
      examined: number;
      merges: { merges: number; configured: boolean; similarity: number }[];
    }>(['dream', 'calibrate']);
    expect(report.examined).toBe(2);
    expect(report.merges[0]).toMatchObject({ configured: true, similarity: 0.9, merges: 1 });
    const human = await cli(['dream', 'calibrate']);
    expect(human.stdout).toContain('2 items examined, 2 with a candidate');
    expect(human.stdout).toMatch(/^0\.90 +0\.70 +1 +configured$/mu);
  });

  it('never shows a run that did not complete as success', () => {
    const run: DreamRun = {
      id: 'RUN1',
      space: 'default',
      dry_run: false,
      state: 'failed',
      diary: 'partial',
      reason: 'folds: store busy',
      stages: [],
      started_at: '2025-01-01T04:00:00.000Z',
      finished_at: '2025-01-01T04:00:01.000Z',
      undone_at: null,
      job_id: null,
    };
    expect(runExitCode(run)).toBe(EXIT_CODES.PARTIAL);
    expect(runExitCode({ ...run, state: 'cut_short' })).toBe(EXIT_CODES.PARTIAL);
    expect(runExitCode({ ...run, state: 'completed', diary: 'final' })).toBe(EXIT_CODES.OK);
    expect(diaryText({ run, entries: [] }, 20).split('\n')[0]).toBe(
      'dream run RUN1 in space default: FAILED, diary partial: folds: store busy',
    );
    expect(incompleteWarning(run)).toContain('did not complete (failed: folds: store busy)');
    expect(incompleteWarning({ ...run, state: 'completed', diary: 'final' })).toBeNull();
  });
});

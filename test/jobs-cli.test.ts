/**
 * `engram jobs ...` and `engram worker` through the built CLI as users run them: the activity view
 * and listings (human and JSON), show, retry and cancel with their exit codes, `graph rebuild` and
 * `maintain` leaving their jobs behind, and the worker running a queued job until SIGTERM.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { createEngram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { JobActivitySchema, JobPageSchema, JobSchema } from '../src/interfaces/responses/jobs.js';
import { testCacheDir } from './cache-dir.js';
import { CLI, runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

function setup() {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({ store: { path: join(dir, 'engram.db') }, embedder: { provider: 'none' } }),
  );
  return { config, cli: (args: string[]) => runCli(['--config', config, ...args]) };
}

/** The JSON error a failed `--json` command printed on stderr. */
const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: { code: string } }).error;

describe('engram jobs (built CLI)', () => {
  it('shows an empty activity view, then the job a graph rebuild left, and acts on it', async () => {
    const { cli } = setup();
    // `jobs` only reads, so the store must exist: `models prepare` creates it, queuing nothing.
    expect((await cli(['models', 'prepare'])).code).toBe(0);
    const empty = await cli(['--json', 'jobs']);
    expect(empty.code, empty.stderr).toBe(0);
    expect(JobActivitySchema.parse(JSON.parse(empty.stdout))).toEqual({
      counts: { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 },
      running: [],
      queued: [],
      recent: [],
      failures: [],
      item_failures: [],
      worker: null,
    });
    const human = await cli(['jobs']);
    expect(human.stdout).toContain('jobs: 0 queued, 0 running, 0 succeeded, 0 failed, 0 cancelled');
    expect(human.stdout).toContain('running: none');
    expect((await cli(['jobs', '--state', 'failed'])).stdout).toContain('no jobs');

    for (const body of [
      'Alice Johnson leads Project Phoenix.',
      'Project Phoenix runs on Kubernetes.',
    ])
      expect((await cli(['remember', body])).code).toBe(0);
    const rebuilt = await cli(['graph', 'rebuild']);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toMatch(/^graph of default: 2 items read, \d+ entities, \d+ edges/u);

    const listed = await cli(['--json', 'jobs', '--state', 'succeeded']);
    const page = JobPageSchema.parse(JSON.parse(listed.stdout));
    expect(page.jobs).toHaveLength(1);
    const [job] = page.jobs;
    expect(job).toMatchObject({
      kind: 'graph.rebuild',
      space: 'default',
      state: 'succeeded',
      dedupe_key: 'graph.rebuild:default',
      progress: { items: 2, cursor: null },
      orphaned: false,
    });
    expect(job!.duration_ms).toBeTypeOf('number');
    const activity = (await cli(['jobs'])).stdout;
    expect(activity).toContain('1 succeeded');
    expect(activity).toMatch(new RegExp(`recent:[^]*${job!.id}.*graph\\.rebuild.*succeeded`, 'u'));
    const byKind = await cli(['jobs', '--kind', 'graph.rebuild']);
    expect(byKind.stdout).toMatch(new RegExp(`${job!.id}.*graph\\.rebuild.*succeeded`, 'u'));

    const shown = await cli(['jobs', 'show', job!.id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/state\s+succeeded/u);
    expect(shown.stdout).toMatch(/duration\s+\d+ (ms|s)/u);
    const json = await cli(['--json', 'jobs', 'show', job!.id]);
    expect(JobSchema.parse(JSON.parse(json.stdout))).toMatchObject({ id: job!.id });

    const retried = await cli(['--json', 'jobs', 'retry', job!.id]);
    expect(retried.code).toBe(EXIT_CODES.CONFLICT);
    expect(errorOf(retried.stderr).code).toBe('CONFLICT');
    const cancelled = await cli(['--json', 'jobs', 'cancel', UNKNOWN]);
    expect(cancelled.code).toBe(EXIT_CODES.NOT_FOUND);
    expect(errorOf(cancelled.stderr).code).toBe('NOT_FOUND');
    expect((await cli(['jobs', 'show', UNKNOWN])).code).toBe(EXIT_CODES.NOT_FOUND);
  });

  it('retries failed items, and refuses bad options with exit code 2', async () => {
    const { cli } = setup();
    const items = await cli(['--json', 'jobs', 'retry', '--items']);
    expect(items.code, items.stderr).toBe(0);
    expect(JSON.parse(items.stdout)).toEqual({ retried: 0 });
    expect((await cli(['jobs', 'retry', '--items'])).stdout).toContain(
      '0 failed items are due again',
    );
    const neither = await cli(['--json', 'jobs', 'retry']);
    expect(neither.code).toBe(2);
    expect(errorOf(neither.stderr).code).toBe('INVALID_INPUT');
    expect((await cli(['jobs', 'retry', UNKNOWN, '--items'])).code).toBe(2);
    const badState = await cli(['jobs', '--state', 'sleeping']);
    expect(badState.code).toBe(2);
    expect(badState.stderr).toMatch(/sleeping: must be one of queued, running/u);
    expect((await cli(['jobs', '--kind', 'nope'])).code).toBe(2);
  });

  it('runs maintain as a job and keeps its report', async () => {
    const { cli } = setup();
    expect((await cli(['remember', 'The office wifi password rotates monthly.'])).code).toBe(0);
    const ran = await cli(['--json', 'maintain']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ dry_run: false, items_scanned: 1 });
    const jobs = JobPageSchema.parse(
      JSON.parse((await cli(['--json', 'jobs', '--kind', 'lifecycle.maintain'])).stdout),
    );
    expect(jobs.jobs).toMatchObject([
      {
        state: 'succeeded',
        payload: { dry_run: false },
        progress: { report: { items_scanned: 1 } },
      },
    ]);
    // A preview is no job.
    expect((await cli(['maintain', '--dry-run'])).code).toBe(0);
    expect(JSON.parse((await cli(['--json', 'jobs'])).stdout).counts.succeeded).toBe(1);
  });
});

describe('engram worker (built CLI)', () => {
  it('runs a queued job, logs its state changes, and stops with 0 on SIGTERM', async () => {
    const { config, cli } = setup();
    expect((await cli(['remember', 'Alice Johnson leads Project Phoenix.'])).code).toBe(0);
    const engram = createEngram({
      configFile: config,
      env: {},
      logger: silentLogger,
      background: false,
    });
    const { job } = await engram.enqueueJob({ kind: 'graph.rebuild', space: 'default' });
    await engram.close();

    const child = spawn(process.execPath, [CLI, '--config', config, 'worker'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ENGRAM_EMBEDDER_CACHE_DIR: testCacheDir(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await expect
        .poll(() => stderr, { timeout: 30_000, interval: 100 })
        .toMatch(/idle \([1-9]\d* runs, 0 failed\)/u);
      expect(stderr).toMatch(/engram worker: started as \S+ on sqlite/u);
      const shown = JSON.parse((await cli(['--json', 'jobs', 'show', job.id])).stdout);
      expect(shown).toMatchObject({ state: 'succeeded', progress: { items: 1 } });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/SIGTERM: stopping/u);
    expect(stderr).toMatch(
      /engram worker: stopped \(\d+ runs, 0 failed\)\nengram worker: store closed\n$/u,
    );
  });
});

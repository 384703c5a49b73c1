/**
 * The scripted newcomer walk: the README's CLI tour, exactly as the README writes it, run with a
 * fresh HOME and a fresh working directory against the built CLI (`engram` is
 * `node dist/bin/engram.js`), at 100 columns. Every step exits 0 and prints the output the README
 * shows; the rules (what is compared, what is skipped and why) are in newcomer-walk.ts. When the
 * README and the CLI disagree this fails, naming the line.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { testCacheDir } from './cache-dir.js';
import { CLI } from './cli-run.js';
import { tempDir } from './helpers.js';
import {
  normalise,
  outputDifference,
  runWalk,
  SKIPS,
  type StepResult,
  type WalkStep,
  walkSteps,
} from './newcomer-walk.js';

const README = readFileSync(resolve(import.meta.dirname, '..', 'README.md'), 'utf8');

/** What went wrong in one step, or nothing. */
function problems(step: WalkStep, r: StepResult): string[] {
  const found: string[] = [];
  if (r.status !== 0) found.push(`exited ${r.status}`);
  else if (r.failed.length) found.push(`a command in it failed: ${r.failed.join('; ')}`);
  const difference = step.expected && outputDifference(step.expected, r.stdout);
  if (difference) found.push(difference);
  return found.map((p) => `${r.line}\n  ${p}${r.stderr.trim() ? `\n  stderr: ${r.stderr}` : ''}`);
}

describe('the README tour, walked as a newcomer would', () => {
  it('runs every line as written, each exiting 0 with the output the README shows', async () => {
    const steps = walkSteps(README);
    const run = steps.filter((s) => !s.skipped);
    // The walk is the tour, not a few lines of it.
    expect(run.length).toBeGreaterThanOrEqual(20);
    expect(run.filter((s) => s.expected).length).toBeGreaterThanOrEqual(10);
    const dir = tempDir();
    const [home, work] = [join(dir, 'home'), join(dir, 'work')];
    mkdirSync(home);
    mkdirSync(work);
    const results = await runWalk(steps, {
      cli: CLI,
      cwd: work,
      script: join(dir, 'walk.sh'),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        COLUMNS: '100',
        ENGRAM_EMBEDDER_CACHE_DIR: testCacheDir(),
      },
    });
    expect(results.map((r) => r.line)).toEqual(run.map((s) => s.line));
    expect(results.flatMap((r, i) => problems(run[i]!, r))).toEqual([]);
  }, 600_000);

  it('skips only what needs the network or a server, and placeholders, each for its reason', () => {
    const skipped = walkSteps(README).filter((s) => s.skipped);
    expect(skipped.map((s) => s.line.split(/\s+#/u)[0]!.trim())).toEqual([
      'alias engram="node $PWD/dist/bin/engram.js"',
      'engram models use openai:nomic-embed-text --wait; engram models rollback',
      'engram jobs show JOB_ID; engram jobs retry JOB_ID; engram jobs cancel JOB_ID',
      'engram worker',
    ]);
    for (const s of skipped) expect(SKIPS.map((k) => k.why)).toContain(s.skipped);
  });
});

describe('the walk machinery', () => {
  const readme = (section: string) =>
    `# x\n<!-- newcomer-walk -->\n${section}\n<!-- /newcomer-walk -->\n\`\`\`sh\nnot walked\n\`\`\`\n`;

  it('reads sh lines as steps and a text block as the output of the line before it', () => {
    const steps = walkSteps(
      readme(
        '```sh\nnpm ci\n# a comment\n\nengram init   # note\n```\n\n```text\nwrote x\n```\n```sh\necho hi\n```',
      ),
    );
    expect(steps).toEqual([
      { line: 'npm ci', skipped: SKIPS[1]!.why },
      { line: 'engram init   # note', expected: ['wrote x'] },
      { line: 'echo hi' },
    ]);
    expect(() => walkSteps(readme('```sh\nnpm ci\n```\n```text\nout\n```'))).toThrow(/output for/u);
    expect(() => walkSteps(readme('```json\n{}\n```'))).toThrow(/sh and text only/u);
    expect(() => walkSteps('no markers')).toThrow(/no .* section/u);
  });

  it('compares outputs with ids, times, decimals and folders set aside, and nothing else', () => {
    expect(normalise('remembered: 01JDZ3M5R8QY2T7VKX4N6B9CWE')).toBe('remembered: ID');
    expect(normalise('wrote /tmp/a b/x/engram.yaml')).not.toBe(normalise('wrote /y/engram.yaml'));
    expect(normalise('wrote /tmp/abc/x/engram.yaml')).toBe(
      normalise('wrote /home/you/engram.yaml'),
    );
    expect(normalise('1  0.7705  (12.4 ms) 2025-01-15 at 2025-01-15T09:30:12.345Z  ')).toBe(
      '1 N (N ms) DATE at TIME',
    );
    expect(outputDifference(['a', '...', 'd'], 'a\nb\nc\nd\n')).toBeUndefined();
    expect(outputDifference(['a', '...'], 'a\n')).toBeUndefined();
    expect(outputDifference(['a', 'b'], 'a\nb\nc\n')).toMatch(/README shows/u);
    expect(outputDifference(['imported 1 line'], 'imported 2 lines\n')).toBeDefined();
    expect(outputDifference(['rank 1'], 'rank 2\n')).toBeDefined();
  });
});

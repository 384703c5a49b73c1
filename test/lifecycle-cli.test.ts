/** The lifecycle and auto-recall commands of the built CLI: output, JSON and exit codes. */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { type CliResult, runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

function engramIn(dir: string) {
  const env = { ENGRAM_STORE_PATH: join(dir, 'engram.db') };
  return (args: string[], input?: string): Promise<CliResult> => runCli(args, { env, input });
}

describe('engram maintain, review, observe, auto-recall (built CLI)', () => {
  it('runs the lifecycle end to end with human and JSON output', async () => {
    const cli = engramIn(tempDir());
    const made = await cli([
      '--json',
      'remember',
      'The office wifi password is rotated monthly by IT.',
      '--kind',
      'fact',
      '--tag',
      'office',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const id = JSON.parse(made.stdout).memory.id as string;

    const dry = await cli(['maintain', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/maintenance preview \(dry run: nothing written\)/);
    expect(dry.stdout).toMatch(/strength histogram:/);

    const real = await cli(['--json', 'maintain']);
    expect(real.code, real.stderr).toBe(0);
    const report = JSON.parse(real.stdout);
    expect(report).toMatchObject({ dry_run: false, items_scanned: 1 });
    expect(report.backup.path).toMatch(/backups\/engram-.*\.db$/);

    const observed = await cli(['observe', id, 'NOPE', '--context-tag', 'hiring']);
    expect(observed.code).toBe(10); // partial: one id failed, the other was applied
    expect(observed.stdout).toMatch(new RegExp(`${id}: used \\(cross-domain, strength`));
    expect(observed.stdout).toMatch(/NOPE: memory NOPE not found/);

    const configured = await cli(['auto-recall', 'configure', '--enable', '--mode', 'subtle']);
    expect(configured.code, configured.stderr).toBe(0);
    expect(configured.stdout).toMatch(/mode\s+subtle/);
    const processed = await cli(['--json', 'auto-recall', 'process', 'what is the wifi password?']);
    expect(processed.code, processed.stderr).toBe(0);
    expect(JSON.parse(processed.stdout)).toMatchObject({
      triggered: true,
      count: 1,
      items: [{ id }],
    });
    const analysed = await cli(['auto-recall', 'analyze', '-'], 'thanks a lot!');
    expect(analysed.stdout).toMatch(/recall: no \(small_talk/);

    const stats = await cli(['--json', 'auto-recall', 'stats']);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      reinforcement_events: 1,
      cross_domain_detections: 1,
    });

    const review = await cli(['review']);
    expect(review.code).toBe(0);
    expect(review.stdout).toMatch(/nothing to review/);
    const letGo = await cli(['review', 'let-go', id]);
    expect(letGo.code, letGo.stderr).toBe(0);
    expect(letGo.stdout).toMatch(/status archived/);
  });

  it('exits 2 with a message naming the field on bad input', async () => {
    const cli = engramIn(tempDir());
    for (const [args, pattern] of [
      [
        ['auto-recall', 'configure', '--mode', 'loud'],
        /mode: must be one of silent, subtle, interactive/,
      ],
      [
        ['auto-recall', 'configure', '--threshold', '1.5'],
        /relevance_threshold: must be between 0 and 1/,
      ],
      [['auto-recall', 'configure', '--min-interval', '-1'], /min_interval_s: must be at least 0/],
      [['auto-recall', 'process', ' '], /message: must not be empty/],
      [['review', 'shred', 'X'], /action: must be one of reinforce, revise, let-go/],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(pattern);
    }
  });
});

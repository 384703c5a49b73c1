/**
 * An exact duplicate `remember` with different options (§2): the options given are applied to the
 * existing memory as changes with history, and the answer names them; options not given change
 * nothing.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from './cli-run.js';
import { writeConfig } from './fixtures/processes.js';
import { tempDir, testEngram } from './helpers.js';

describe('remember of an exact duplicate', () => {
  it('applies the area, importance, tags and pin given, with history', async () => {
    const engram = testEngram();
    const first = await engram.remember({ body: 'Deploys freeze on Fridays.', kind: 'rule' });
    const again = await engram.remember({
      body: 'Deploys freeze on Fridays.',
      kind: 'rule',
      area: 'projects/payments',
      importance: 0.9,
      tags: ['ops'],
      pinned: true,
    });
    expect(again).toMatchObject({
      created: false,
      applied: ['area', 'importance', 'tags', 'pinned'],
      memory: {
        id: first.memory.id,
        area: 'projects/payments',
        importance: 0.9,
        tags: ['ops'],
        pinned: true,
      },
    });
    expect((await engram.list({ areas: ['projects/payments'] })).items.map((m) => m.id)).toEqual([
      first.memory.id,
    ]);
    const history = await engram.history(first.memory.id);
    expect(JSON.stringify(history)).toContain('remembered again with these options');

    // The same options again, or none: nothing to apply, nothing said.
    const same = await engram.remember({
      body: 'Deploys freeze on Fridays.',
      kind: 'rule',
      area: 'projects/payments',
    });
    expect(same).toEqual({
      memory: expect.objectContaining({ id: first.memory.id }),
      created: false,
    });
    const bare = await engram.remember({ body: 'Deploys freeze on Fridays.', kind: 'rule' });
    expect(bare.memory.area).toBe('projects/payments');
    expect(bare.applied).toBeUndefined();
  });

  it('the CLI says what it applied', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, join(dir, 'engram.db'));
    const run = (...args: string[]) => runCli(['--config', config, ...args]);
    expect((await run('remember', 'Backups run nightly at 2am.')).code).toBe(0);
    const again = await run('remember', 'Backups run nightly at 2am.', '--area', 'ops/backups');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already remembered (exact duplicate)');
    expect(again.stdout).toContain('applied to it: area ops/backups');
  });
});

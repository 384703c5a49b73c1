/**
 * `engram areas` and `engram areas fold` through the built CLI, as users run them: the areas are
 * listed with their counts, a dry run lists what would move and changes nothing (the export is the
 * same before and after), a fold moves every memory of the source with its content unchanged,
 * `engram restore ID` moves one back, and a system area, equal names and an empty source are
 * refused with INVALID_INPUT naming the field. Listing never creates a store.
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

const FROM = 'project/billing';
const TO = 'projects/billing';

function setup() {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  const store = join(dir, 'engram.db');
  writeFileSync(config, stringify({ store: { path: store } }));
  const cli = (args: string[]) => runCli(['--config', config, ...args]);
  const json = async <T>(args: string[]): Promise<T> => {
    const r = await cli(['--json', ...args]);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout) as T;
  };
  const remember = async (body: string, area: string) =>
    (await json<{ memory: { id: string } }>(['remember', '--area', area, body])).memory.id;
  return { cli, json, remember, store };
}

type Item = { area: string; body: string; version: number };
type Fold = { from: string; to: string; dry_run: boolean; items: string[] };

/** The export's bytes with the time of the export taken out of its header: what the store holds. */
async function exportHash(cli: (args: string[]) => ReturnType<typeof runCli>): Promise<string> {
  const r = await cli(['export']);
  expect(r.code, r.stderr).toBe(0);
  const stable = r.stdout.replace(/"exported_at":"[^"]+"/u, '"exported_at":"-"');
  return createHash('sha256').update(stable).digest('hex');
}

describe('engram areas (built CLI)', () => {
  it('lists areas, previews a fold read-only, folds, and restores one to its old area', async () => {
    const { cli, json, remember } = setup();
    const moving = [
      await remember('Invoices are generated nightly', FROM),
      await remember('Billing retries a failed charge three times', FROM),
    ];
    const staying = await remember('Billing runs on PostgreSQL 15', TO);
    await remember('The offsite is in Lisbon', 'general');
    const get = (id: string) => json<Item>(['get', id]);
    const bodies = await Promise.all(moving.map(async (id) => (await get(id)).body));

    expect(await json(['areas'])).toEqual({
      areas: [
        { area: 'general', items: 1 },
        { area: FROM, items: 2 },
        { area: TO, items: 1 },
      ],
    });
    const listed = await cli(['areas']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^project\/billing +2$/mu);
    expect(listed.stdout).toContain('3 areas, 4 memories');

    const before = await exportHash(cli);
    const dry = await json<Fold>(['areas', 'fold', FROM, TO, '--dry-run']);
    expect({ ...dry, items: [...dry.items].sort() }).toEqual({
      from: FROM,
      to: TO,
      dry_run: true,
      items: [...moving].sort(),
    });
    const dryText = await cli(['areas', 'fold', FROM, TO, '--dry-run']);
    expect(dryText.code, dryText.stderr).toBe(0);
    expect(dryText.stdout).toContain(`dry run: 2 memories would move from area ${FROM} to ${TO}`);
    expect(dryText.stdout).toContain('nothing was changed');
    expect(await exportHash(cli)).toBe(before);

    const folded = await cli(['areas', 'fold', FROM, TO, '--reason', 'typo in the area name']);
    expect(folded.code, folded.stderr).toBe(0);
    expect(folded.stdout).toContain(`folded area ${FROM} into ${TO}: 2 memories moved`);
    expect(folded.stdout).toContain(`each can be moved back to ${FROM} with: engram restore ID`);
    for (const id of moving) expect(folded.stdout).toContain(id);
    for (const [i, id] of moving.entries())
      expect(await get(id)).toMatchObject({ area: TO, body: bodies[i], version: 1 });
    expect((await get(staying)).area).toBe(TO);
    expect(await json(['areas'])).toEqual({
      areas: [
        { area: 'general', items: 1 },
        { area: TO, items: 3 },
      ],
    });

    const restored = await cli(['restore', moving[0]!]);
    expect(restored.code, restored.stderr).toBe(0);
    expect((await get(moving[0]!)).area).toBe(FROM);
    expect((await get(moving[1]!)).area).toBe(TO);
    expect((await json<{ areas: unknown[] }>(['areas'])).areas).toContainEqual({
      area: FROM,
      items: 1,
    });
  });

  it('refuses a system area, equal names and an empty source, naming the field', async () => {
    const { cli, remember } = setup();
    await remember('The offsite is in Lisbon', 'general');
    const before = await exportHash(cli);
    for (const [args, field, message] of [
      [['_inbox', 'general'], 'from', 'from: _inbox is a system area'],
      [['general', '_inbox'], 'to', 'to: _inbox is a system area'],
      [['general', 'general'], 'to', 'to: equals from (general)'],
      [['nowhere', 'general'], 'from', 'from: nowhere holds no items'],
      [['bad area', 'general'], 'from', 'from: must be "/"-separated segments'],
    ] as const) {
      const human = await cli(['areas', 'fold', ...args]);
      expect(human.code, args.join(' ')).toBe(EXIT_CODES.INVALID_INPUT);
      expect(human.stderr, args.join(' ')).toContain(message);
      const asJson = await cli(['--json', 'areas', 'fold', ...args, '--dry-run']);
      expect(asJson.code, args.join(' ')).toBe(EXIT_CODES.INVALID_INPUT);
      const { error } = JSON.parse(asJson.stderr) as {
        error: { code: string; details: { field: string } };
      };
      expect([error.code, error.details.field], args.join(' ')).toEqual(['INVALID_INPUT', field]);
    }
    expect(await exportHash(cli)).toBe(before);
  });

  it('never creates a store to list its areas or preview a fold', async () => {
    const { cli, store } = setup();
    for (const args of [['areas'], ['areas', 'fold', 'a', 'b', '--dry-run']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(EXIT_CODES.STORE_UNAVAILABLE);
      expect(r.stderr).toContain(`no store at ${store}`);
    }
    expect(existsSync(store)).toBe(false);
  });
});

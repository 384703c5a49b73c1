import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

function setup(): {
  dir: string;
  config: string;
  cli: (args: string[], input?: string) => ReturnType<typeof runCli>;
} {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(config, `store:\n  path: ${join(dir, 'engram.db')}\n`);
  return { dir, config, cli: (args, input) => runCli(['--config', config, ...args], { input }) };
}

describe('engram CLI (built binary)', () => {
  it('remembers, searches with --json printing exactly the recall envelope, gets and lists', async () => {
    const { cli } = setup();
    const a = await cli([
      '--json',
      'remember',
      'Alex prefers TypeScript over Python',
      '--kind',
      'preference',
      '--tag',
      'lang',
      '--area',
      'people/alex',
    ]);
    expect(a.code).toBe(0);
    const id = (JSON.parse(a.stdout) as { memory: { id: string } }).memory.id;
    const b = await cli(
      ['remember', '-', '--kind', 'fact'],
      'The billing database is PostgreSQL 15 on port 5433',
    );
    expect(b.code).toBe(0);
    expect(b.stdout).toMatch(/^remembered: [0-9A-Z]{26}\n$/);
    const search = await cli(['search', 'which language does Alex like', '-k', '5', '--json']);
    expect(search.code).toBe(0);
    const envelope = JSON.parse(search.stdout) as Record<string, unknown>;
    expect(Object.keys(envelope).sort()).toEqual(['decision', 'degraded', 'hits', 'timings_ms']);
    expect((envelope.hits as { id: string }[])[0]?.id).toBe(id);
    expect(envelope.degraded).toEqual([]);
    const human = await cli(['search', 'database port']);
    expect(human.stdout).toContain('The billing databas');
    const status = await cli(['status']);
    expect(status.stdout).toMatch(/^items +2 \(active 2\)$/m);
    expect(status.stdout).toMatch(/^vector index not open in this process/m);
    const got = await cli(['get', id]);
    expect(got.stdout).toContain('people/alex');
    const listed = JSON.parse((await cli(['--json', 'list', '--kind', 'fact'])).stdout) as {
      items: { kind: string }[];
    };
    expect(listed.items.map((i) => i.kind)).toEqual(['fact']);
  });

  it('search takes --rerank / --no-rerank and per-channel --weight, and names a bad one', async () => {
    const { cli } = setup();
    await cli(['remember', 'The deploy key lives in the vault under ops/deploy']);
    const keywordOnly = JSON.parse(
      (await cli(['--json', 'search', 'deploy key', '--no-rerank', '--weight', 'vector=0'])).stdout,
    ) as { hits: { channels: Record<string, unknown> }[]; timings_ms: Record<string, number> };
    expect(Object.keys(keywordOnly.hits[0]!.channels)).toEqual(['keyword']);
    expect(keywordOnly.timings_ms).not.toHaveProperty('rerank');
    const out = (await cli(['--json', 'search', 'deploy key', '--rerank'])).stdout;
    const reranked = JSON.parse(out) as { timings_ms: Record<string, number> };
    expect(reranked.timings_ms).toHaveProperty('rerank');
    const unknown = await cli(['search', 'deploy', '--weight', 'nope=1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/weights\.nope/);
    const malformed = await cli(['search', 'deploy', '--weight', 'vector']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/CHANNEL=NUMBER/);
  });

  it('searches FTS syntax as plain text without error', async () => {
    const { cli } = setup();
    await cli(['remember', 'Deploys go through the release pipeline']);
    for (const q of ['"unbalanced', 'NEAR(release', 'AND OR', '^', 'pipe*', '-x:y']) {
      const r = await cli(['--json', 'search', '--', q]);
      expect(r.code, `${q}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveProperty('hits');
    }
  });

  it('revises, shows history, forgets, restores, pins, moves, tags and purges', async () => {
    const { cli } = setup();
    const id = (
      JSON.parse((await cli(['--json', 'remember', 'The API listens on 8080'])).stdout) as {
        memory: { id: string };
      }
    ).memory.id;
    expect(
      (await cli(['revise', id, 'The API listens on 9090', '--reason', 'moved'])).stdout,
    ).toContain('version 2');
    const history = await cli(['history', id]);
    expect(history.stdout).toMatch(/v1 .*\n\s+The API listens on 8080/);
    expect(history.stdout).toMatch(/v2 .*moved/);
    expect((await cli(['forget', id])).code).toBe(0);
    expect(JSON.parse((await cli(['--json', 'search', 'API listens'])).stdout).hits).toEqual([]);
    expect((await cli(['restore', id])).code).toBe(0);
    expect((await cli(['pin', id])).code).toBe(0);
    expect((await cli(['move', id, 'projects/api'])).code).toBe(0);
    expect((await cli(['tag', id, '--add', 'net,ports'])).stdout).toContain('net, ports');
    const m = JSON.parse((await cli(['--json', 'get', id])).stdout) as Record<string, unknown>;
    expect(m).toMatchObject({
      pinned: true,
      area: 'projects/api',
      tags: ['net', 'ports'],
      status: 'active',
      version: 2,
    });
    expect((await cli(['purge', id])).code).toBe(2);
    const purged = await cli(['purge', id, '--yes']);
    expect(purged.code, purged.stderr).toBe(0);
    expect((await cli(['get', id])).code).toBe(3);
  });

  it('maps failures to meaningful exit codes with clear messages', async () => {
    const { cli, dir } = setup();
    // A reading command needs the store to exist (else exit 6, test/cli-newcomer.test.ts).
    expect((await cli(['remember', 'the store exists now'])).code).toBe(0);
    const notFound = await cli(['get', '01ZZZZZZZZZZZZZZZZZZZZZZZZ']);
    expect(notFound.code).toBe(3);
    expect(notFound.stderr).toMatch(/not found/);
    const empty = await cli(['remember', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('body: must not be empty');
    expect((await cli(['remember', 'x', '--kind', 'thought'])).code).toBe(2);
    expect((await cli(['search', 'x', '-k', 'many'])).code).toBe(2);
    expect((await cli(['no-such-command'])).code).toBe(2);
    const badConfig = join(dir, 'bad.yaml');
    writeFileSync(badConfig, 'recall:\n  k: lots\n');
    const conf = await runCli(['--config', badConfig, 'status']);
    expect(conf.code).toBe(5);
    expect(conf.stderr).toContain('recall.k');
    const notDb = join(dir, 'notadb.db');
    writeFileSync(notDb, 'this is plain text, not a database '.repeat(200));
    const nd = await runCli(['status'], { env: { ENGRAM_STORE_PATH: notDb } });
    expect(nd.code).toBe(6);
    expect(nd.stderr).toMatch(/not an engram database/);
    const json = await cli(['--json', 'get', 'nope']);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('has --help on every command', async () => {
    const commands = [
      'init',
      'remember',
      'get',
      'list',
      'revise',
      'forget',
      'restore',
      'purge',
      'pin',
      'unpin',
      'move',
      'tag',
      'history',
      'search',
      'import',
      'export',
      'status',
      'models',
    ];
    for (const command of commands) {
      const r = await runCli([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout).toContain(`Usage: engram ${command}`);
    }
  });

  it('imports JSONL with per-line errors, is idempotent on re-run, and round-trips through export', async () => {
    const { cli, dir } = setup();
    const file = join(dir, 'in.jsonl');
    writeFileSync(
      file,
      [
        '{"body":"first memory about rust"}',
        '{not json',
        '{"body":""}',
        '',
        '{"body":"second memory about go","kind":"fact","tags":["lang"]}',
      ].join('\n'),
    );
    const first = await cli(['import', file]);
    expect(first.code).toBe(10);
    expect(first.stderr).toMatch(/line 2: not valid JSON/);
    expect(first.stderr).toMatch(/line 3: body: must not be empty/);
    expect(first.stdout).toMatch(/2 created/);
    const again = await cli(['import', file]);
    expect(again.stdout).toMatch(/0 created, 2 duplicates/);
    const exported = join(dir, 'out.jsonl');
    expect((await cli(['export', exported])).code).toBe(0);
    const lines = readFileSync(exported, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    const other = join(dir, 'other.yaml');
    writeFileSync(other, `store:\n  path: ${join(dir, 'other.db')}\n`);
    const restored = await runCli(['--config', other, 'import', exported]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/2 items restored/);
    const reexport = join(dir, 'again.jsonl');
    await runCli(['--config', other, 'export', reexport]);
    const strip = (text: string) => text.trim().split('\n').slice(1);
    expect(strip(readFileSync(reexport, 'utf8'))).toEqual(strip(readFileSync(exported, 'utf8')));
  });

  it('init writes a config file and creates the store; status reports it', async () => {
    const dir = tempDir();
    const r = await runCli(['init', '--store', join(dir, 'mem.db')], { cwd: dir });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'engram.yaml'), 'utf8')).toContain('mem.db');
    expect((await runCli(['init'], { cwd: dir })).code).toBe(4);
    const status = JSON.parse(
      (await runCli(['--config', join(dir, 'engram.yaml'), '--json', 'status'])).stdout,
    ) as { store: { location: string }; published_model: { id: string } };
    expect(status.store.location).toBe(join(dir, 'mem.db'));
    expect(status.published_model.id).toMatch(/^static:/);
  });
});

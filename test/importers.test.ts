/**
 * The importers of other memory tools (`importFrom`, src/importers) on their fixtures: each
 * imports, is exported by engram's own export and read back into the source format's shape, which
 * must equal the fixture (round trip); a second import creates nothing; provenance names the
 * format, the original id and the import time; mcp-memory's entities and relations reach the
 * knowledge graph, Markdown's wiki links become relations.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { importFrom } from '../src/importers/run.js';
import { byUrl, exported, fixture, importEngram } from './import-helpers.js';

const jsonLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const PROVENANCE = /^(mcp-memory|mem0|markdown)@\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('mcp-memory importer', () => {
  it('round-trips entities, observations and relations, and a re-import creates nothing', async () => {
    const engram = importEngram();
    const first = await importFrom(engram, {
      format: 'mcp-memory',
      path: fixture('mcp-memory.jsonl'),
    });
    expect(first.summary).toMatchObject({ records: 9, created: 9, error: 0, exists: 0 });

    const { items } = await exported(engram);
    expect(items).toHaveLength(9);
    for (const item of items) {
      expect(item.kind).toBe('fact');
      expect(item.source.import).toMatch(PROVENANCE);
      expect(item.source.trust).toBe('import');
    }
    // Back to the source format: entities from the entity memories, relations from their keys.
    const entities = new Map<string, { entityType: string; observations: string[] }>();
    const relations: unknown[] = [];
    for (const item of items) {
      const parts = item.source
        .url!.replace(/^mcp-memory:/, '')
        .split('/')
        .map(decodeURIComponent);
      if (parts[0] === 'relation') {
        relations.push({ type: 'relation', from: parts[1], relationType: parts[2], to: parts[3] });
        continue;
      }
      const name = parts[1]!;
      const entity = entities.get(name) ?? { entityType: item.tags[0]!, observations: [] };
      entities.set(name, entity);
      if (parts[2] === 'observation') entity.observations.push(item.body.replace(`${name}: `, ''));
    }
    const lines = jsonLines(fixture('mcp-memory.jsonl'));
    const sortObs = (e: Record<string, unknown>) => ({
      ...e,
      observations: [...(e.observations as string[])].sort(),
    });
    expect([...entities].map(([name, e]) => sortObs({ type: 'entity', name, ...e }))).toEqual(
      expect.arrayContaining(lines.filter((l) => l.type === 'entity').map(sortObs)),
    );
    expect(entities.size).toBe(4);
    expect(relations).toEqual(expect.arrayContaining(lines.filter((l) => l.type === 'relation')));
    expect(relations).toHaveLength(2);

    // Two entities with the same observation keep two memories, each naming its entity.
    const same = items.filter((i) => i.body.endsWith('Prefers short written status updates'));
    expect(same.map((i) => i.body).sort()).toEqual([
      'Mira Okafor: Prefers short written status updates',
      'Tomas Berg: Prefers short written status updates',
    ]);

    const again = await importFrom(engram, {
      format: 'mcp-memory',
      path: fixture('mcp-memory.jsonl'),
    });
    expect(again.summary).toMatchObject({ records: 9, created: 0, duplicate: 0, exists: 9 });
    expect((await exported(engram)).items).toHaveLength(9);
  });

  it('puts the entities and the relations in the knowledge graph', async () => {
    const engram = importEngram();
    await importFrom(engram, { format: 'mcp-memory', path: fixture('mcp-memory.jsonl') });
    const stats = await engram.graphStats();
    expect(stats.edges_by_type.arrow).toBe(2);
    const mira = await engram.graphNeighbors({ entity: 'Mira Okafor' });
    const near = mira.neighbors.find((n) => n.entity.name === 'Ledgerline');
    expect(near?.edges.map((e) => e.type)).toEqual(expect.arrayContaining(['arrow']));
    const bank = await engram.graphNeighbors({ entity: 'Northwind Bank' });
    expect(bank.neighbors.map((n) => n.entity.name)).toContain('Ledgerline');
  });
});

describe('mem0 importer', () => {
  const records = (
    JSON.parse(readFileSync(fixture('mem0.json'), 'utf8')) as {
      results: { id: string; memory: string; categories?: string[]; created_at: string }[];
    }
  ).results;

  it('round-trips memories with their dates, categories and users as areas; a re-import creates nothing', async () => {
    const engram = importEngram();
    const first = await importFrom(engram, { format: 'mem0', path: fixture('mem0.json') });
    expect(first.summary).toMatchObject({ records: 4, created: 4, error: 0, warned: 1 });

    const { items } = await exported(engram);
    const back = records.map((r) => {
      const item = byUrl(items, `mem0:${r.id}`);
      return { id: r.id, memory: item.body, categories: item.tags, created_at: item.created_at };
    });
    // A time without an offset is read as UTC; microseconds keep their milliseconds.
    const created = [
      '2024-07-20T17:15:30.123Z',
      '2024-08-02T09:00:00.000Z',
      '2024-09-14T16:45:00.000Z',
      '2024-09-15T08:30:00.000Z',
    ];
    expect(back).toEqual(
      records.map((r, i) => ({
        id: r.id,
        memory: r.memory,
        categories: r.categories ?? [],
        created_at: created[i],
      })),
    );
    const area = (id: string) => byUrl(items, `mem0:${id}`).area;
    expect(area(records[0]!.id)).toBe('users/alice');
    expect(area(records[2]!.id)).toBe('users/bob/agents/support-bot');
    expect(area(records[3]!.id)).toBe('agents/support-bot');
    expect(byUrl(items, `mem0:${records[0]!.id}`).kind).toBe('preference');
    expect(byUrl(items, `mem0:${records[2]!.id}`).source).toMatchObject({
      agent: 'support-bot',
      session: 'run-2024-09-14',
      trust: 'import',
    });
    expect(items.every((i) => PROVENANCE.test(i.source.import!))).toBe(true);

    const again = await importFrom(engram, { format: 'mem0', path: fixture('mem0.json') });
    expect(again.summary).toMatchObject({ created: 0, exists: 4 });
  });

  it('maps users to spaces with map_user: space', async () => {
    const engram = importEngram();
    const out = await importFrom(engram, {
      format: 'mem0',
      path: fixture('mem0.json'),
      map_user: 'space',
    });
    expect(out.summary.created).toBe(4);
    const { items } = await exported(engram);
    expect(items.map((i) => `${i.space} ${i.area}`).sort()).toEqual([
      'alice general',
      'alice general',
      'bob agents/support-bot',
      'support-bot general',
    ]);
    const again = await importFrom(engram, {
      format: 'mem0',
      path: fixture('mem0.json'),
      map_user: 'space',
    });
    expect(again.summary).toMatchObject({ created: 0, exists: 4 });
  });
});

describe('markdown importer', () => {
  const url = (rel: string) => pathToFileURL(fixture(`markdown/${rel}`)).href;

  it('round-trips notes (front matter, titles, tags, areas) and wiki links; a re-import creates nothing', async () => {
    const engram = importEngram();
    const first = await importFrom(engram, { format: 'markdown', path: fixture('markdown') });
    expect(first.summary).toMatchObject({ records: 4, created: 3, skipped: 1, error: 0 });
    expect(first.summary.relations).toMatchObject({ created: 5, unresolved: 1 });

    const { items, relations } = await exported(engram);
    expect(items).toHaveLength(3); // the hidden folder and the empty note make none
    const ledgerline = byUrl(items, url('projects/ledgerline.md'));
    expect(ledgerline).toMatchObject({ title: 'Ledgerline', kind: 'note', area: 'projects' });
    expect(ledgerline.tags).toEqual(['payments', 'go', 'setup', 'db']);
    // Keys engram has no field for stay in the body, as written.
    const text = readFileSync(fixture('markdown/projects/ledgerline.md'), 'utf8');
    const content = text.slice(text.indexOf('# Ledgerline'));
    expect(ledgerline.body).toBe(
      `---\naliases:\n  - LL\nstatus: active\nowner: Mira Okafor\n---\n\n${content.trim()}`,
    );
    const runbook = byUrl(items, url('runbooks/Payments Runbook.md'));
    expect(runbook).toMatchObject({
      kind: 'procedure',
      area: 'ops/payments',
      title: 'Payments Runbook',
    });
    expect(runbook.created_at).toBe('2024-03-01T00:00:00.000Z');
    expect(runbook.body.startsWith('# Payments Runbook')).toBe(true);
    const home = byUrl(items, url('index.md'));
    expect(home).toMatchObject({ title: 'Home', area: 'general', tags: ['onboarding'] });

    const name = new Map(items.map((i) => [i.id, i.title]));
    const links = relations.map((r) => `${name.get(r.from_id)} -> ${name.get(r.to_id)} ${r.type}`);
    expect(links.sort()).toEqual([
      'Home -> Ledgerline related',
      'Home -> Payments Runbook related',
      'Ledgerline -> Payments Runbook related',
      'Payments Runbook -> Home related',
      'Payments Runbook -> Ledgerline related',
    ]);

    const again = await importFrom(engram, { format: 'markdown', path: fixture('markdown') });
    expect(again.summary).toMatchObject({ created: 0, exists: 3, skipped: 1 });
    expect(again.summary.relations).toMatchObject({ created: 0, exists: 5, unresolved: 1 });
    const after = await exported(engram);
    expect([after.items.length, after.relations.length]).toEqual([3, 5]);
  });

  it('makes one memory per heading section with split: section, links reaching the section named', async () => {
    const engram = importEngram();
    const out = await importFrom(engram, {
      format: 'markdown',
      path: fixture('markdown'),
      split: 'section',
    });
    expect(out.summary).toMatchObject({ created: 8, skipped: 1, error: 0 });
    const { items, relations } = await exported(engram);
    expect(items.map((i) => i.title).sort()).toEqual([
      'Home',
      'Ledgerline',
      'Ledgerline › Observations',
      'Ledgerline › Relations',
      'Ledgerline › Setup',
      'Payments Runbook',
      'Payments Runbook › Rollback',
      'Payments Runbook › Rollback',
    ]);
    const setup = byUrl(items, `${url('projects/ledgerline.md')}#setup`);
    expect(setup.body).toBe('Run `make dev` and point it at the sandbox bank. #setup');
    expect(setup.tags).toEqual(['payments', 'go', 'setup']);
    const rollback = byUrl(items, `${url('runbooks/Payments Runbook.md')}#rollback`);
    expect(rollback.body).toContain('# not a heading'); // inside a code block
    const fromRelations = byUrl(items, `${url('projects/ledgerline.md')}#relations`);
    const out2 = relations.filter((r) => r.from_id === fromRelations.id).map((r) => r.to_id);
    expect(out2).toEqual([rollback.id]);
    const again = await importFrom(engram, {
      format: 'markdown',
      path: fixture('markdown'),
      split: 'section',
    });
    expect(again.summary).toMatchObject({ created: 0, exists: 8 });
  });

  it('imports into a base area with area, below it the folders', async () => {
    const engram = importEngram();
    await importFrom(engram, { format: 'markdown', path: fixture('markdown'), area: 'vault' });
    const { items } = await exported(engram);
    expect(items.map((i) => i.area).sort()).toEqual(['ops/payments', 'vault', 'vault/projects']);
  });
});

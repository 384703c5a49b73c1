/**
 * The consolidation tools over MCP, in process (SDK client over InMemoryTransport): dream_preview
 * proposes a merge and changes nothing, dream_run merges (the lesser is `merged`) and returns the
 * diary, dream_diary returns a run's diary or the latest; arguments are strict, bad stages and
 * unknown runs are tool errors with the code and field, and spaces stay apart.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { DreamDiary, DreamPreview } from '../src/domain/dreams.js';
import { testEngram } from './helpers.js';
import { callTool, connectMcp } from './mcp-helpers.js';

async function seeded(): Promise<{ engram: Engram; ids: string[] }> {
  const engram = testEngram();
  await engram.prepareModels();
  const ids: string[] = [];
  for (const body of [
    'Alice prefers dark mode in the editor',
    'In the editor, Alice prefers dark mode',
    'The billing service runs on PostgreSQL 15',
  ])
    ids.push((await engram.remember({ body, kind: 'fact' })).memory.id);
  await engram.idle();
  return { engram, ids };
}

function ok<T>(result: CallToolResult): T {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(
    result.structuredContent,
  );
  return result.structuredContent as T;
}

function failed(result: CallToolResult): { code: string; details: Record<string, unknown> } {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: { code: string; details: Record<string, unknown> } })
    .error;
}

describe('consolidation tools over MCP', () => {
  it('lists dream_preview and dream_diary as read-only, dream_run as a write, all strict', async () => {
    const { engram } = await seeded();
    const { tools } = await (await connectMcp(engram)).listTools();
    const tool = (name: string) => tools.find((t) => t.name === name)!;
    expect(tool('dream_preview').annotations).toMatchObject({ readOnlyHint: true });
    expect(tool('dream_diary').annotations).toMatchObject({ readOnlyHint: true });
    expect(tool('dream_run').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    const properties = (name: string) => Object.keys(tool(name).inputSchema.properties ?? {});
    expect(properties('dream_preview').sort()).toEqual(['space', 'stages']);
    expect(properties('dream_run').sort()).toEqual(['dry_run', 'space', 'stages']);
    expect(properties('dream_diary').sort()).toEqual(['run_id', 'space']);
    for (const name of ['dream_preview', 'dream_run', 'dream_diary'])
      expect(tool(name).inputSchema, name).toMatchObject({ additionalProperties: false });
    expect(tool('dream_run').description).toMatch(/undone/u);
  });

  it('previews without changing anything, runs, and returns the diary', async () => {
    const { engram, ids } = await seeded();
    const client = await connectMcp(engram);
    const preview = ok<DreamPreview>(
      await callTool(client, 'dream_preview', { stages: ['duplicates'] }),
    );
    expect(preview.stages.map((s) => s.stage)).toEqual(['duplicates']);
    const [merge] = preview.stages[0]!.proposals;
    expect([...merge!.items].sort()).toEqual([ids[0], ids[1]].sort());
    const [lesser, keeper] = merge!.items as [string, string];
    expect((await engram.get(lesser)).status).toBe('active');
    expect(failed(await callTool(client, 'dream_diary', {})).code).toBe('NOT_FOUND');

    const dry = ok<DreamDiary>(await callTool(client, 'dream_run', { dry_run: true }));
    expect(dry.run.dry_run).toBe(true);
    expect(dry.entries.map((e) => e.outcome)).toEqual(['proposed']);
    expect((await engram.get(lesser)).status).toBe('active');

    const ran = ok<DreamDiary>(await callTool(client, 'dream_run', {}));
    expect(ran.run).toMatchObject({ state: 'completed', diary: 'final', dry_run: false });
    expect(ran.entries).toMatchObject([
      { action: 'merge', outcome: 'applied', items: [lesser, keeper] },
    ]);
    expect((await engram.get(lesser)).status).toBe('merged');

    expect(ok<DreamDiary>(await callTool(client, 'dream_diary', {}))).toEqual(ran);
    const older = ok<DreamDiary>(await callTool(client, 'dream_diary', { run_id: dry.run.id }));
    expect(older).toEqual(dry);
  });

  it('refuses bad arguments naming the field; unknown runs and other spaces are NOT_FOUND', async () => {
    const { engram } = await seeded();
    const client = await connectMcp(engram);
    const cases: [string, Record<string, unknown>, string][] = [
      ['dream_preview', { stages: ['naps'] }, 'stages[0]'],
      ['dream_preview', { stages: [] }, 'stages'],
      ['dream_preview', { dry_run: true }, 'dry_run'],
      ['dream_run', { stages: ['folds', 'folds'] }, 'stages'],
      ['dream_run', { dry_run: 'yes' }, 'dry_run'],
      ['dream_run', { space: 'Bad Space!' }, 'space'],
      ['dream_diary', { run_id: 'bad id!' }, 'run_id'],
    ];
    for (const [tool, args, field] of cases) {
      const error = failed(await callTool(client, tool, args));
      expect([error.code, error.details.field], `${tool} ${JSON.stringify(args)}`).toEqual([
        'INVALID_INPUT',
        field,
      ]);
    }
    const ran = ok<DreamDiary>(await callTool(client, 'dream_run', { dry_run: true }));
    const unknown = await callTool(client, 'dream_diary', { run_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(failed(unknown).code).toBe('NOT_FOUND');
    const elsewhere = await callTool(client, 'dream_diary', {
      run_id: ran.run.id,
      space: 'team-b',
    });
    expect(failed(elsewhere).code).toBe('NOT_FOUND');
    const empty = ok<DreamPreview>(await callTool(client, 'dream_preview', { space: 'team-b' }));
    expect(empty.stages.flatMap((s) => s.proposals)).toEqual([]);
  });
});

/**
 * The importers on bad input and on re-runs: each malformed record fails alone with an error
 * naming the record and the field (the rest imports); input that cannot be read at all fails the
 * call naming `path`; a dry run reads and checks everything and writes nothing; a re-run updates
 * a memory whose source changed only while engram's version is still the imported one; a note too
 * large for one memory is cut instead of refused.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { checkImport, importFrom, type ImportResult } from '../src/importers/run.js';
import { tempDir } from './helpers.js';
import { byUrl, exported, fixture, importEngram, markdownCopy } from './import-helpers.js';

/** The failed records of an import as `record | field | message`. */
const failures = (errors: readonly ImportResult[]) =>
  errors.map((e) => `${e.record} | ${e.error?.field} | ${e.error?.message}`);

describe('malformed input fails per record', () => {
  it('mcp-memory: each bad line or observation alone, naming the field', async () => {
    const engram = importEngram();
    const out = await importFrom(engram, {
      format: 'mcp-memory',
      path: fixture('mcp-memory-bad.jsonl'),
    });
    expect(out.summary).toMatchObject({ records: 9, created: 2, error: 7 });
    expect(failures(out.errors)).toEqual([
      'line 1 observations[1] | observations[1] | observations[1]: must be a string',
      'line 1 observations[2] | observations[2] | observations[2]: must not be empty',
      'line 2 | name | name: must not be empty',
      'line 3 | relationType | relationType: must be a string',
      'line 4 | type | type: must be "entity" or "relation", not "thing"',
      expect.stringMatching(/^line 5 \| \(line\) \| not valid JSON: /),
      'line 6 | (line) | must be a JSON object',
    ]);
  });

  it('mcp-memory: a line that is not UTF-8 fails alone, naming the byte offset', async () => {
    const file = join(tempDir(), 'memory.jsonl');
    writeFileSync(
      file,
      '{"type":"entity","name":"Ada","entityType":"person","observations":["Writes Go"]}\n',
    );
    appendFileSync(file, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]));
    const out = await importFrom(importEngram(), { format: 'mcp-memory', path: file });
    expect(out.summary).toMatchObject({ created: 1, error: 1 });
    expect(failures(out.errors)).toEqual([
      'line 2 | (line) | (line): not valid UTF-8: invalid byte at offset 2',
    ]);
  });

  it('mcp-memory: an observation or a relation said twice is skipped, naming the first', async () => {
    const file = join(tempDir(), 'memory.jsonl');
    const entity = {
      type: 'entity',
      name: 'Ada',
      entityType: 'person',
      observations: ['Writes Go'],
    };
    const relation = { type: 'relation', from: 'Ada', to: 'Go', relationType: 'uses' };
    writeFileSync(
      file,
      [entity, relation, entity, relation].map((l) => JSON.stringify(l)).join('\n'),
    );
    const results: ImportResult[] = [];
    const out = await importFrom(importEngram(), {
      format: 'mcp-memory',
      path: file,
      onResults: (r) => results.push(...r),
    });
    expect(out.summary).toMatchObject({ created: 2, skipped: 2, error: 0 });
    expect(results.filter((r) => r.status === 'skipped')).toEqual([
      {
        record: 'line 3 observations[0]',
        status: 'skipped',
        warnings: ['repeats line 1 observations[0]'],
      },
      { record: 'line 4', status: 'skipped', warnings: ['repeats line 2'] },
    ]);
  });

  it('mem0: each bad entry alone, a repeated id too', async () => {
    const engram = importEngram();
    const out = await importFrom(engram, { format: 'mem0', path: fixture('mem0-bad.json') });
    expect(out.summary).toMatchObject({ records: 6, created: 1, error: 5 });
    expect(failures(out.errors)).toEqual([
      'entry 2 (id m-2) | memory | memory: must not be empty',
      'entry 3 (id m-3) | memory | memory: must be a string',
      'entry 4 (id m-4) | categories | categories: must be an array of strings',
      'entry 5 | (record) | (record): must be a JSON object',
      'entry 6 (id m-1) | id | id: the same original id as entry 1 (id m-1)',
    ]);
  });

  it('mem0: reads one memory per line too; a file that is no JSON at all fails naming path', async () => {
    const dir = tempDir();
    const lines = join(dir, 'mem0.jsonl');
    writeFileSync(
      lines,
      '{"id": "a", "memory": "Drinks tea", "user_id": "dan"}\n{"id": "b", "memory": 7}\n',
    );
    const out = await importFrom(importEngram(), { format: 'mem0', path: lines });
    expect(out.summary).toMatchObject({ created: 1, error: 1 });
    expect(failures(out.errors)).toEqual(['line 2 (id b) | memory | memory: must be a string']);

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"results": [');
    await expect(
      importFrom(importEngram(), { format: 'mem0', path: broken }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'path' },
    });
    writeFileSync(broken, '{"count": 3}');
    await expect(importFrom(importEngram(), { format: 'mem0', path: broken })).rejects.toThrow(
      'path: no list of memories in the file',
    );
  });

  it('markdown: a note that cannot be read fails alone; the others import', async () => {
    const dir = join(tempDir(), 'notes');
    mkdirSync(dir);
    for (const name of ['good.md', 'broken.md', 'list-front.md'])
      writeFileSync(join(dir, name), readFileSync(fixture(`markdown-bad/${name}`)));
    writeFileSync(join(dir, 'latin1.md'), Buffer.from('# Caf\xe9\n', 'latin1'));
    const tag = `#${'x'.repeat(80)}`;
    writeFileSync(join(dir, 'tags.md'), `# Tags\n\nA very long tag ${tag} and a short one #ok\n`);
    const out = await importFrom(importEngram(), { format: 'markdown', path: dir });
    expect(out.summary).toMatchObject({ records: 5, created: 2, error: 3, warned: 2 });
    expect(failures(out.errors)).toEqual([
      expect.stringMatching(/^broken\.md \| front matter \| front matter: not valid YAML: /),
      'latin1.md | text | text: not valid UTF-8: invalid byte at offset 5',
      'list-front.md | front matter | front matter: must be a mapping of keys to values',
    ]);
    expect(out.summary.relations).toMatchObject({ created: 0, unresolved: 1 });
  });

  it('fails the call, naming path, when the input is missing or of the wrong kind', async () => {
    const engram = importEngram();
    await expect(
      importFrom(engram, { format: 'mcp-memory', path: join(tempDir(), 'missing.jsonl') }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'path' } });
    await expect(importFrom(engram, { format: 'mem0', path: fixture('markdown') })).rejects.toThrow(
      /path: .* does not exist or is not a file/,
    );
    await expect(
      importFrom(engram, { format: 'notion' as never, path: fixture('markdown') }),
    ).rejects.toThrow('format: must be one of mcp-memory, mem0, markdown');
  });
});

describe('dry run', () => {
  it('reads and checks every format, counts what it would write, and writes nothing', async () => {
    const engram = importEngram();
    const runs = [
      ['mcp-memory', 'mcp-memory.jsonl', 9, 0],
      ['mcp-memory', 'mcp-memory-bad.jsonl', 2, 7],
      ['mem0', 'mem0.json', 4, 0],
      ['mem0', 'mem0-bad.json', 1, 5],
      ['markdown', 'markdown', 3, 0],
      ['markdown', 'markdown-bad', 1, 2],
    ] as const;
    for (const [format, file, valid, error] of runs) {
      const { summary } = await checkImport(engram.config, { format, path: fixture(file) });
      expect(summary, `${format} ${file}`).toMatchObject({
        dry_run: true,
        valid,
        error,
        created: 0,
      });
    }
    const { summary } = await checkImport(engram.config, {
      format: 'markdown',
      path: fixture('markdown'),
    });
    expect(summary.relations).toMatchObject({ valid: 5, unresolved: 1, created: 0 });
    expect((await exported(engram)).items).toEqual([]);
  });
});

describe('re-runs', () => {
  it('update what changed at its source, never an edit made in engram or a forgotten memory', async () => {
    const dir = markdownCopy();
    const engram = importEngram();
    await importFrom(engram, { format: 'markdown', path: dir });
    const url = (rel: string) => pathToFileURL(join(dir, rel)).href;
    const { items } = await exported(engram);
    const ledgerline = byUrl(items, url('projects/ledgerline.md'));
    const runbook = byUrl(items, url('runbooks/Payments Runbook.md'));
    await engram.revise(ledgerline.id, { body: 'Edited in engram.', actor: 'me' });
    await engram.forget(runbook.id);
    for (const rel of ['index.md', 'projects/ledgerline.md', 'runbooks/Payments Runbook.md'])
      appendFileSync(join(dir, rel), '\nOne more line.\n');

    const results: ImportResult[] = [];
    const out = await importFrom(engram, {
      format: 'markdown',
      path: dir,
      onResults: (r) => results.push(...r),
    });
    expect(out.summary).toMatchObject({ created: 0, updated: 1, exists: 2 });
    const status = Object.fromEntries(results.map((r) => [r.record, [r.status, r.warnings ?? []]]));
    expect(status['index.md']).toEqual(['updated', []]);
    expect(status['projects/ledgerline.md']).toEqual([
      'exists',
      [
        'link [[Northwind Bank]] matches no note: left out',
        'changed at its source and edited in engram since its import: engram’s version is kept',
      ],
    ]);
    expect(status['runbooks/Payments Runbook.md']).toEqual([
      'exists',
      ['changed at its source, but forgotten in engram: left as it is'],
    ]);
    const after = await exported(engram);
    const home = byUrl(after.items, url('index.md'));
    expect([home.version, home.body.endsWith('One more line.')]).toEqual([2, true]);
    expect(byUrl(after.items, url('projects/ledgerline.md')).body).toBe('Edited in engram.');
    const history = await engram.history(home.id);
    expect(history.versions.map((v) => v.actor)).toEqual(['engram import', 'engram import']);

    const third = await importFrom(engram, { format: 'markdown', path: dir });
    expect(third.summary).toMatchObject({ created: 0, updated: 0, exists: 3 });
  });
});

describe('fitting a note to the body limit', () => {
  it('cuts a note too large for one memory into sections, and a section into parts', async () => {
    const engram = importEngram({ limits: { max_body_bytes: 1_024 } });
    const dir = join(tempDir(), 'notes');
    mkdirSync(dir);
    const para = (word: string, n: number) => Array.from({ length: n }, () => word).join(' ');
    const note = `# Big\n\n${para('intro', 100)}\n\n## Small\n\n${para('small', 20)}\n\n## Huge\n\n${para('alpha', 250)}\n\n${para('beta', 150)}\n`;
    writeFileSync(join(dir, 'big.md'), note);
    const out = await importFrom(engram, { format: 'markdown', path: dir });
    expect(out.summary).toMatchObject({ created: 5, error: 0, warned: 1 });
    const { items } = await exported(engram);
    expect(items.every((i) => Buffer.byteLength(i.body) <= 1_024)).toBe(true);
    expect(items.map((i) => i.title).sort()).toEqual([
      'Big',
      'Big › Huge',
      'Big › Huge (part 2)',
      'Big › Huge (part 3)',
      'Big › Small',
    ]);
  });
});

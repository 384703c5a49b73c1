import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DocSection, DocsIndex } from './docs-index.js';

const README = `# Demo

A small demo of the documentation index.

## Setup (two commands)

Run \`npm ci\` and then **npm start** to serve the [HTTP API](docs/http.md).

\`\`\`sh
# not a heading: a comment in a code fence
npm start
\`\`\`

## Empty

## Setup (two commands)

Repeated heading: GitHub numbers its anchor.
`;

const DOC_A = `# Alpha guide

### Vectors and rebuilds

A transition rebuilds vectors for the new embedding model, then swaps.

#### Details

Deeper headings stay in their section.

## Backups

The maintain job copies the SQLite file before it writes.
`;

const CLI = `# CLI reference

Generated.

## Global options

- \`--json\`: Print JSON instead of human tables.

## engram models

Embedding models.

### engram models use \\<model>

Move the store to another embedding model.

Help: \`engram models use --help\`

### engram jobs retry [id]

Queue a failed job again.

Help: \`engram jobs retry --help\`
`;

let root: string;
let index: DocsIndex;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'engram-docs-index-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'README.md'), README);
  writeFileSync(join(root, 'docs', 'a.md'), DOC_A);
  writeFileSync(join(root, 'docs', 'cli.md'), CLI);
  writeFileSync(join(root, 'docs', 'notes.txt'), '# Not markdown\n\nIgnored.\n');
  index = DocsIndex.load(root);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const find = (document: string, section: string): DocSection | undefined =>
  index
    .search(section, 100)
    .map((r) => r.section)
    .find((s) => s.document === document && s.section === section);

describe('DocsIndex sections', () => {
  it('splits README.md and docs/*.md at #, ## and ### headings, skipping empty sections and code fences', () => {
    const titles = index
      .search('demo setup commands alpha guide vectors backups cli json models jobs', 100)
      .map((r) => `${r.section.document} ${r.section.section}`)
      .sort();
    expect(titles).toEqual(
      [
        'README.md Demo',
        'README.md Setup (two commands)',
        'README.md Setup (two commands)',
        'docs/a.md Vectors and rebuilds',
        'docs/a.md Backups',
        'docs/cli.md CLI reference',
        'docs/cli.md Global options',
        'docs/cli.md engram models use <model>',
        'docs/cli.md engram jobs retry [id]',
      ].sort(),
    );
    // README: Demo, Setup, Setup ("Empty" has no text); a.md: Vectors, Backups ("Alpha guide" has
    // no own text); cli.md: the title, Global options and the two leaves (not the group).
    expect(index.size).toBe(9);
  });

  it('keeps code fence content and sub-headings below ### in the section text, stripped of markdown', () => {
    const setup = index
      .search('setup', 10)
      .find((r) => r.section.anchor === 'setup-two-commands')?.section;
    expect(setup?.text).toContain('Run npm ci and then npm start to serve the HTTP API.');
    expect(setup?.text).toContain('not a heading: a comment in a code fence\nnpm start');
    expect(setup?.text).not.toContain('```');
    expect(find('docs/a.md', 'Vectors and rebuilds')?.text).toContain(
      'Deeper headings stay in their section.',
    );
    expect(find('docs/a.md', 'Vectors and rebuilds')?.text).not.toContain('maintain job');
  });

  it('gives GitHub anchors, numbered on repeats, and document pointers', () => {
    const setups = index
      .search('setup commands', 10)
      .map((r) => r.section)
      .filter((s) => s.section === 'Setup (two commands)')
      .map((s) => [s.anchor, s.pointer])
      .sort();
    expect(setups).toEqual([
      ['setup-two-commands', 'README.md#setup-two-commands'],
      ['setup-two-commands-1', 'README.md#setup-two-commands-1'],
    ]);
    expect(find('docs/a.md', 'Vectors and rebuilds')?.pointer).toBe(
      'docs/a.md#vectors-and-rebuilds',
    );
  });

  it('points CLI leaf sections to their --help without argument placeholders, and skips group sections', () => {
    const use = find('docs/cli.md', 'engram models use <model>');
    expect(use?.anchor).toBe('engram-models-use-model');
    expect(use?.pointer).toBe('engram models use --help');
    expect(find('docs/cli.md', 'engram jobs retry [id]')?.pointer).toBe('engram jobs retry --help');
    expect(find('docs/cli.md', 'Global options')?.pointer).toBe('docs/cli.md#global-options');
    expect(find('docs/cli.md', 'engram models')).toBeUndefined();
  });
});

describe('DocsIndex search', () => {
  it('ranks the section naming the query words first, scores positive and descending', () => {
    const found = index.search('move the store to another embedding model', 5);
    expect(found[0]?.section.pointer).toBe('engram models use --help');
    expect(found.every((r) => r.score > 0)).toBe(true);
    expect(found.map((r) => r.score)).toEqual([...found.map((r) => r.score)].sort((a, b) => b - a));
    expect(index.search('sqlite backups', 3)[0]?.section.section).toBe('Backups');
  });

  it('counts heading words double', () => {
    // Same lengths; the word once in the first's text, once in the second's heading: the heading
    // wins only when it counts more than text (a tie keeps document order).
    const folder = mkdtempSync(join(tmpdir(), 'engram-docs-heading-'));
    try {
      writeFileSync(
        join(folder, 'README.md'),
        '## Alpha\n\nzebra words here.\n\n## Zebra\n\nother words here.\n',
      );
      expect(
        DocsIndex.load(folder)
          .search('zebra', 2)
          .map((r) => r.section.section),
      ).toEqual(['Zebra', 'Alpha']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('honours the limit and returns nothing for stop words or unknown words', () => {
    expect(index.search('setup commands demo', 1)).toHaveLength(1);
    expect(index.search('embedding', 0)).toEqual([]);
    expect(index.search('', 5)).toEqual([]);
    expect(index.search('the and of', 5)).toEqual([]);
    expect(index.search('zebra', 5)).toEqual([]);
  });

  it('is empty for a folder without documentation, and cached per root', () => {
    const empty = mkdtempSync(join(tmpdir(), 'engram-docs-empty-'));
    try {
      expect(DocsIndex.load(empty).size).toBe(0);
      expect(DocsIndex.load(empty).search('anything', 3)).toEqual([]);
      expect(DocsIndex.load(join(empty, 'missing')).size).toBe(0);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    expect(DocsIndex.load(root)).toBe(index);
  });
});

describe('DocsIndex on engram itself', () => {
  it('finds the README and the models guide or CLI reference for a transition question', () => {
    const own = DocsIndex.load();
    expect(
      own.search('setup fresh machine', 10).some((r) => r.section.document === 'README.md'),
    ).toBe(true);
    const top = own.search('move the store to another embedding model', 3).map((r) => r.section);
    expect(top.some((s) => s.document === 'docs/models.md' || s.document === 'docs/cli.md')).toBe(
      true,
    );
  });
});

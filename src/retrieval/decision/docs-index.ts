/**
 * engram's own documentation as a searchable index, for the decision stage's `docs` candidate
 * source (§5.3): README.md and docs/*.md split into sections at their `#`, `##` and `###`
 * headings, ranked by BM25. The leaf sections of the generated CLI reference (docs/cli.md) point
 * to the command's `--help`; every other section to its document and anchor. It reads markdown
 * files only (never the CLI itself, never memory state).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One section of engram's documentation. */
export interface DocSection {
  /** Path relative to the package root: 'README.md', 'docs/models.md', 'docs/cli.md'. */
  document: string;
  /** The heading text, e.g. 'Transitions' or 'engram models use <model>'. */
  section: string;
  /** GitHub-style anchor of the heading ('transitions'). */
  anchor: string;
  /** The section's own text (without sub-sections), markdown lightly stripped, at most ~2,000 chars. */
  text: string;
  /** Where a reader goes: 'docs/models.md#transitions', or for a CLI leaf section 'engram models use --help'. */
  pointer: string;
}

/** The generated CLI reference, whose `###` sections are commands. */
const CLI_REFERENCE = 'docs/cli.md';
const MAX_TEXT = 2000;
const K1 = 1.2;
const B = 0.75;

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can do does for from had has have how if in into is it its ' +
    'me my no not of on or so than that the their then there these this those to too was we ' +
    'were what when where which while who why will with you your'
  ).split(' '),
);

/** Lowercase words of letters and digits (two or more), without stop words; plural `s` folded. */
function tokenize(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .filter((w) => w.length >= 2 && !STOP_WORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/** Inline markdown reduced to its text: code spans, emphasis, links, escapes. */
function plainInline(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+/g, '')
    .replace(/\*\*|__|\*/g, '')
    .replace(/<!--.*?-->/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!<>|~])/g, '$1')
    .trim();
}

/** A section's lines as plain text: no fences, table rules, bullets or quote marks. */
function plainText(lines: readonly string[]): string {
  const out: string[] = [];
  for (const line of lines) {
    if (/^\s*(`{3,}|~{3,})/.test(line) || /^\s*\|?\s*:?-{3,}/.test(line)) continue;
    const text = plainInline(
      line
        .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/, '')
        .replace(/\s*\|\s*/g, ' ')
        .replace(/\s+/g, ' '),
    );
    if (text || out.at(-1)) out.push(text);
  }
  return out.join('\n').trim();
}

function truncate(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  const cut = text.slice(0, MAX_TEXT);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > MAX_TEXT / 2 ? space : MAX_TEXT).trimEnd()}…`;
}

/** The anchor GitHub gives a heading: lowercase, punctuation dropped, spaces as hyphens, -n on repeats. */
function slugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

interface RawSection {
  level: number;
  heading: string;
  anchor: string;
  lines: string[];
}

/** ATX headings outside fenced code; `#` to `###` open a section, all count for anchors. */
function splitSections(markdown: string): RawSection[] {
  const sections: RawSection[] = [];
  const slug = slugger();
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length)))
      fence = fence === null ? marker : null;
    const heading = fence === null ? /^\s{0,3}(#{1,6})\s+(.*?)(\s+#+)?\s*$/.exec(line) : null;
    if (heading) {
      const text = plainInline(heading[2] ?? '');
      const anchor = slug(text);
      if (heading[1]!.length <= 3) {
        sections.push({ level: heading[1]!.length, heading: text, anchor, lines: [] });
        continue;
      }
    }
    sections.at(-1)?.lines.push(line);
  }
  return sections;
}

/** `engram models use --help` for `engram models use <model>`: argument placeholders dropped. */
function helpPointer(heading: string): string {
  const words = heading.split(/\s+/).filter((w) => !/^[<[].*[>\]]$/.test(w));
  return `${words.join(' ')} --help`;
}

const isCommand = (heading: string) => /^engram(\s|$)/.test(heading);

interface Entry {
  section: DocSection;
  /** Term frequencies over the whole section text, heading words twice. */
  terms: Map<string, number>;
  length: number;
}

function entry(section: DocSection, fullText: string): Entry {
  const heading = tokenize(section.section);
  const words = [...heading, ...heading, ...tokenize(fullText)];
  const terms = new Map<string, number>();
  for (const w of words) terms.set(w, (terms.get(w) ?? 0) + 1);
  return { section, terms, length: words.length };
}

/** The indexed sections of one document (the CLI reference keeps its leaves, not its groups). */
function documentEntries(document: string, markdown: string): Entry[] {
  const cli = document === CLI_REFERENCE;
  return splitSections(markdown).flatMap((raw) => {
    const text = plainText(raw.lines);
    if (!text) return [];
    const command = cli && isCommand(raw.heading);
    if (command && raw.level !== 3) return [];
    const pointer = command ? helpPointer(raw.heading) : `${document}#${raw.anchor}`;
    const section = { document, section: raw.heading, anchor: raw.anchor, pointer };
    return [entry(Object.freeze({ ...section, text: truncate(text) }), text)];
  });
}

/** The folder of the package.json named "engram" above this module (src/, dist/ or dist/bin/). */
function packageRoot(): string | null {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'engram') return dir;
    } catch {
      // No package.json here (or not ours): look one folder up.
    }
    if (dirname(dir) === dir) return null;
  }
}

function readIfPresent(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** README.md and docs/*.md (sorted) under a root, as [document, markdown]; missing ones skipped. */
function readDocuments(root: string): [string, string][] {
  let names: string[] = [];
  try {
    names = readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md'));
  } catch {
    // No docs folder: the README alone.
  }
  const documents = ['README.md', ...names.sort().map((n) => `docs/${n}`)];
  return documents.flatMap((d) => {
    const text = readIfPresent(join(root, ...d.split('/')));
    return text === null ? [] : [[d, text] as [string, string]];
  });
}

const cache = new Map<string, DocsIndex>();

/** engram's documentation, sectioned and ranked by BM25 over section words. */
export class DocsIndex {
  private readonly entries: readonly Entry[];
  private readonly frequency = new Map<string, number>();
  private readonly meanLength: number;

  private constructor(documents: readonly [string, string][]) {
    this.entries = documents.flatMap(([document, markdown]) => documentEntries(document, markdown));
    for (const e of this.entries)
      for (const term of e.terms.keys())
        this.frequency.set(term, (this.frequency.get(term) ?? 0) + 1);
    const total = this.entries.reduce((sum, e) => sum + e.length, 0);
    this.meanLength = this.entries.length ? total / this.entries.length : 0;
  }

  /**
   * Reads README.md and docs/*.md under `root` (default: engram's package root); missing files
   * are skipped, and there is an empty index when there are none. One index per root is kept.
   */
  static load(root?: string): DocsIndex {
    const folder = root === undefined ? packageRoot() : resolve(root);
    const key = folder ?? '';
    let index = cache.get(key);
    if (!index) {
      index = new DocsIndex(folder === null ? [] : readDocuments(folder));
      cache.set(key, index);
    }
    return index;
  }

  /** How many sections are indexed. */
  get size(): number {
    return this.entries.length;
  }

  /** The best `limit` sections for a query by BM25 (heading words count double), best first. */
  search(query: string, limit: number): { section: DocSection; score: number }[] {
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0 || limit <= 0) return [];
    return this.entries
      .map((e, order) => ({ section: e.section, score: this.score(e, terms), order }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, limit)
      .map(({ section, score }) => ({ section, score }));
  }

  private score(e: Entry, terms: readonly string[]): number {
    const n = this.entries.length;
    let score = 0;
    for (const term of terms) {
      const tf = e.terms.get(term);
      if (!tf) continue;
      const df = this.frequency.get(term) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * e.length) / this.meanLength));
    }
    return score;
  }
}

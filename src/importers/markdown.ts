/**
 * `markdown`: a folder of Markdown notes (read recursively; folders starting with `.` are skipped),
 * or one note. Obsidian vaults and basic-memory folders are the common case.
 * - Front matter: `title`, `tags`, `kind` (or `type` when it names a kind), `area`, `created` (or
 *   `date`) become the memory's fields; every other key stays in the body as front matter.
 * - Title: the front matter's, else a leading `# Heading`, else the file name. Area: the front
 *   matter's, else the note's folder (below `--area`). Tags: the front matter's and inline `#tags`.
 * - `--split note` (default): one memory per note; a note larger than a memory may be becomes one
 *   per section. `--split section`: one per heading section, titled `Note › Heading`.
 * - `[[wiki links]]` (and relative `.md` links) become `related` relations between the memories;
 *   a link that matches no note is reported and left out.
 * Keys: the note's file URL, with the section's anchor.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, posix, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

import { toEngramError } from '../domain/errors.js';
import { areaSchema } from '../domain/input.js';
import { KINDS } from '../domain/types.js';
import { areaOf, fitTags, fitTitle, isoTime } from './common.js';
import { checkPath, decodeStrict, notUtf8 } from './files.js';
import { keptFrontMatter, splitFrontMatter } from './front-matter.js';
import type {
  ImportChunk,
  ImportDraft,
  Importer,
  ImportLink,
  ImportProblem,
  ImportReadOptions,
  ImportSkip,
} from './importer.js';
import { anchorOf, inlineTags, noteLinks, pieces, sections } from './markdown-parse.js';

/** One note read, and (once drafted) the memories it makes. */
interface Note {
  rel: string;
  key: string;
  title: string;
  /** Lowercase names a link may use: path without extension, file name, title, aliases... */
  names: string[];
  fields: Record<string, unknown>;
  /** What could not be kept as given, reported on the note's first memory. */
  warnings: string[];
  tags: string[];
  kept: string;
  body: string;
  drafts: { draft: ImportDraft; text: string }[];
  anchors: Map<string, string>;
}

/** Notes per chunk. */
const CHUNK = 1_000;
const NOTE_FILE = /\.(md|markdown)$/iu;

/** The importer of Markdown folders. */
export const markdownImporter: Importer = { format: 'markdown', read: readMarkdown };

async function* readMarkdown(
  path: string,
  options: ImportReadOptions,
): AsyncGenerator<ImportChunk> {
  const kind = checkPath(path, 'file or folder');
  const root = kind === 'folder' ? resolve(path) : dirname(resolve(path));
  const files = kind === 'folder' ? noteFiles(root) : [resolve(path)];
  const problems: ImportProblem[] = [];
  const skipped: ImportSkip[] = [];
  const notes: Note[] = [];
  for (const file of files) {
    const rel = relative(root, file).split(sep).join('/');
    try {
      notes.push(readNote(file, rel, options));
    } catch (err) {
      const e = toEngramError(err);
      problems.push({
        record: rel,
        error: { code: e.code, message: e.message, field: e.details.field },
      });
    }
  }
  for (const note of notes) draftNote(note, options, skipped);
  const links = resolveLinks(notes);
  let done = problems.length;
  for (let at = 0; at < notes.length || at === 0; at += CHUNK) {
    const batch = notes.slice(at, at + CHUNK);
    done += batch.length;
    const mine = new Set(batch.map((n) => n.rel));
    yield {
      drafts: batch.flatMap((n) => n.drafts.map((d) => d.draft)),
      links: links.filter((l) => mine.has(l.note)).map((l) => l.link),
      problems: at === 0 ? problems : [],
      skipped: skipped.filter((s) => mine.has(s.record)),
      done,
      total: files.length,
    };
  }
}

/** The note files below a folder, in path order; hidden folders and node_modules are skipped. */
function noteFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (NOTE_FILE.test(e.name) && (e.isFile() || isLinkedFile(p))) out.push(p);
    }
  };
  visit(root);
  return out.sort();
}

function isLinkedFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/[,\s]+/u).filter((s) => s !== '');
  if (!Array.isArray(value)) return [];
  return value.filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
}

/** Areas of folders, slugged once per folder. */
const folderAreas = new Map<string, string | undefined>();

function folderArea(base: string | undefined, folder: string): string | undefined {
  const key = `${base ?? ''}\n${folder}`;
  if (!folderAreas.has(key)) folderAreas.set(key, areaOf(base, folder === '.' ? '' : folder));
  return folderAreas.get(key);
}

/** The memory fields a note's front matter gives, and the keys they were taken from. */
function fieldsOf(
  data: Record<string, unknown>,
  rel: string,
  options: ImportReadOptions,
  warnings: string[],
): { fields: Record<string, unknown>; taken: Set<string> } {
  const fields: Record<string, unknown> = {};
  const taken = new Set<string>();
  for (const key of ['kind', 'type'])
    if (fields.kind === undefined && KINDS.includes(data[key] as never)) {
      fields.kind = data[key];
      taken.add(key);
    }
  const area = typeof data.area === 'string' ? data.area : undefined;
  if (area !== undefined) taken.add('area');
  if (area !== undefined && areaSchema.safeParse(area).success) fields.area = area;
  else if (area !== undefined) {
    fields.area = areaOf(options.area, area);
    warnings.push(`area "${area}" is no engram area: ${fields.area ?? 'general'} is used`);
  } else fields.area = folderArea(options.area, posix.dirname(rel));
  for (const key of ['created', 'date']) {
    const at = isoTime(data[key]);
    if (at !== null && fields.created_at === undefined) {
      fields.created_at = at;
      taken.add(key);
    }
  }
  if (data.tags !== undefined) taken.add('tags');
  return { fields, taken };
}

function readNote(file: string, rel: string, options: ImportReadOptions): Note {
  const decoded = decodeStrict(readFileSync(file));
  if ('offset' in decoded) throw notUtf8('text', decoded.offset);
  const { front, body } = splitFrontMatter(decoded.text);
  const data = front.data;
  const warnings: string[] = [];
  const { fields, taken } = fieldsOf(data, rel, options, warnings);
  const name = basename(rel).replace(NOTE_FILE, '');
  const h1 = /^# +(.+?)[ \t#]*$/mu.exec(
    body.slice(0, 400).trimStart().split('\n', 1)[0] ?? '',
  )?.[1];
  const given = typeof data.title === 'string' && data.title.trim() ? data.title : undefined;
  if (given !== undefined) taken.add('title');
  const title = given ?? h1 ?? name;
  const aliases = [...strings(data.aliases), ...strings(data.permalink)];
  const names = [rel.replace(NOTE_FILE, ''), name, title, ...aliases].map((n) => n.toLowerCase());
  return {
    rel,
    key: pathToFileURL(file).href,
    title: fitTitle(title, options.limits),
    names,
    fields,
    warnings,
    tags: strings(data.tags),
    kept: keptFrontMatter(front, taken),
    body,
    drafts: [],
    anchors: new Map(),
  };
}

/** Makes the note's drafts: one for the note, or one per section (each cut to fit). */
function draftNote(note: Note, options: ImportReadOptions, skipped: ImportSkip[]): void {
  const max = options.limits.max_body_bytes;
  const warnings = note.warnings;
  if ((options.split ?? 'note') === 'note') {
    const text = `${note.kept}${note.body.trim()}`.trim();
    if (text === '') return void skipped.push({ record: note.rel, reason: 'empty note' });
    if (Buffer.byteLength(text, 'utf8') <= max) {
      note.drafts.push({
        draft: draft(note, note.rel, note.key, note.title, text, note.body, options, warnings),
        text: note.body,
      });
      return;
    }
    warnings.push(`larger than ${max} bytes: one memory per section`);
  }
  const parts = sections(note.body).filter((s) => s.text !== '');
  if (parts.length === 0 && note.kept === '')
    return void skipped.push({ record: note.rel, reason: 'empty note' });
  if (parts.length === 0) parts.push({ heading: null, level: 0, anchor: null, text: '' });
  for (const s of parts) {
    const key = s.anchor === null ? note.key : `${note.key}#${s.anchor}`;
    const record = s.anchor === null ? note.rel : `${note.rel}#${s.anchor}`;
    const title =
      s.heading === null || s.heading.toLowerCase() === note.title.toLowerCase()
        ? note.title
        : `${note.title} › ${s.heading}`;
    const first = note.drafts.length === 0;
    const text = `${first ? note.kept : ''}${s.text}`.trim();
    const cut = pieces(text, max);
    cut.forEach((piece, i) => {
      const k = i === 0 ? key : `${key}${s.anchor === null ? '#' : ''}~${i + 1}`;
      const r = i === 0 ? record : `${record} (part ${i + 1})`;
      const t = i === 0 ? title : `${title} (part ${i + 1})`;
      const d = draft(note, r, k, t, piece, s.text, options, first && i === 0 ? warnings : []);
      note.drafts.push({ draft: d, text: cut.length > 1 ? piece : s.text });
    });
    if (s.anchor !== null) note.anchors.set(s.anchor, key);
  }
}

function draft(
  note: Note,
  record: string,
  key: string,
  title: string,
  body: string,
  text: string,
  options: ImportReadOptions,
  warnings: string[],
): ImportDraft {
  const fields = note.fields;
  const tags = fitTags([...note.tags, ...inlineTags(text)], options.limits, warnings);
  return {
    record,
    key,
    input: { kind: 'note', ...fields, title: fitTitle(title, options.limits), body, tags },
    fields: {
      body: 'text',
      title: 'title',
      tags: 'tags',
      kind: 'kind',
      area: 'area',
      created_at: 'created',
    },
    warnings,
  };
}

/** Every note link between drafts; a link that matches no note warns on its draft. */
function resolveLinks(notes: readonly Note[]): { note: string; link: ImportLink }[] {
  const index = new Map<string, Note[]>();
  for (const n of notes)
    for (const name of new Set(n.names)) index.set(name, [...(index.get(name) ?? []), n]);
  const out: { note: string; link: ImportLink }[] = [];
  for (const n of notes)
    for (const { draft: d, text } of n.drafts) {
      const seen = new Set<string>();
      for (const link of noteLinks(text)) {
        const target = link.target === '' ? n : find(index, link.target, n);
        if (!target || target.drafts.length === 0) {
          d.warnings = [...(d.warnings ?? []), `link ${link.raw} matches no note: left out`];
          out.push({
            note: n.rel,
            link: { record: d.record, from: d.key, to: null, reason: link.raw },
          });
          continue;
        }
        const to =
          (link.heading && target.anchors.get(anchorOf(link.heading))) ||
          target.drafts[0]!.draft.key;
        if (to === d.key || seen.has(to)) continue;
        seen.add(to);
        const reason = `link ${link.raw} in ${n.rel}`;
        out.push({ note: n.rel, link: { record: d.record, from: d.key, to, reason } });
      }
    }
  return out;
}

/** The note a link names: by path (from the folder, else from the note), file name, title, alias. */
function find(index: ReadonlyMap<string, Note[]>, target: string, from: Note): Note | undefined {
  const t = target.replace(/\\/gu, '/').replace(NOTE_FILE, '').toLowerCase();
  const beside = posix.join(posix.dirname(from.rel.toLowerCase()), t);
  const found = t.startsWith('.')
    ? index.get(beside)
    : (index.get(t.replace(/^\/+/u, '')) ?? index.get(beside));
  if (!found || found.length < 2) return found?.[0];
  const folder = posix.dirname(from.rel);
  return found.find((n) => posix.dirname(n.rel) === folder) ?? found[0];
}

/**
 * Reading one Markdown note's text (no I/O): its heading sections, its wiki links
 * (`[[Note]]`, `[[Note|label]]`, `[[Note#Heading]]`) and relative Markdown links, its inline
 * `#tags`, and the cutting of a text too long for one memory at paragraph boundaries. Code blocks
 * and code spans hold no links and no tags.
 */
/** One heading section: the heading (null before the first one), its level, anchor and text. */
export interface Section {
  heading: string | null;
  level: number;
  /** The heading's anchor, unique in the note (`setup`, `setup-1`); null before the first one. */
  anchor: string | null;
  text: string;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/u;
const FENCE = /^ {0,3}(`{3,}|~{3,})/u;

/** The anchor of a heading as Markdown renderers make it: lowercase words joined by `-`. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/gu, '-');
}

/** The sections of a note body, in order; headings inside code blocks are text. */
export function sections(body: string): Section[] {
  const out: Section[] = [];
  const used = new Map<string, number>();
  let current: Section = { heading: null, level: 0, anchor: null, text: '' };
  const lines: string[] = [];
  let fence: string | null = null;
  const close = () => out.push({ ...current, text: lines.splice(0).join('\n').trim() });
  for (const line of body.split(/\r?\n/u)) {
    const f = FENCE.exec(line);
    if (f && (fence === null || f[1]!.startsWith(fence))) fence = fence === null ? f[1]! : null;
    const h = fence === null ? HEADING.exec(line) : null;
    if (!h) {
      lines.push(line);
      continue;
    }
    close();
    const heading = h[2]!.trim();
    const base = anchorOf(heading);
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    current = { heading, level: h[1]!.length, anchor: seen ? `${base}-${seen}` : base, text: '' };
  }
  close();
  return out;
}

/** Text without fenced code blocks and code spans (same line structure, code blanked). */
export function withoutCode(text: string): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const f = FENCE.exec(line);
      if (f && (fence === null || f[1]!.startsWith(fence))) {
        fence = fence === null ? f[1]! : null;
        return '';
      }
      return fence === null ? line.replace(/(`+)[^`]*?\1/gu, ' ') : '';
    })
    .join('\n');
}

/** A link to another note: its target (a name or a path; '' for the same note) and heading. */
export interface NoteLink {
  target: string;
  heading?: string;
  /** The link as written, for messages and the relation's reason. */
  raw: string;
}

const WIKI = /!?\[\[([^[\]\n]+?)\]\]/gu;
const MD_LINK = /\]\((?!https?:|mailto:)([^)\s]+?\.md)(#[^)\s]*)?\)/giu;
const FILE_EXT = /\.([A-Za-z0-9]{1,8})$/u;

/** The links of a text to other notes (embeds of images and other files are no note links). */
export function noteLinks(text: string): NoteLink[] {
  const out: NoteLink[] = [];
  const plain = withoutCode(text);
  for (const m of plain.matchAll(WIKI)) {
    const inner = m[1]!.split('|')[0]!.trim();
    const [target = '', heading] = inner.split('#');
    const ext = FILE_EXT.exec(target)?.[1]?.toLowerCase();
    if (ext !== undefined && ext !== 'md' && ext !== 'markdown' && !/\s/u.test(target)) continue;
    const h = heading?.startsWith('^') ? undefined : heading?.trim() || undefined;
    out.push({ target: target.trim(), ...(h ? { heading: h } : {}), raw: m[0] });
  }
  for (const m of plain.matchAll(MD_LINK)) {
    const target = safeDecode(m[1]!);
    const heading = m[2] ? safeDecode(m[2].slice(1)) : undefined;
    out.push({ target, ...(heading ? { heading } : {}), raw: `(${m[1]}${m[2] ?? ''})` });
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const INLINE_TAG = /(?:^|[\s(,])#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu;

/** Inline `#tags` of a text (Obsidian style: at least one character that is not a digit). */
export function inlineTags(text: string): string[] {
  const out: string[] = [];
  for (const m of withoutCode(text).matchAll(INLINE_TAG))
    if (/[^\d/]/u.test(m[1]!)) out.push(m[1]!.replace(/\/+$/u, ''));
  return out;
}

/**
 * A text cut into pieces of at most `maxBytes` UTF-8 bytes, at paragraph boundaries where it can,
 * else at line boundaries, else inside a line (never inside a character).
 */
export function pieces(text: string, maxBytes: number): string[] {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return [text];
  const out: string[] = [];
  let current = '';
  const push = (part: string, sep: string) => {
    const joined = current === '' ? part : `${current}${sep}${part}`;
    if (Buffer.byteLength(joined, 'utf8') <= maxBytes) return void (current = joined);
    if (current !== '') out.push(current);
    current = part;
  };
  for (const para of text.split(/\n{2,}/u))
    split(para, maxBytes).forEach((piece, i) => push(piece, i === 0 ? '\n\n' : '\n'));
  if (current !== '') out.push(current);
  return out.map((p) => p.trim()).filter((p) => p !== '');
}

/** A paragraph too long alone, cut at lines, and a line too long, cut between characters. */
function split(para: string, maxBytes: number): string[] {
  if (Buffer.byteLength(para, 'utf8') <= maxBytes) return [para];
  return para.split('\n').flatMap((line) => {
    if (Buffer.byteLength(line, 'utf8') <= maxBytes) return [line];
    const cut: string[] = [];
    let part = '';
    let bytes = 0;
    for (const ch of line) {
      const n = Buffer.byteLength(ch, 'utf8');
      if (bytes + n > maxBytes) {
        cut.push(part);
        part = '';
        bytes = 0;
      }
      part += ch;
      bytes += n;
    }
    return [...cut, part];
  });
}

/**
 * How wide text is on a terminal, in columns, and the two ways the CLI makes text fit a width:
 * cut to one line with an ellipsis, or wrapped into lines at word boundaries. Widths count
 * grapheme clusters: a wide (East Asian) character or an emoji takes two columns, a combining
 * mark none. The text is expected already escaped (printable.ts): controls have no width here.
 */

/** Made on first use: every command loads this module, few measure text beyond ASCII. */
let segmenter: Intl.Segmenter | undefined;

/** The grapheme clusters of a text: what a terminal draws as one character each. */
function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Code point ranges drawn two columns wide (East Asian Wide and Fullwidth). */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], // Hangul Jamo initial consonants
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
  [0x16fe0, 0x16fe4], // ideographic symbols
  [0x17000, 0x18cff], // Tangut
  [0x1b000, 0x1b2ff], // Kana supplement and extensions, Nushu
  [0x20000, 0x2fffd], // CJK extensions B to F, compatibility supplement
  [0x30000, 0x3fffd], // CJK extensions G and H
];

function isWide(codePoint: number): boolean {
  return WIDE.some(([lo, hi]) => codePoint >= lo && codePoint <= hi);
}

const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/u;
const EMOJI = /\p{Emoji}/u;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]/u;

/** Columns of one grapheme cluster: 0, 1 or 2. */
function graphemeWidth(g: string): number {
  // An emoji drawn as a picture: by default, or asked for with the variation selector U+FE0F.
  if (EMOJI_PRESENTATION.test(g) || (g.includes('\ufe0f') && EMOJI.test(g))) return 2;
  if (ZERO_WIDTH.test(g)) return 0;
  return isWide(g.codePointAt(0)!) ? 2 : 1;
}

/**
 * Text of characters one column wide each, none combining, so no need to segment: ASCII, Latin
 * letters, general punctuation (… included), arrows, box drawing and blocks (the tables' own).
 */
const NARROW = /^[\x20-\x7e\u00a0-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u259f]*$/u;

/** Columns a text takes on a terminal. */
export function displayWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  let width = 0;
  for (const g of graphemes(text)) width += graphemeWidth(g);
  return width;
}

/** The longest start of `text` at most `width` columns wide (at least one grapheme), and the rest. */
function cut(text: string, width: number): [string, string] {
  if (NARROW.test(text)) {
    const n = Math.max(1, width);
    return [text.slice(0, n), text.slice(n)];
  }
  const parts = graphemes(text);
  let used = 0;
  let n = 0;
  while (n < parts.length) {
    const w = graphemeWidth(parts[n]!);
    if (used + w > width && n > 0) break;
    used += w;
    n++;
  }
  return [parts.slice(0, n).join(''), parts.slice(n).join('')];
}

/** A text cut to at most `width` columns: unchanged when it fits, else its start and `…`. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return '…';
  return `${cut(text, width - 1)[0].trimEnd()}…`;
}

/**
 * A line of text wrapped into lines of at most `width` columns, broken at spaces (runs of spaces
 * count as one); a word wider than `width` is broken inside.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line: string | undefined;
  let used = 0;
  for (const word of text.trim().split(/ +/u)) {
    const w = displayWidth(word);
    if (line !== undefined && used + 1 + w <= width) {
      line += ` ${word}`;
      used += 1 + w;
      continue;
    }
    if (line !== undefined) lines.push(line);
    let rest = word;
    while (displayWidth(rest) > width) {
      const [head, tail] = cut(rest, width);
      lines.push(head);
      rest = tail;
    }
    line = rest;
    used = displayWidth(rest);
  }
  lines.push(line ?? '');
  return lines;
}

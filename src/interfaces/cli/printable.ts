/**
 * Text from the store (bodies, titles, areas, tags, entity names, error texts) shown on a terminal
 * in human output: control characters and terminal escapes are shown escaped, never sent raw, so
 * a memory cannot move the cursor, recolour, retitle or clear the user's terminal, or reorder
 * the text around it. JSON output (--json) is never escaped here: JSON.stringify escapes C0
 * controls itself, and the exact text is what a program reads.
 *
 * The choice for `\n` and `\t`: multi-line views (`get`'s body, `history`) keep them as they are,
 * since they are the body's own layout; a one-line place (a table cell) shows them escaped. A
 * lone backslash is left alone, so `\x1b` in the output can also be the literal text `\x1b`.
 */

/** Named escapes for the common controls; others are `\xHH` (up to U+00FF) or `\uHHHH`. */
const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

// C0 controls, DEL, C1 controls (CSI, OSC...), bidirectional controls, line/paragraph separators.
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;
// eslint-disable-next-line no-control-regex -- as UNSAFE, with tab and newline
const UNSAFE_IN_LINE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;

function escapeChar(c: string): string {
  const code = c.codePointAt(0)!;
  if (NAMED[c]) return NAMED[c];
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text for a multi-line view: every control shown escaped except `\n` and `\t`. */
export function printable(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Text for one line (a table cell): every control shown escaped, `\n` and `\t` included. */
export function printableLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, escapeChar);
}

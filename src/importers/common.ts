/**
 * What the importers share: the keys that name an original record (a URI kept in `source.url`),
 * names of another tool turned into engram spaces, areas and tags, and dates read leniently.
 */
import { createHash } from 'node:crypto';

import type { InputLimits } from '../domain/input.js';

/** The actor of every version an import writes, so a re-run knows which versions are its own. */
export const IMPORT_ACTOR = 'engram import';

/** Longest key kept whole (`source.url` allows 2,000 characters). */
const MAX_KEY = 1_900;

/** A short, stable hash of a text (hex). */
export function shortHash(text: string, length = 12): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/**
 * The key of an original record: `scheme:part/part`, each part URI-encoded. A key too long for
 * `source.url` keeps its start and a hash of the whole, so it stays unique and stable.
 */
export function recordKey(scheme: string, ...parts: readonly string[]): string {
  const key = `${scheme}:${parts.map((p) => encodeURIComponent(p)).join('/')}`;
  return key.length <= MAX_KEY ? key : `${key.slice(0, MAX_KEY - 17)}~${shortHash(key, 16)}`;
}

/** One path segment as engram names allow it: lowercase letters, digits, `_`, `.` and `-`. */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/gu, '-')
    .replace(/-{2,}/gu, '-')
    .replace(/^[-.]+|[-.]+$/gu, '');
}

/**
 * An area: `base` (an engram area already, or none) followed by path segments of another tool,
 * each slugged (empty ones dropped); undefined when nothing is left.
 */
export function areaOf(
  base: string | undefined,
  ...segments: readonly (string | undefined)[]
): string | undefined {
  const parts = segments
    .flatMap((s) => (s === undefined ? [] : s.split('/')))
    .map(slug)
    .filter((s) => s !== '');
  const area = [...(base ? [base] : []), ...parts].join('/').slice(0, 128).replace(/\/+$/u, '');
  return area === '' ? undefined : area;
}

/** A space named after another tool's id: 1-64 letters, digits, `.`, `_` or `-`. */
export function spaceOf(id: string): string | undefined {
  const name = id
    .replace(/[^A-Za-z0-9._-]+/gu, '-')
    .replace(/^[^A-Za-z0-9]+/u, '')
    .slice(0, 64);
  return name === '' ? undefined : name;
}

/**
 * Tags as engram keeps them (no spaces or commas, within the limits), deduplicated in order. What
 * does not fit is reported in `warnings` instead of failing the whole record.
 */
export function fitTags(raw: readonly string[], limits: InputLimits, warnings: string[]): string[] {
  const out: string[] = [];
  for (const given of raw) {
    const tag = given
      .trim()
      .replace(/^#/u, '')
      .replace(/[\s,]+/gu, '-');
    if (tag === '' || out.includes(tag)) continue;
    if (tag.length > limits.max_tag_chars)
      warnings.push(`tag "${tag.slice(0, 40)}…" left out: longer than ${limits.max_tag_chars}`);
    else out.push(tag);
  }
  if (out.length > limits.max_tags) {
    warnings.push(`${out.length - limits.max_tags} tags left out: at most ${limits.max_tags}`);
    out.length = limits.max_tags;
  }
  return out;
}

/** A title cut to the limit (an ellipsis says so). */
export function fitTitle(title: string, limits: InputLimits): string {
  const t = title.trim();
  return t.length <= limits.max_title_chars ? t : `${t.slice(0, limits.max_title_chars - 1)}…`;
}

/**
 * A date-time of another tool as ISO 8601 UTC, or null when it is none. A time without an offset
 * (`2024-07-20T10:15:30.123456`) is read as UTC; a bare date as midnight UTC.
 */
export function isoTime(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'number' && Number.isFinite(value))
    return new Date(value < 1e12 ? value * 1000 : value).toISOString();
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim().replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/u, '$1T');
  const zoned = /T.*(?:Z|[+-]\d{2}:?\d{2})$/iu.test(text) || !text.includes('T');
  const ms = Date.parse(zoned ? text : `${text}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** True for a plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

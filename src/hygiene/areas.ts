/**
 * Area folding (§10): a structural key per area name, fold proposals between names that differ
 * only by case, punctuation, plural or one typo, the checks an explicit fold passes, and the
 * judgement of a proposed pair by sample content. Pure functions: the dream run reads the areas
 * and the samples, asks these, and applies at most its cap of folds.
 */
import { invalidInput } from '../domain/errors.js';

/** An area of a space and how many live items it holds. */
export interface AreaCount {
  area: string;
  items: number;
}

/** Why two area names look like one, from the surest to the riskiest. */
export const FOLD_REASONS = ['case', 'punctuation', 'plural', 'edit_distance'] as const;
/** One of {@link FOLD_REASONS}. */
export type FoldWhy = (typeof FOLD_REASONS)[number];

/** A proposed fold: move the `items` of `from` into `to`, because their names differ by `why`. */
export interface FoldCandidate {
  from: string;
  to: string;
  items: number;
  why: FoldWhy;
}

/** The content judgement of a pair: the similarity, the bar it had to reach, and the verdict. */
export interface FoldJudgement {
  similarity: number;
  bar: number;
  verdict: 'fold' | 'uncertain';
}

/** Shortest segment key (both sides) on which a one-edit difference is proposed at all. */
export const MIN_EDIT_LENGTH = 6;
/**
 * What an edit-distance pair needs above the fold threshold: one letter can change the topic
 * (`landing`/`lending`), so its sample content must agree more than a case or plural variant's.
 */
export const EDIT_DISTANCE_MARGIN = 0.05;
/** Vectors each sample needs for a `fold` verdict (a one-item source: its one vector, matched). */
export const MIN_SAMPLE = 2;

// Words the suffix rules would break: not plurals, or plurals of nothing an area is called.
const UNCHANGED: ReadonlySet<string> = new Set(
  `news series species physics mathematics economics politics ethics kubernetes windows macos
chaos lens bias canvas alias atlas always perhaps`.split(/\s+/u),
);
// Plurals whose singular the suffix rules get wrong.
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['statuses', 'status'],
  ['analyses', 'analysis'],
  ['viruses', 'virus'],
  ['caches', 'cache'],
  ['niches', 'niche'],
  ['movies', 'movie'],
  ['cookies', 'cookie'],
  ['calories', 'calorie'],
]);
// First match wins: -ss/-us/-is are singular (class, status, analysis); then -ies, -es, -s.
const SUFFIX_RULES: readonly (readonly [RegExp, string])[] = [
  [/(?:ss|us|is)$/u, '$&'],
  [/(.[^aeiou])ies$/u, '$1y'],
  [/(ss|sh|ch|x|zz)es$/u, '$1'],
  [/([^s])s$/u, '$1'],
];

/** The singular of one lower-case word by simple English rules; short words stay as they are. */
function singular(word: string): string {
  if (word.length < 4 || UNCHANGED.has(word)) return word;
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  const rule = SUFFIX_RULES.find(([pattern]) => pattern.test(word));
  return rule ? word.replace(rule[0], rule[1]) : word;
}

function lower(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The words of one path segment: lower case, split on anything but letters and digits. */
function words(segment: string): string[] {
  return lower(segment)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Each `/` segment as its words joined by `-`, optionally changed word by word. */
function segmentForm(area: string, word: (w: string) => string): string {
  return area
    .split('/')
    .map((segment) => words(segment).map(word).join('-'))
    .join('/');
}

/**
 * The structural key of an area name: lower case, every run of punctuation or separators (`-`,
 * `_`, `.`, spaces) as one `-`, `/` kept as the hierarchy separator, each word singular
 * (`Projects/Billing_Notes` -> `project/billing-note`). Names with one key are one area.
 */
export function areaKey(area: string): string {
  return segmentForm(area, singular);
}

/** True for a system area: its first segment starts with `_` (§1.1). */
export function isSystemArea(area: string): boolean {
  return area.startsWith('_');
}

/** The digits of a segment, in order: two segments that differ there are different things. */
function digitsOf(segment: string): string {
  return (segment.match(/\p{N}+/gu) ?? []).join(' ');
}

/** True when one insertion, deletion, substitution or swap of adjacent characters turns a into b. */
function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && long[i] === short[i]) i += 1;
  if (long.length !== short.length) return long.slice(i + 1) === short.slice(i);
  if (long.slice(i + 1) === short.slice(i + 1)) return true;
  return (
    long[i] === short[i + 1] && long[i + 1] === short[i] && long.slice(i + 2) === short.slice(i + 2)
  );
}

/**
 * True when two keys differ in exactly one segment, by one edit, both at least
 * {@link MIN_EDIT_LENGTH} long, with the same digits (`v1`/`v2`, `2023`/`2024` are not typos).
 */
function editNeighbours(keyA: string, keyB: string): boolean {
  const a = keyA.split('/');
  const b = keyB.split('/');
  if (a.length !== b.length) return false;
  const differing = a.flatMap((segment, i) => (segment === b[i] ? [] : [[segment, b[i] ?? '']]));
  const [pair] = differing;
  if (differing.length !== 1 || pair === undefined) return false;
  const [x = '', y = ''] = pair;
  if (Math.min(x.length, y.length) < MIN_EDIT_LENGTH) return false;
  return digitsOf(x) === digitsOf(y) && oneEdit(x, y);
}

/** An area with the forms its name is compared in. */
interface Named extends AreaCount {
  lower: string;
  punctuation: string;
  key: string;
}

function named({ area, items }: AreaCount): Named {
  return {
    area,
    items,
    lower: lower(area),
    punctuation: segmentForm(area, (w) => w),
    key: areaKey(area),
  };
}

/** Why two different names look like one area (the surest reason that holds), or null. */
function relation(a: Named, b: Named): FoldWhy | null {
  if (a.area === b.area) return null;
  if (a.lower === b.lower) return 'case';
  if (a.punctuation === b.punctuation) return 'punctuation';
  if (a.key === b.key) return 'plural';
  return editNeighbours(a.key, b.key) ? 'edit_distance' : null;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Target first: more items; on a tie an all-lower-case name; then the smaller name. */
function byDirection(a: Named, b: Named): number {
  const lowerCase = Number(b.area === b.lower) - Number(a.area === a.lower);
  return b.items - a.items || lowerCase || compareText(a.area, b.area);
}

/** Surest reason first, then the larger source, then the source name. */
function byConfidence(a: FoldCandidate, b: FoldCandidate): number {
  const rank = FOLD_REASONS.indexOf(a.why) - FOLD_REASONS.indexOf(b.why);
  return rank || b.items - a.items || compareText(a.from, b.from);
}

/** Areas that may take part: one entry per name, no system areas, no empty areas. */
function foldable(areas: readonly AreaCount[]): Named[] {
  const items = new Map<string, number>();
  for (const { area, items: n } of areas) items.set(area, (items.get(area) ?? 0) + n);
  return [...items]
    .filter(([area, n]) => n > 0 && !isSystemArea(area))
    .map(([area, n]) => named({ area, items: n }));
}

/** Groups of areas linked, directly or through one another, by any relation. */
function groupsOf(areas: readonly Named[]): Named[][] {
  const parent = areas.map((_, i) => i);
  const root = (i: number): number => {
    const p = parent[i] ?? i;
    return p === i ? i : (parent[i] = root(p));
  };
  areas.forEach((a, i) =>
    areas.slice(i + 1).forEach((b, k) => {
      if (relation(a, b) !== null) parent[root(i + 1 + k)] = root(i);
    }),
  );
  const groups = new Map<number, Named[]>();
  areas.forEach((a, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), a]));
  return [...groups.values()];
}

/**
 * One candidate per non-target member into the group's target. A member linked to the target
 * only through a chain of one-edit steps has no reason of its own and is left alone.
 */
function candidatesOf(group: readonly Named[]): FoldCandidate[] {
  const [to, ...rest] = [...group].sort(byDirection);
  if (to === undefined) return [];
  return rest.flatMap((from) => {
    const why = relation(from, to);
    return why === null ? [] : [{ from: from.area, to: to.area, items: from.items, why }];
  });
}

/**
 * Fold proposals among the areas of one space: names with one key (case, punctuation, plural)
 * or one edit apart, grouped transitively so that all variants fold into one target (the most
 * items; on a tie the all-lower-case name, then the smaller). System areas, empty sources and
 * equal names are never proposed. Surest reason first, then the larger source.
 */
export function proposeFolds(areas: readonly AreaCount[]): FoldCandidate[] {
  return groupsOf(foldable(areas)).flatMap(candidatesOf).sort(byConfidence);
}

/**
 * Validates an explicit fold of `from` into `to` (`engram area fold FROM TO`): refuses system
 * areas on either side, equal names and an empty source with INVALID_INPUT naming the field and
 * the rule. Returns the number of items the fold moves.
 */
export function checkFold(from: string, to: string, areas: readonly AreaCount[]): number {
  if (isSystemArea(from))
    throw invalidInput('from', 'must not be a system area', `from: ${from} is a system area`);
  if (isSystemArea(to))
    throw invalidInput('to', 'must not be a system area', `to: ${to} is a system area`);
  if (from === to) throw invalidInput('to', 'must differ from from', `to: equals from (${from})`);
  const items = areas.reduce((n, a) => (a.area === from ? n + a.items : n), 0);
  if (items <= 0) throw invalidInput('from', 'must hold items', `from: ${from} holds no items`);
  return items;
}

/** The similarity a pair must reach: the threshold, plus the margin for edit-distance pairs. */
export function foldBar(threshold: number, why?: FoldWhy): number {
  const bar = why === 'edit_distance' ? threshold + EDIT_DISTANCE_MARGIN : threshold;
  return Math.round(bar * 1e9) / 1e9;
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length)
    throw invalidInput('sample', 'vectors of one dimension', 'sample: vectors differ in dimension');
  return a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
}

/** A vector with its length, so that cosines re-normalise in double precision. */
interface Normed {
  vector: Float32Array;
  length: number;
}

function normed(vector: Float32Array): Normed {
  return { vector, length: Math.sqrt(dot(vector, vector)) };
}

function cosine(a: Normed, b: Normed): number {
  if (a.length === 0 || b.length === 0) return 0;
  return dot(a.vector, b.vector) / (a.length * b.length);
}

/** The best cosine of one vector against a set of vectors (0 for an empty set). */
function bestMatch(vector: Normed, others: readonly Normed[]): number {
  return others.reduce((best, other) => Math.max(best, cosine(vector, other)), 0);
}

/** Enough sample for a verdict: two vectors a side, or a one-item source that matches. */
function enoughSample(best: readonly number[], toCount: number, bar: number): boolean {
  if (toCount < MIN_SAMPLE || best.length === 0) return false;
  return best.length >= MIN_SAMPLE || best.every((s) => s >= bar);
}

/**
 * Judges a proposed fold by sample content. The similarity is the mean, over the source's
 * sample, of each vector's best cosine in the target's sample (vectors re-normalised): it asks
 * whether every source item looks like something already in the target. A centroid cosine was
 * not chosen: two mixed areas can have close centroids while no item of one resembles any of
 * the other. `fold` needs the similarity at or above {@link foldBar} (edit-distance pairs: the
 * threshold plus {@link EDIT_DISTANCE_MARGIN}) and enough sample ({@link MIN_SAMPLE} vectors a
 * side; a source sample of one vector, that is a one-item source, must match by itself).
 * Anything else is `uncertain`, and the pair is left alone.
 */
export function judgeFold(
  fromSample: readonly Float32Array[],
  toSample: readonly Float32Array[],
  threshold: number,
  why?: FoldWhy,
): FoldJudgement {
  const to = toSample.map(normed);
  const best = fromSample.map((v) => bestMatch(normed(v), to));
  const similarity = best.length === 0 ? 0 : best.reduce((s, x) => s + x, 0) / best.length;
  const bar = foldBar(threshold, why);
  const fold = similarity >= bar && enoughSample(best, to.length, bar);
  return { similarity, bar, verdict: fold ? 'fold' : 'uncertain' };
}

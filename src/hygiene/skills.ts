/**
 * Skill library upkeep (§10): structural duplicates among the live skills of one space, and the
 * skills over the per-area cap of active skills. Pure functions over skill rows: the dream run
 * archives what they name. Reasons name the rule, never the text of a skill.
 */
import { invalidInput } from '../domain/errors.js';

/** A live skill of one space, as the upkeep rules see it (times epoch ms). */
export interface SkillItem {
  id: string;
  area: string;
  title: string | null;
  body: string;
  pinned: boolean;
  use_count: number;
  last_used_at: number | null;
  updated_at: number;
  created_at: number;
}

/** A structural duplicate: `lesser` repeats `keeper`, for the named rule. */
export interface SkillDuplicate {
  keeper: string;
  lesser: string;
  reason: string;
}

/** A skill to archive because its area holds more active skills than the cap. */
export interface SkillExcess {
  id: string;
  area: string;
  reason: string;
}

/** Rule: equal titles and the same steps (equal, or line sets at least {@link STEP_JACCARD} alike). */
export const SAME_TITLE_AND_STEPS = 'same title and steps';
/** Rule: equal normalised bodies, whatever the titles. */
export const SAME_STEPS = 'same steps';
/** Jaccard similarity of two skills' sets of step lines at which equal titles make a duplicate. */
export const STEP_JACCARD = 0.8;

// A list marker at the start of a line: `-`, `*`, `+`, `•`, `1.`, `1)`, followed by a space.
const LIST_MARKER = /^(?:[-*+•]|\d+[.)])(?:\s+|$)/u;

/** A skill with the forms it is compared in. */
interface Shape {
  skill: SkillItem;
  title: string;
  steps: string;
  lines: ReadonlySet<string>;
}

/** A title as compared: lower case, punctuation as spaces, whitespace collapsed. */
function normTitle(title: string | null): string {
  return (title ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** One step line as compared: lower case, no list marker, whitespace collapsed, no end stop. */
function normLine(line: string): string {
  const text = line.normalize('NFKC').toLowerCase().trim().replace(LIST_MARKER, '');
  return text
    .replace(/\s+/gu, ' ')
    .replace(/[.;:,!]+$/u, '')
    .trim();
}

/** The non-empty normalised step lines of a body. */
function stepLines(body: string): string[] {
  return body.split(/\r?\n/u).map(normLine).filter(Boolean);
}

function shape(skill: SkillItem): Shape {
  const lines = stepLines(skill.body);
  return { skill, title: normTitle(skill.title), steps: lines.join('\n'), lines: new Set(lines) };
}

/** |A ∩ B| / |A ∪ B| of two sets (0 when both are empty). */
function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const shared = [...a].filter((x) => b.has(x)).length;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** The rule by which two skills of one area are duplicates, or null. Untitled skills have no title rule. */
function duplicateRule(a: Shape, b: Shape): string | null {
  const sameSteps = a.steps !== '' && a.steps === b.steps;
  const sameTitle = a.title !== '' && a.title === b.title;
  if (sameTitle && (sameSteps || jaccard(a.lines, b.lines) >= STEP_JACCARD))
    return SAME_TITLE_AND_STEPS;
  return sameSteps ? SAME_STEPS : null;
}

function compare(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Keeper first: pinned, more uses, latest use, latest update, then the smaller id. */
function byKeeper(a: SkillItem, b: SkillItem): number {
  const never = Number.NEGATIVE_INFINITY;
  return (
    Number(b.pinned) - Number(a.pinned) ||
    compare(b.use_count, a.use_count) ||
    compare(b.last_used_at ?? never, a.last_used_at ?? never) ||
    compare(b.updated_at, a.updated_at) ||
    compare(a.id, b.id)
  );
}

/** Least used first: fewer uses, oldest use (never used oldest), oldest update, then larger id. */
function byLowestUse(a: SkillItem, b: SkillItem): number {
  const never = Number.NEGATIVE_INFINITY;
  return (
    compare(a.use_count, b.use_count) ||
    compare(a.last_used_at ?? never, b.last_used_at ?? never) ||
    compare(a.updated_at, b.updated_at) ||
    compare(b.id, a.id)
  );
}

/** Skills by area, areas in name order. */
function byArea(skills: readonly SkillItem[]): [string, SkillItem[]][] {
  const areas = new Map<string, SkillItem[]>();
  for (const skill of skills) areas.set(skill.area, [...(areas.get(skill.area) ?? []), skill]);
  return [...areas].sort(([a], [b]) => compare(a, b));
}

/** The lessers a keeper takes among the skills after it: unpinned, not yet taken, duplicates. */
function lessersOf(keeper: Shape, rest: readonly Shape[], taken: Set<string>): SkillDuplicate[] {
  return rest.flatMap((other) => {
    const rule =
      other.skill.pinned || taken.has(other.skill.id) ? null : duplicateRule(keeper, other);
    if (rule === null) return [];
    taken.add(other.skill.id);
    return [{ keeper: keeper.skill.id, lesser: other.skill.id, reason: rule }];
  });
}

/** Duplicates within one area: best keeper first, each skill a lesser at most once. */
function areaDuplicates(skills: readonly SkillItem[]): SkillDuplicate[] {
  const shapes = [...skills].sort(byKeeper).map(shape);
  const taken = new Set<string>();
  return shapes.flatMap((keeper, i) =>
    taken.has(keeper.skill.id) ? [] : lessersOf(keeper, shapes.slice(i + 1), taken),
  );
}

/**
 * Structural duplicates among live skills, within one area: equal titles (case, punctuation,
 * whitespace) with the same steps (normalised bodies equal, or their line sets at least
 * {@link STEP_JACCARD} alike), or equal normalised bodies whatever the titles. Bodies are
 * compared line by line in lower case, without list markers (`1.`, `-`, `*`), whitespace
 * collapsed. The keeper is pinned first, then the more used, the more recently used, the more
 * recently updated, the smaller id. A pinned skill is never a lesser; a lesser never keeps
 * another; each lesser appears once.
 */
export function skillDuplicates(skills: readonly SkillItem[]): SkillDuplicate[] {
  return byArea(skills).flatMap(([, list]) => areaDuplicates(list));
}

/** The excess of one area over the cap: unpinned skills, least used first. */
function areaExcess(area: string, skills: readonly SkillItem[], cap: number): SkillExcess[] {
  const over = skills.length - cap;
  if (over <= 0) return [];
  const reason = `area holds ${skills.length} active skills, cap ${cap}: least used`;
  return skills
    .filter((s) => !s.pinned)
    .sort(byLowestUse)
    .slice(0, over)
    .map((s) => ({ id: s.id, area, reason }));
}

/**
 * The skills to archive so that no area holds more than `maxActivePerArea` active skills: per
 * area, the excess by lowest use (fewest uses, oldest use with never used oldest, oldest update,
 * then the larger id). Pinned skills count toward the cap but are never chosen. Pass the skills
 * left after {@link skillDuplicates}' lessers are removed.
 */
export function skillCapExcess(
  skills: readonly SkillItem[],
  maxActivePerArea: number,
): SkillExcess[] {
  if (!Number.isInteger(maxActivePerArea) || maxActivePerArea < 0)
    throw invalidInput('max_active_per_area', 'must be a whole number, at least 0');
  return byArea(skills).flatMap(([area, list]) => areaExcess(area, list, maxActivePerArea));
}

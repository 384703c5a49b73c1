import { describe, expect, it } from 'vitest';

import { isEngramError } from '../domain/errors.js';
import {
  type AreaCount,
  areaKey,
  checkFold,
  EDIT_DISTANCE_MARGIN,
  foldBar,
  judgeFold,
  proposeFolds,
} from './areas.js';

const areas = (counts: Record<string, number>): AreaCount[] =>
  Object.entries(counts).map(([area, items]) => ({ area, items }));
const vec = (...xs: number[]): Float32Array => Float32Array.from(xs);

/** The error a call throws, for its code and details. */
function thrown(call: () => unknown): { code: string; details: Record<string, unknown> } {
  try {
    call();
  } catch (error) {
    if (isEngramError(error)) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('expected an EngramError');
}

describe('areaKey', () => {
  it('lower-cases, normalises separators to one "-" and keeps "/" as the hierarchy', () => {
    expect(areaKey('Projects/Billing_Notes')).toBe('project/billing-note');
    for (const name of ['meeting notes', 'Meeting.Notes', 'meeting__notes', '-meeting-notes-'])
      expect(areaKey(name)).toBe('meeting-note');
  });

  it('singularises every word by simple English rules', () => {
    const plurals = {
      projects: 'project',
      categories: 'category',
      queries: 'query',
      boxes: 'box',
      classes: 'class',
      addresses: 'address',
      branches: 'branch',
      dishes: 'dish',
      keys: 'key',
      ties: 'tie',
    };
    for (const [plural, one] of Object.entries(plurals)) {
      expect(areaKey(plural)).toBe(one);
      expect(areaKey(one)).toBe(one);
    }
  });

  it('leaves singular words ending in s, the exception list and short words alone', () => {
    for (const word of ['status', 'analysis', 'news', 'series', 'species', 'kubernetes', 'class'])
      expect(areaKey(word)).toBe(word);
    expect(areaKey('ops')).toBe('ops');
    expect(areaKey('aws')).toBe('aws');
  });

  it('maps irregular plurals to the singular the rules would get wrong', () => {
    expect(areaKey('statuses')).toBe('status');
    expect(areaKey('caches')).toBe(areaKey('cache'));
    expect(areaKey('movies')).toBe(areaKey('movie'));
  });
});

describe('proposeFolds: structural rules', () => {
  it('proposes case, punctuation and plural variants with their reason', () => {
    expect(proposeFolds(areas({ Billing: 2, billing: 5 }))).toEqual([
      { from: 'Billing', to: 'billing', items: 2, why: 'case' },
    ]);
    expect(proposeFolds(areas({ meeting_notes: 3, 'meeting-notes': 4 }))).toEqual([
      { from: 'meeting_notes', to: 'meeting-notes', items: 3, why: 'punctuation' },
    ]);
    expect(proposeFolds(areas({ 'projects/billing': 6, 'project/billing': 1 }))).toEqual([
      { from: 'project/billing', to: 'projects/billing', items: 1, why: 'plural' },
    ]);
  });

  it('proposes one edit (substitution, insertion, swap) in a long segment as edit_distance', () => {
    const pairs: [string, string][] = [
      ['projects/landing', 'projects/lending'],
      ['projects/billing', 'projects/biling'],
      ['marketing', 'marketnig'],
      ['deploy', 'deplay'],
    ];
    for (const [a, b] of pairs)
      expect(proposeFolds(areas({ [a]: 5, [b]: 2 }))).toEqual([
        { from: b, to: a, items: 2, why: 'edit_distance' },
      ]);
  });

  it('does not propose billing and building (two edits apart) at all', () => {
    expect(proposeFolds(areas({ 'projects/billing': 5, 'projects/building': 2 }))).toEqual([]);
  });

  it('never proposes edits in short segments, across depths or in two segments', () => {
    expect(proposeFolds(areas({ notes: 4, nodes: 2 }))).toEqual([]);
    expect(proposeFolds(areas({ event: 4, evnet: 2 }))).toEqual([]);
    expect(proposeFolds(areas({ 'work/landing': 4, 'work/landing/x': 2 }))).toEqual([]);
    expect(proposeFolds(areas({ 'clients/landing': 4, 'clientz/lending': 2 }))).toEqual([]);
  });

  it('never proposes names that differ by a digit', () => {
    expect(proposeFolds(areas({ 'release-v1': 4, 'release-v2': 2 }))).toEqual([]);
    expect(proposeFolds(areas({ 'report-2023': 4, 'report-2024': 2 }))).toEqual([]);
    expect(proposeFolds(areas({ project1: 4, project2: 2 }))).toEqual([]);
    expect(proposeFolds(areas({ release: 4, release1: 2 }))).toEqual([]);
  });

  it('never proposes system areas, equal names or empty sources', () => {
    expect(proposeFolds(areas({ _inbox: 4, inbox: 2 }))).toEqual([]);
    expect(proposeFolds(areas({ _Inbox: 4, _inbox: 2 }))).toEqual([]);
    expect(proposeFolds(areas({ '_sys/Notes': 4, '_sys/notes': 2 }))).toEqual([]);
    expect(proposeFolds([...areas({ notes: 3 }), ...areas({ notes: 2 })])).toEqual([]);
    expect(proposeFolds(areas({ Billing: 0, billing: 5 }))).toEqual([]);
    expect(proposeFolds(areas({ Billing: 0, billing: 0 }))).toEqual([]);
  });
});

describe('proposeFolds: direction, grouping and order', () => {
  it('folds the smaller area into the larger, whatever its form', () => {
    expect(proposeFolds(areas({ projects: 1, Project: 9 }))).toEqual([
      { from: 'projects', to: 'Project', items: 1, why: 'plural' },
    ]);
  });

  it('on a tie prefers the lower-case name, then the smaller name', () => {
    expect(proposeFolds(areas({ Billing: 3, billing: 3 }))[0]?.to).toBe('billing');
    expect(proposeFolds(areas({ billing: 3, Billing: 3 }))[0]?.to).toBe('billing');
    expect(proposeFolds(areas({ Billing: 3, BILLING: 3 }))[0]?.to).toBe('BILLING');
    expect(proposeFolds(areas({ meeting_notes: 2, 'meeting-notes': 2 }))[0]?.to).toBe(
      'meeting-notes',
    );
  });

  it('groups variants transitively into one target, one candidate each, surest first', () => {
    const folds = proposeFolds(areas({ Projects: 2, project: 3, projects: 9, PROJECT: 1 }));
    expect(folds).toEqual([
      { from: 'Projects', to: 'projects', items: 2, why: 'case' },
      { from: 'project', to: 'projects', items: 3, why: 'plural' },
      { from: 'PROJECT', to: 'projects', items: 1, why: 'plural' },
    ]);
  });

  it('leaves a member linked to the target only through a chain of edits alone', () => {
    // planter is one edit from planner and from plaster; plaster is two edits from planner.
    expect(proposeFolds(areas({ planner: 9, planter: 3, plaster: 2 }))).toEqual([
      { from: 'planter', to: 'planner', items: 3, why: 'edit_distance' },
    ]);
  });

  it('orders by reason, then by the larger source, across groups', () => {
    const folds = proposeFolds(
      areas({ landing: 9, lending: 8, Docs: 1, docs: 4, tasks: 20, task: 5, Tasks: 2 }),
    );
    expect(folds.map((f) => [f.from, f.why])).toEqual([
      ['Tasks', 'case'],
      ['Docs', 'case'],
      ['task', 'plural'],
      ['lending', 'edit_distance'],
    ]);
  });
});

describe('checkFold', () => {
  const counts = areas({ Billing: 2, billing: 5, _inbox: 3, empty: 0 });

  it('returns the items an allowed fold moves', () => {
    expect(checkFold('Billing', 'billing', counts)).toBe(2);
    expect(checkFold('billing', 'accounts/billing', counts)).toBe(5);
  });

  it('refuses system areas on either side, naming the field and the rule', () => {
    expect(thrown(() => checkFold('_inbox', 'billing', counts))).toEqual({
      code: 'INVALID_INPUT',
      details: { field: 'from', rule: 'must not be a system area' },
    });
    expect(thrown(() => checkFold('billing', '_inbox', counts)).details).toEqual({
      field: 'to',
      rule: 'must not be a system area',
    });
  });

  it('refuses equal names and empty or unknown sources', () => {
    expect(thrown(() => checkFold('billing', 'billing', counts)).details).toEqual({
      field: 'to',
      rule: 'must differ from from',
    });
    expect(thrown(() => checkFold('empty', 'billing', counts)).details).toEqual({
      field: 'from',
      rule: 'must hold items',
    });
    expect(thrown(() => checkFold('nowhere', 'billing', counts)).details.rule).toBe(
      'must hold items',
    );
  });
});

describe('judgeFold', () => {
  const e1 = vec(1, 0, 0);
  const e2 = vec(0, 1, 0);

  it('folds samples whose items match, re-normalising the vectors', () => {
    const judged = judgeFold([vec(2, 0, 0), vec(0, 3, 0)], [e1, e2, vec(0, 0, 1)], 0.8);
    expect(judged.similarity).toBeCloseTo(1, 6);
    expect(judged.verdict).toBe('fold');
  });

  it('takes the mean of best matches, not the cosine of centroids', () => {
    // Centroids point the same way, yet each source item matches the target only at 0.707.
    const judged = judgeFold([e1, e2], [vec(1, 1, 0), vec(1, 1, 0)], 0.8);
    expect(judged.similarity).toBeCloseTo(Math.SQRT1_2, 6);
    expect(judged.verdict).toBe('uncertain');
  });

  it('folds at the threshold, not below it', () => {
    const sample = [vec(3, 4, 0), vec(3, 4, 0)];
    const { similarity } = judgeFold(sample, [e1, e1], 0);
    expect(similarity).toBeCloseTo(0.6, 6);
    expect(judgeFold(sample, [e1, e1], similarity).verdict).toBe('fold');
    expect(judgeFold(sample, [e1, e1], similarity + 1e-6).verdict).toBe('uncertain');
  });

  it('requires the threshold plus a margin for edit-distance pairs', () => {
    expect(foldBar(0.8, 'edit_distance')).toBe(0.85);
    expect(foldBar(0.8, 'plural')).toBe(0.8);
    expect(EDIT_DISTANCE_MARGIN).toBe(0.05);
    const from = [vec(0.82, Math.sqrt(1 - 0.82 ** 2), 0), vec(0.82, Math.sqrt(1 - 0.82 ** 2), 0)];
    expect(judgeFold(from, [e1, e1], 0.8, 'plural').verdict).toBe('fold');
    const risky = judgeFold(from, [e1, e1], 0.8, 'edit_distance');
    expect(risky).toMatchObject({ bar: 0.85, verdict: 'uncertain' });
    expect(risky.similarity).toBeCloseTo(0.82, 5);
  });

  it('is uncertain when a sample is too small, however similar', () => {
    expect(judgeFold([e1, e1], [e1], 0.8).verdict).toBe('uncertain');
    expect(judgeFold([], [e1, e2], 0.8)).toMatchObject({ similarity: 0, verdict: 'uncertain' });
  });

  it('folds a one-item source only when its item matches', () => {
    expect(judgeFold([e1], [e1, e2], 0.8).verdict).toBe('fold');
    expect(judgeFold([vec(1, 1, 0)], [e1, e2], 0.8).verdict).toBe('uncertain');
  });

  it('refuses vectors of different dimensions', () => {
    expect(thrown(() => judgeFold([vec(1, 0)], [e1, e2], 0.8)).details.field).toBe('sample');
  });
});

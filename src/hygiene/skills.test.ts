import { describe, expect, it } from 'vitest';

import { isEngramError } from '../domain/errors.js';
import {
  SAME_STEPS,
  SAME_TITLE_AND_STEPS,
  skillCapExcess,
  skillDuplicates,
  type SkillItem,
} from './skills.js';

const STEPS = '1. Pull the branch\n2. Run the migrations\n3. Restart the worker';

function skill(id: string, over: Partial<SkillItem> = {}): SkillItem {
  return {
    id,
    area: 'ops',
    title: 'Deploy the service',
    body: STEPS,
    pinned: false,
    use_count: 0,
    last_used_at: null,
    updated_at: 1_000,
    created_at: 1_000,
    ...over,
  };
}

/** The pairs as `keeper>lesser:reason`, for short assertions. */
function pairs(skills: SkillItem[]): string[] {
  return skillDuplicates(skills).map((d) => `${d.keeper}>${d.lesser}:${d.reason}`);
}

describe('skillDuplicates: rules', () => {
  it('finds equal titles with the same steps, whatever case, punctuation and list markers', () => {
    const other = skill('b', {
      title: '  deploy THE service! ',
      body: '- pull the   branch.\n* Run the migrations\n\n+ restart the worker',
    });
    expect(pairs([skill('a', { use_count: 1 }), other])).toEqual([`a>b:${SAME_TITLE_AND_STEPS}`]);
  });

  it('finds equal titles whose step lines are at least 80% alike', () => {
    const five = 'one\ntwo\nthree\nfour\nfive';
    const a = skill('a', { body: five, use_count: 1 });
    expect(pairs([a, skill('b', { body: `${five}\nsix` })])).toEqual([
      `a>b:${SAME_TITLE_AND_STEPS}`,
    ]);
    expect(pairs([a, skill('c', { body: 'one\ntwo\nthree\nfour\nsix' })])).toEqual([]);
  });

  it('finds equal steps whatever the titles, and names the rule', () => {
    const found = skillDuplicates([skill('a'), skill('b', { title: 'Ship it' })]);
    expect(found).toEqual([{ keeper: 'a', lesser: 'b', reason: SAME_STEPS }]);
    expect(found[0]?.reason).not.toContain('branch');
  });

  it('does not pair different steps, other areas, or untitled skills by line overlap', () => {
    expect(pairs([skill('a'), skill('b', { body: 'Roll back the release' })])).toEqual([]);
    expect(pairs([skill('a'), skill('b', { area: 'dev' })])).toEqual([]);
    const five = 'one\ntwo\nthree\nfour\nfive';
    const untitled = { title: null, body: five };
    expect(
      pairs([skill('a', untitled), skill('b', { ...untitled, body: `${five}\nsix` })]),
    ).toEqual([]);
  });

  it('keeps numbers that are not list markers', () => {
    const a = skill('a', { title: 'x', body: '1.5 GB of disk' });
    expect(pairs([a, skill('b', { title: 'y', body: '5 GB of disk' })])).toEqual([]);
  });
});

describe('skillDuplicates: keeper', () => {
  it('keeps pinned, then more used, then recently used, then recently updated, then smaller id', () => {
    expect(pairs([skill('a', { use_count: 9 }), skill('b', { pinned: true })])[0]).toMatch(/^b>a/);
    expect(pairs([skill('a', { use_count: 1 }), skill('b', { use_count: 2 })])[0]).toMatch(/^b>a/);
    expect(pairs([skill('a'), skill('b', { last_used_at: 5 })])[0]).toMatch(/^b>a/);
    const used = { last_used_at: 5 };
    expect(pairs([skill('a', used), skill('b', { ...used, updated_at: 9_000 })])[0]).toMatch(
      /^b>a/,
    );
    expect(pairs([skill('b'), skill('a')])[0]).toMatch(/^a>b/);
  });

  it('never makes a pinned skill a lesser', () => {
    expect(pairs([skill('a', { pinned: true }), skill('b', { pinned: true })])).toEqual([]);
  });

  it('names each lesser once, all to the best keeper', () => {
    const found = pairs([skill('c'), skill('a', { use_count: 3 }), skill('b', { use_count: 1 })]);
    expect(found).toEqual([`a>b:${SAME_TITLE_AND_STEPS}`, `a>c:${SAME_TITLE_AND_STEPS}`]);
  });

  it('never lets a lesser keep another', () => {
    // b is a lesser of a (same title); c only repeats b's steps, so it stays for now.
    const a = skill('a', { use_count: 3, body: 'one\ntwo\nthree\nfour\nfive' });
    const b = skill('b', { use_count: 2, body: 'one\ntwo\nthree\nfour\nfive\nsix' });
    const c = skill('c', { title: 'Other', body: 'one\ntwo\nthree\nfour\nfive\nsix' });
    expect(pairs([a, b, c])).toEqual([`a>b:${SAME_TITLE_AND_STEPS}`]);
  });
});

describe('skillCapExcess', () => {
  it('archives the excess per area by lowest use', () => {
    const list = [
      skill('used', { use_count: 5 }),
      skill('never', { use_count: 1 }),
      skill('old', { use_count: 1, last_used_at: 10 }),
      skill('recent', { use_count: 1, last_used_at: 20 }),
      skill('dev1', { area: 'dev' }),
    ];
    const excess = skillCapExcess(list, 2);
    expect(excess.map((e) => [e.id, e.area])).toEqual([
      ['never', 'ops'],
      ['old', 'ops'],
    ]);
    expect(excess[0]?.reason).toContain('cap 2');
  });

  it('breaks ties by oldest update, then by the larger id', () => {
    const list = [skill('a', { updated_at: 5 }), skill('b', { updated_at: 1 }), skill('c')];
    expect(skillCapExcess(list, 2).map((e) => e.id)).toEqual(['b']);
    const tied = [skill('a'), skill('b'), skill('c')];
    expect(skillCapExcess(tied, 1).map((e) => e.id)).toEqual(['c', 'b']);
  });

  it('counts pinned skills toward the cap but never chooses them', () => {
    const list = [
      skill('p1', { pinned: true }),
      skill('p2', { pinned: true }),
      skill('used', { use_count: 9 }),
      skill('idle'),
    ];
    expect(skillCapExcess(list, 3).map((e) => e.id)).toEqual(['idle']);
    expect(skillCapExcess(list, 1).map((e) => e.id)).toEqual(['idle', 'used']);
  });

  it('returns nothing at or under the cap and refuses a bad cap', () => {
    expect(skillCapExcess([skill('a'), skill('b')], 2)).toEqual([]);
    const bad = (() => {
      try {
        skillCapExcess([], -1);
      } catch (error) {
        return isEngramError(error) ? error.code : 'other';
      }
      return 'none';
    })();
    expect(bad).toBe('INVALID_INPUT');
  });
});

import { describe, expect, it } from 'vitest';

import { queryTimeWindow } from './when.js';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const DAY_MS = 86_400_000;

describe('queryTimeWindow', () => {
  it.each([
    ['What was Sam doing on December 4, 2023?', '2023-12-04', 'December 4, 2023'],
    ['What happened on Dec 4th 2023?', '2023-12-04', 'Dec 4th 2023'],
    ['Which city was Calvin at on 3 October 2023?', '2023-10-03', '3 October 2023'],
    ['what did we decide on the 3rd of October, 2023', '2023-10-03', '3rd of October, 2023'],
    ['deploy notes from 2024-02-29', '2024-02-29', '2024-02-29'],
    ['Sept. 1, 2022 standup', '2022-09-01', 'Sept. 1, 2022'],
  ])('reads a day: %s', (query, iso, text) => {
    expect(queryTimeWindow(query)).toEqual({ from: day(iso), to: day(iso) + DAY_MS, text });
  });

  it.each([
    ['Which places in Canada was Evan visiting in July 2023?', '2023-07-01', '2023-08-01'],
    ['What did Jolene do in the last week of August, 2023?', '2023-08-01', '2023-09-01'],
    ['releases of December 2023', '2023-12-01', '2024-01-01'],
    ['the 2023-02 incident', '2023-02-01', '2023-03-01'],
  ])('reads a month: %s', (query, from, to) => {
    expect(queryTimeWindow(query)).toMatchObject({ from: day(from), to: day(to) });
  });

  it('reads a year only after a preposition', () => {
    expect(queryTimeWindow('What did Tim read in 2022?')).toMatchObject({
      from: day('2022-01-01'),
      to: day('2023-01-01'),
      text: 'in 2022',
    });
    expect(queryTimeWindow('during the year 2021, who led the team')).toMatchObject({
      from: day('2021-01-01'),
    });
    expect(queryTimeWindow('We have 2000 customers')).toBeNull();
    expect(queryTimeWindow('port 2022 is open')).toBeNull();
  });

  it('takes the most specific form at the first date', () => {
    expect(queryTimeWindow('between March 3, 2023 and May 2024')).toMatchObject({
      from: day('2023-03-03'),
      text: 'March 3, 2023',
    });
    expect(queryTimeWindow('in May 2023, not May 5, 2024')).toMatchObject({ text: 'May 2023' });
  });

  it.each([
    'May I ask what Melanie painted?',
    'Did they march 3 miles?',
    'What did Caroline do last week?',
    'When did John start surfing?',
    'version 2023.1 notes',
    'order 12 may 2023x',
    '',
  ])('finds no date in: %j', (query) => {
    expect(queryTimeWindow(query)).toBeNull();
  });

  it('refuses days that do not exist, and months out of range', () => {
    expect(queryTimeWindow('on February 30, 2023')).toBeNull();
    expect(queryTimeWindow('on 2023-13-01')).toBeNull();
    // The month form does not take over a refused day: the year after it is not a month.
    expect(queryTimeWindow('the 2023-13 report')).toBeNull();
  });

  describe('relative expressions, counted back from now', () => {
    // Sunday 29 November 2026, 15:30 UTC.
    const now = Date.parse('2026-11-29T15:30:00Z');
    const span = (from: string, to: string) => ({ from: day(from), to: day(to) + DAY_MS });

    it.each([
      ['What did I tell you today?', '2026-11-29', '2026-11-29', 'today'],
      ['What did we decide yesterday?', '2026-11-28', '2026-11-29', 'yesterday'],
      ['deploys this week', '2026-11-23', '2026-11-29', 'this week'],
      ['What did John do last week?', '2026-11-16', '2026-11-29', 'last week'],
      ['where did we go last weekend', '2026-11-16', '2026-11-29', 'last weekend'],
      ['notes from the past month', '2026-10-30', '2026-11-29', 'past month'],
      ['What did Caroline see last year?', '2024-11-28', '2026-11-29', 'last year'],
      ['the bug from 3 days ago', '2026-11-25', '2026-11-27', '3 days ago'],
      ['a couple of weeks ago we met', '2026-11-08', '2026-11-22', 'couple of weeks ago'],
      ['in the last 10 days', '2026-11-20', '2026-11-29', 'last 10 days'],
      ['over the past two weeks', '2026-11-16', '2026-11-29', 'past two weeks'],
    ])('%s', (query, from, to, text) => {
      expect(queryTimeWindow(query, now)).toEqual({ ...span(from, to), text });
    });

    it('are read only with a clock, and an absolute date wins', () => {
      expect(queryTimeWindow('What did we decide yesterday?')).toBeNull();
      expect(
        queryTimeWindow('What did Maria do last weekend before April 10, 2023?', now),
      ).toMatchObject({ from: day('2023-04-10'), text: 'April 10, 2023' });
      expect(queryTimeWindow('yesterday or last week?', now)).toMatchObject({ text: 'yesterday' });
      expect(queryTimeWindow('the last time we met', now)).toBeNull();
      expect(queryTimeWindow('this is the way', now)).toBeNull();
    });
  });
});

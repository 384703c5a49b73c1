/**
 * The time a query names ("What was Sam doing on December 4, 2023?", "in July 2023",
 * "during 2022", "2023-10-03", "yesterday", "last week", "3 days ago"), as a window of UTC
 * milliseconds [from, to). A month name must come with a year or a day and a year, so "may" and
 * "march" as verbs never count; a bare year must follow a preposition ("in 2022"), so quantities
 * ("2000 people") never count. An absolute date wins over a relative one; among several of a
 * kind, the first is taken.
 *
 * Relative expressions count back from `now` (the moment of the recall) and are read generously,
 * because the window only lends evidence and never filters: "yesterday" covers yesterday and
 * today, "this week" the last 7 days, "last week" the last 14, "last month" the last 62, "last
 * year" the last 732, "3 days ago" the days from 4 to 2 days back, "in the past 3 weeks" the last
 * 21 days. Days are UTC days.
 */

const MONTHS: Readonly<Record<string, number>> = {
  january: 0,
  jan: 0,
  february: 1,
  feb: 1,
  march: 2,
  mar: 2,
  april: 3,
  apr: 3,
  may: 4,
  june: 5,
  jun: 5,
  july: 6,
  jul: 6,
  august: 7,
  aug: 7,
  september: 8,
  sep: 8,
  sept: 8,
  october: 9,
  oct: 9,
  november: 10,
  nov: 10,
  december: 11,
  dec: 11,
};

const MONTH = `(${Object.keys(MONTHS).join('|')})\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '((?:19|20)\\d\\d)';
const DAY_MS = 86_400_000;

/** A window of time named by a query: `from` inclusive, `to` exclusive, UTC milliseconds. */
export interface TimeWindow {
  from: number;
  to: number;
  /** The words of the query that named it. */
  text: string;
}

type Reader = (m: RegExpExecArray) => { from: number; to: number } | null;

function day(year: number, month: number, date: number): { from: number; to: number } | null {
  const from = Date.UTC(year, month, date);
  // Date.UTC rolls 30 February over into March, month 13 into the next year: no such day.
  const at = new Date(from);
  if (at.getUTCMonth() !== month || at.getUTCDate() !== date) return null;
  return { from, to: from + DAY_MS };
}

/** Date forms, tried in order at each position: the most specific form wins. */
const FORMS: readonly { re: RegExp; read: Reader }[] = [
  // 2023-10-03
  {
    re: /\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b/y,
    read: (m) => day(Number(m[1]), Number(m[2]) - 1, Number(m[3])),
  },
  // December 4, 2023 / Dec 4th 2023
  {
    re: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+${YEAR}\\b`, 'iy'),
    read: (m) => day(Number(m[3]), MONTHS[m[1]!.toLowerCase()]!, Number(m[2])),
  },
  // 4 December 2023 / 4th of December, 2023
  {
    re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, 'iy'),
    read: (m) => day(Number(m[3]), MONTHS[m[2]!.toLowerCase()]!, Number(m[1])),
  },
  // 2023-10
  {
    re: /\b((?:19|20)\d\d)-(\d\d)\b/y,
    read: (m) => month(Number(m[1]), Number(m[2]) - 1),
  },
  // July 2023 / July, 2023 / July of 2023
  {
    re: new RegExp(`\\b${MONTH},?\\s+(?:of\\s+)?${YEAR}\\b`, 'iy'),
    read: (m) => month(Number(m[2]), MONTHS[m[1]!.toLowerCase()]!),
  },
  // in 2022 / during 2022 / throughout 2022
  {
    re: new RegExp(`\\b(?:in|during|throughout|of)\\s+(?:the\\s+year\\s+)?${YEAR}\\b`, 'iy'),
    read: (m) => ({ from: Date.UTC(Number(m[1]), 0, 1), to: Date.UTC(Number(m[1]) + 1, 0, 1) }),
  },
];

function month(year: number, m: number): { from: number; to: number } | null {
  if (m < 0 || m > 11) return null;
  return { from: Date.UTC(year, m, 1), to: Date.UTC(year, m + 1, 1) };
}

/** The time the query names (see the file header), or null when it names none. */
export function queryTimeWindow(query: string, now?: number): TimeWindow | null {
  return absoluteWindow(query) ?? (now === undefined ? null : relativeWindow(query, now));
}

const UNIT_DAYS: Readonly<Record<string, number>> = {
  day: 1,
  week: 7,
  weekend: 7,
  month: 31,
  year: 366,
};
const COUNTS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  few: 3,
  couple: 2,
};
const COUNT = `(\\d{1,3}|${Object.keys(COUNTS).join('|')})(?:\\s+of)?`;
const UNIT = '(day|week|weekend|month|year)s?';
/**
 * Relative forms; each gives the window as [first, last] days back from today, both included
 * (0 = today).
 */
const RELATIVE: readonly { re: RegExp; days: (m: RegExpExecArray) => [number, number] }[] = [
  { re: /\b(?:today|tonight)\b/i, days: () => [0, 0] },
  { re: /\byesterday\b/i, days: () => [1, 0] },
  {
    re: new RegExp(`\\b${COUNT}\\s+${UNIT}\\s+ago\\b`, 'i'),
    days: (m) => {
      const unit = UNIT_DAYS[m[2]!.toLowerCase()]!;
      const back = count(m[1]!) * unit;
      return [back + unit, Math.max(0, back - unit)];
    },
  },
  {
    re: new RegExp(`\\b(?:past|last|previous)\\s+${COUNT}\\s+${UNIT}\\b`, 'i'),
    days: (m) => [count(m[1]!) * UNIT_DAYS[m[2]!.toLowerCase()]! - 1, 0],
  },
  {
    re: /\b(this|past|last|previous)\s+(day|week|weekend|month|year)\b/i,
    days: (m) => {
      const unit = UNIT_DAYS[m[2]!.toLowerCase()]!;
      const current = ['this', 'past'].includes(m[1]!.toLowerCase());
      return [(current ? unit : 2 * unit) - 1, 0];
    },
  },
];

function count(word: string): number {
  return COUNTS[word.toLowerCase()] ?? Number(word);
}

/** The first relative expression of the query, counted back from `now`. */
function relativeWindow(query: string, now: number): TimeWindow | null {
  let best: { at: number; window: TimeWindow } | null = null;
  for (const form of RELATIVE) {
    const m = form.re.exec(query);
    if (!m || (best !== null && m.index >= best.at)) continue;
    const [first, last] = form.days(m);
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const window = { from: today - first * DAY_MS, to: today + (1 - last) * DAY_MS, text: m[0] };
    best = { at: m.index, window };
  }
  return best?.window ?? null;
}

/** The first absolute date the query names, or null when it names none. */
function absoluteWindow(query: string): TimeWindow | null {
  for (let at = 0; at < query.length; at++) {
    // A form can only start at a letter or digit that begins a word.
    if (!/[\p{L}\p{N}]/u.test(query[at]!) || (at > 0 && /[\p{L}\p{N}]/u.test(query[at - 1]!)))
      continue;
    for (const form of FORMS) {
      form.re.lastIndex = at;
      const m = form.re.exec(query);
      if (!m) continue;
      const window = form.read(m);
      if (window) return { ...window, text: m[0] };
    }
  }
  return null;
}

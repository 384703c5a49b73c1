/**
 * Deterministic generator of realistic memories and recall queries for the scale benchmark:
 * varied English sentences about people, projects, tools, places, preferences and schedules,
 * drawn from the controlled vocabulary with a seeded PRNG (the same seed gives the same store).
 * Popular entities recur far more often than rare ones (a Zipf-like draw), as in real notes.
 */
import { mulberry32 } from '../lib/random.js';
import * as V from './vocabulary.js';

/** A memory as given to `rememberMany`. */
export interface SyntheticMemory {
  kind: 'fact' | 'preference' | 'rule' | 'procedure' | 'note' | 'episode';
  area: string;
  body: string;
  tags: string[];
}

/** Seeded generator shared by every synthetic corpus. */
export const prng = mulberry32;

const cap = (s: string) =>
  s.replace(/(^|\s)(\p{L})/gu, (_m, sp: string, c: string) => sp + c.toUpperCase());

/** Draws values for templates; `pick` is uniform, `zipf` favours the head of a list. */
class Draw {
  constructor(private readonly rand: () => number) {}

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)]!;
  }

  /** Index with probability roughly proportional to 1/(i+1) (skew 1), cheap to draw. */
  zipf<T>(list: readonly T[]): T {
    const u = this.rand();
    const i = Math.floor(Math.pow(list.length + 1, u)) - 1;
    return list[Math.min(list.length - 1, Math.max(0, i))]!;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.rand() < p;
  }
}

/** A few thousand distinct people: every first name with a spread of family names. */
const PEOPLE: readonly string[] = (() => {
  const out: string[] = [];
  const r = prng(7);
  for (const first of V.FIRST_NAMES)
    for (let j = 0; j < 24; j++)
      out.push(`${first} ${V.LAST_NAMES[Math.floor(r() * V.LAST_NAMES.length)]}`);
  return [...new Set(out)];
})();

const time = (d: Draw) => `${d.int(7, 18)}:${d.pick(['00', '15', '30', '45'])}`;
const person = (d: Draw) => d.zipf(PEOPLE);
const project = (d: Draw) => d.zipf(V.PROJECTS);
const slug = (s: string) => s.replace(/\s+/gu, '-');

type Template = (d: Draw) => SyntheticMemory;

/** Memory templates; each reads like something an agent would be told to remember. */
const TEMPLATES: readonly Template[] = [
  (d) => {
    const p = person(d);
    return {
      kind: 'preference',
      area: `people/${slug(p)}`,
      tags: ['drinks'],
      body: `${cap(p)} prefers ${d.pick(V.DRINKS)} over ${d.pick(V.DRINKS)} in the ${d.pick(['morning', 'afternoon', 'evening'])}.`,
    };
  },
  (d) => {
    const p = person(d);
    const pr = project(d);
    return {
      kind: 'fact',
      area: `projects/${pr}`,
      tags: ['team', pr],
      body: `${cap(p)} is the tech lead of ${pr} and reviews every change to the ${d.pick(V.COMPONENTS)} service.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'fact',
      area: `projects/${pr}`,
      tags: ['meetings', pr],
      body: `The ${pr} team meets every ${d.pick(V.WEEKDAYS)} at ${time(d)} in the ${d.pick(V.ROOMS)} room.`,
    };
  },
  (d) => {
    const p = person(d);
    return {
      kind: 'episode',
      area: `people/${slug(p)}`,
      tags: ['moves'],
      body: `${cap(p)} moved from ${cap(d.pick(V.CITIES))} to ${cap(d.pick(V.CITIES))} in ${cap(d.pick(V.MONTHS))} ${d.int(2015, 2025)}.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'fact',
      area: `projects/${pr}`,
      tags: ['tools', pr],
      body: `${cap(pr)} uses ${d.zipf(V.TOOLS)} for the ${d.pick(V.COMPONENTS)}; switching to ${d.zipf(V.TOOLS)} was rejected because ${d.pick(V.REASONS)}.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'rule',
      area: `projects/${pr}`,
      tags: ['deploys', pr],
      body: `Deploys of ${pr} are frozen on ${d.pick(V.WEEKDAYS)}s after ${time(d)} and during ${d.pick(V.MONTHS)} holidays.`,
    };
  },
  (d) => {
    const p = person(d);
    const c = d.pick(V.CITIES);
    return {
      kind: 'preference',
      area: `people/${slug(p)}`,
      tags: ['food', c],
      body: `${cap(p)}'s favourite restaurant in ${cap(c)} serves ${d.pick(V.CUISINES)} food and makes great ${d.pick(V.FOODS)}.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'procedure',
      area: `projects/${pr}`,
      tags: ['git', pr],
      body: `Before merging into the ${d.pick(['main', 'release', 'develop'])} branch of ${pr}, run the ${d.pick(V.COMPONENTS)} tests with ${d.zipf(V.TOOLS)} and update the changelog.`,
    };
  },
  (d) => {
    const p = person(d);
    return {
      kind: 'fact',
      area: `people/${slug(p)}`,
      tags: ['health', 'food'],
      body: `${cap(p)} is allergic to ${d.pick(V.FOODS)}, so order ${d.pick(V.FOODS)} or ${d.pick(V.FOODS)} for team lunches.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'fact',
      area: `projects/${pr}`,
      tags: ['infrastructure', pr],
      body: `The ${d.pick(V.COMPONENTS)} of ${pr} stores its data in ${d.zipf(V.TOOLS)} with ${d.int(2, 9)} replicas in ${cap(d.pick(V.REGIONS))}.`,
    };
  },
  (d) => {
    const p = person(d);
    const m = cap(d.pick(V.MONTHS));
    const day = d.int(1, 20);
    return {
      kind: 'episode',
      area: `people/${slug(p)}`,
      tags: ['vacation'],
      body: `${cap(p)} will be on vacation in ${cap(d.pick(V.CITIES))} from ${m} ${day} to ${m} ${day + d.int(2, 9)}.`,
    };
  },
  (d) => {
    const p = person(d);
    return {
      kind: 'preference',
      area: `people/${slug(p)}`,
      tags: ['hobbies'],
      body: `${cap(p)} likes to ${d.pick(V.HOBBIES)} on weekends and recommended a book about ${d.pick(V.TOPICS)}.`,
    };
  },
  (d) => {
    const lang = d.pick(V.LANGUAGES);
    return {
      kind: 'rule',
      area: `engineering/${lang}`,
      tags: ['profiling', lang],
      body: `Use ${d.zipf(V.TOOLS)} rather than ${d.zipf(V.TOOLS)} when profiling ${lang} services, and keep the traces for ${d.int(3, 30)} days.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'fact',
      area: `projects/${pr}`,
      tags: ['oncall', pr],
      body: `The on-call rotation for ${pr} switches every ${d.pick(V.WEEKDAYS)} at ${time(d)}; ${cap(person(d))} is next.`,
    };
  },
  (d) => {
    const p = person(d);
    return {
      kind: 'preference',
      area: `people/${slug(p)}`,
      tags: ['reports'],
      body: `${cap(p)} asked for the ${d.pick(V.REPORTS)} report to be sent every ${d.pick(V.WEEKDAYS)} morning as a PDF.`,
    };
  },
  (d) => {
    const p = person(d);
    const c = d.pick(V.CITIES);
    return {
      kind: 'fact',
      area: `people/${slug(p)}`,
      tags: ['schedule', c],
      body: `${cap(p)} works remotely from ${cap(c)} and is usually online between ${time(d)} and ${d.int(17, 22)}:00.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'fact',
      area: `projects/${pr}`,
      tags: ['budget', pr],
      body: `The budget for ${pr} in Q${d.int(1, 4)} is ${d.int(5, 900)} thousand dollars, approved by ${cap(person(d))}.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'episode',
      area: `projects/${pr}`,
      tags: ['pairing', pr],
      body: `${cap(person(d))} and ${cap(person(d))} pair on the ${pr} ${d.pick(V.COMPONENTS)} every ${d.pick(V.WEEKDAYS)} afternoon.`,
    };
  },
  (d) => {
    const pr = project(d);
    return {
      kind: 'note',
      area: `projects/${pr}`,
      tags: ['bugs', pr],
      body: `Bug in ${pr}: the ${d.pick(V.COMPONENTS)} times out when ${d.pick(V.CONDITIONS)}; the workaround is to ${d.pick(V.WORKAROUNDS)}.`,
    };
  },
  (d) => {
    const p = person(d);
    return {
      kind: 'preference',
      area: `people/${slug(p)}`,
      tags: ['editor'],
      body: `${cap(p)} codes in ${d.pick(V.EDITORS)} with the ${d.pick(V.THEMES)} theme and hates ${d.pick(V.EDITORS)} keybindings.`,
    };
  },
  (d) => {
    const env = d.pick(V.ENVIRONMENTS);
    return {
      kind: 'fact',
      area: `infrastructure/${env}`,
      tags: ['clusters', env],
      body: `Our ${env} cluster in ${cap(d.pick(V.REGIONS))} runs ${d.zipf(V.TOOLS)} version ${d.int(1, 12)}.${d.int(0, 20)} behind ${d.zipf(V.TOOLS)}.`,
    };
  },
  (d) => {
    const p = person(d);
    return {
      kind: 'episode',
      area: `people/${slug(p)}`,
      tags: ['conferences'],
      body: `${cap(p)} met ${cap(person(d))} at ${d.pick(V.CONFERENCES)} in ${cap(d.pick(V.CITIES))} to discuss ${d.pick(V.TOPICS)}.`,
    };
  },
  (d) => {
    const team = d.pick(V.TEAMS);
    const pr = project(d);
    return {
      kind: 'fact',
      area: `teams/${team}`,
      tags: ['ownership', pr],
      body: `The ${team} team owns ${pr} and the ${d.pick(V.COMPONENTS)}; escalate to ${cap(person(d))} after hours.`,
    };
  },
  (d) => {
    const p = person(d);
    return {
      kind: 'fact',
      area: `people/${slug(p)}`,
      tags: ['birthdays'],
      body: `${cap(p)}'s birthday is on ${cap(d.pick(V.MONTHS))} ${d.int(1, 28)}; they would like ${d.pick(V.GIFTS)} as a present.`,
    };
  },
  (d) => {
    const lang = d.pick(V.LANGUAGES);
    return {
      kind: 'rule',
      area: `engineering/${lang}`,
      tags: ['testing', lang],
      body: `Always write ${lang} tests with ${d.zipf(V.TOOLS)} and keep coverage above ${d.int(6, 9)}0 percent before a release.`,
    };
  },
];

/** Where a memory came from, appended to some sentences as people do in notes. */
const PROVENANCE: readonly ((d: Draw) => string)[] = [
  (d) => `according to ${cap(person(d))}`,
  (d) => `as noted in ${cap(d.pick(V.MONTHS))} ${d.int(2016, 2025)}`,
  (d) => `as mentioned at the ${cap(d.pick(V.WEEKDAYS))} standup`,
  (d) => `confirmed by ${cap(person(d))} over ${d.pick(['chat', 'email', 'phone', 'video call'])}`,
  (d) => `from the ${d.pick(V.TOPICS)} meeting notes`,
];

/** The two years the memory stream spans: 2024 and 2025 (UTC). */
export const CORPUS_FROM = Date.UTC(2024, 0, 1);
export const CORPUS_TO = Date.UTC(2026, 0, 1);

/** The memory stream for a seed (deterministic, independent of batch size). */
export function* memories(seed: number, count: number): Generator<SyntheticMemory> {
  const d = new Draw(prng(seed));
  for (let i = 0; i < count; i++) {
    const m = d.pick(TEMPLATES)(d);
    if (d.chance(0.6)) m.body = `${m.body.slice(0, -1)}, ${d.pick(PROVENANCE)(d)}.`;
    yield m;
  }
}

/**
 * The same stream, each memory with the time it was written: the stream spans two years, oldest
 * first, as an agent stores it (what the time channel reads).
 */
export function* datedMemories(
  seed: number,
  count: number,
): Generator<SyntheticMemory & { created_at: string }> {
  let i = 0;
  for (const m of memories(seed, count)) {
    const at = CORPUS_FROM + Math.floor((i++ / count) * (CORPUS_TO - CORPUS_FROM));
    yield { ...m, created_at: new Date(at).toISOString() };
  }
}

type QueryTemplate = (d: Draw) => string;

/** Queries an agent would send: questions and keyword-ish lookups about the same world. */
const QUERY_TEMPLATES: readonly QueryTemplate[] = [
  (d) => `what does ${cap(person(d))} like to drink in the morning`,
  (d) => `who is the tech lead of ${project(d)}`,
  (d) => `when does the ${project(d)} team meet`,
  (d) => `where did ${cap(person(d))} move`,
  (d) => `which database does ${project(d)} use for ${d.pick(V.COMPONENTS)}`,
  (d) => `deploy freeze rules for ${project(d)}`,
  (d) => `good ${d.pick(V.CUISINES)} restaurant in ${cap(d.pick(V.CITIES))}`,
  (d) => `how to merge into the release branch of ${project(d)}`,
  (d) => `is ${cap(person(d))} allergic to anything`,
  (d) => `how many replicas does the ${d.pick(V.COMPONENTS)} have`,
  (d) => `when is ${cap(person(d))} on vacation`,
  (d) => `hobbies of ${cap(person(d))}`,
  (d) => `profiling ${d.pick(V.LANGUAGES)} services`,
  (d) => `who is next on call for ${project(d)}`,
  (d) => `${d.pick(V.REPORTS)} report schedule`,
  (d) => `what hours does ${cap(person(d))} work`,
  (d) => `budget of ${project(d)} this quarter`,
  (d) => `${d.pick(V.COMPONENTS)} times out when ${d.pick(V.CONDITIONS)}`,
  (d) => `which editor does ${cap(person(d))} use`,
  (d) => `${d.pick(V.ENVIRONMENTS)} cluster version of ${d.zipf(V.TOOLS)}`,
  (d) => `conference talk about ${d.pick(V.TOPICS)}`,
  (d) => `which team owns ${project(d)}`,
  (d) => `birthday present for ${cap(person(d))}`,
  (d) => `test coverage rule for ${d.pick(V.LANGUAGES)}`,
  (d) => `why did we reject ${d.zipf(V.TOOLS)}`,
];

/** `count` recall queries for a seed. */
export function queries(seed: number, count: number): string[] {
  const d = new Draw(prng(seed ^ 0x5bd1e995));
  return Array.from({ length: count }, () => d.pick(QUERY_TEMPLATES)(d));
}

/**
 * The same queries naming a time within the stream's two years, as the time channel reads them:
 * a day ("on March 3, 2025"), a month ("in March 2025") or a year ("in 2025"), in turn.
 */
export function datedQueries(seed: number, count: number): string[] {
  const d = new Draw(prng(seed ^ 0x2545f491));
  return queries(seed, count).map((q, i) => {
    const year = d.int(2024, 2025);
    const month = cap(d.pick(V.MONTHS));
    const when = [`on ${month} ${d.int(1, 28)}, ${year}`, `in ${month} ${year}`, `in ${year}`][
      i % 3
    ];
    return `${q} ${when}`;
  });
}

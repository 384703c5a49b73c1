/**
 * A deterministic synthetic corpus for consolidation (§10) and its ground truth: memories from
 * templates over people, projects, tools, places and numbers; near-duplicates (reworded, a synonym,
 * an adverb, a typo, a format change); distractors stating another fact with the same template
 * (another number, name, place or thing, or the negation); area-name variants beside look-alike
 * areas about something else; old untouched items beside old touched ones.
 */
import type { ItemExport, ItemRecord } from '../../src/domain/records.js';
import { bodyHash } from '../../src/domain/text.js';
import type { Kind } from '../../src/domain/types.js';
import { dot, type WordVectorLookup } from '../../src/embed/embedder.js';
import { NEVER_MERGED } from '../../src/memories/consolidation.js';
import { mulberry32 } from '../lib/random.js';

/** How an item was planted. */
export type Plant = 'base' | 'other-kind' | `variant:${VariantType}` | `distractor:${Difference}`;
/** How a near-duplicate differs from its base (`synonym-far`: a synonym GloVe does not relate). */
export type VariantType = (typeof VARIANT_TYPES)[number] | 'synonym-far';
const VARIANT_TYPES = ['reword', 'synonym', 'adverb', 'typo', 'format', 'reword+typo'] as const;
/** What a distractor changes in its base's template. */
export type Difference = 'number' | 'name' | 'place' | 'thing' | 'negation';

type Fields = 'id' | 'kind' | 'area' | 'title' | 'body';
type Counts = 'pinned' | 'importance' | 'use_count' | 'access_count';
type Times = 'created_at' | 'updated_at' | 'last_accessed_at';
/** One memory of the corpus, in the shape of a stored item, and how it was planted. */
export type CorpusItem = Pick<ItemRecord, Fields | Counts | Times> & { plant: Plant };

/** What a consolidation should find in the corpus. */
export interface CorpusTruth {
  /** Near-duplicate groups (one kind each): any two members may merge. */
  clusters: string[][];
  /** Planted pairs that must never merge, and what differs. */
  distinct: { a: string; b: string; differs: Difference | 'kind' }[];
  /** Area names that should fold into their canonical area. */
  folds: { from: string; into: string }[];
  /** Look-alike area names about different things: never fold. */
  noFolds: { a: string; b: string }[];
  /**
   * Older than a year, untouched, of an archivable kind, not pinned, importance below 0.7 (engram's
   * `lifecycle.important_threshold`, from which a memory counts as important and is never stale).
   */
  stale: string[];
  /** Older than a year but touched within it, pinned, important or of a kept kind. */
  notStale: string[];
}

/** A corpus and its ground truth. */
export interface Corpus {
  now: number;
  items: CorpusItem[];
  truth: CorpusTruth;
}

type Theme = 'project' | 'people' | 'tools' | 'ops' | 'personal' | 'building' | 'research';
/** theme, kind, statement, reworded statement, negated statement. */
type Template = readonly [Theme, Kind, string, string, string];

/** One template a line: theme kind | statement | reworded statement | negated statement. */
const TEMPLATES: readonly Template[] = `
project fact | {p} owns the {proj} service and reviews its pull requests. | The {proj} service is owned by {p}, who reviews its pull requests. | {p} no longer owns the {proj} service and reviews its pull requests.
project fact | The {proj} database runs on {tool} with {n} read replicas. | With {n} read replicas, the {proj} database runs on {tool}. | The {proj} database does not run on {tool} with {n} read replicas.
project note | Deploys of {proj} are frozen every {day} after {n} pm. | Every {day} after {n} pm, {proj} deploys are frozen. | Deploys of {proj} are never frozen on {day} after {n} pm.
project procedure | To release {proj}, tag the build and wait for {n} green checks before promoting it. | Tag the build and wait for {n} green checks before promoting a {proj} release. | To release {proj}, tag the build and promote it without waiting for {n} green checks.
project episode | On {day} the {proj} service was down for {n} minutes after a certificate expired. | After a certificate expired, the {proj} service was down for {n} minutes on {day}. | On {day} the {proj} service was not down for {n} minutes after a certificate expired.
project fact | The {proj} API allows {n} requests per second for each client. | Each client of the {proj} API is allowed {n} requests per second. | The {proj} API does not allow {n} requests per second for each client.
project note | Alerts for {proj} go to the team channel and page {p} after {n} minutes. | After {n} minutes, alerts for {proj} page {p}; they go to the team channel first. | Alerts for {proj} go to the team channel and never page {p} after {n} minutes.
project fact | The {proj} schema migration plan is being written by {p} this quarter. | This quarter {p} is writing the migration plan for the {proj} schema. | The {proj} schema migration plan is not being written by {p} this quarter.
people fact | {p} works from {city} and joins meetings in the afternoon. | {p} joins meetings in the afternoon and works from {city}. | {p} does not work from {city} and joins meetings in the afternoon.
people fact | {p} has been on the team for {n} years and mentors new engineers. | {p} mentors new engineers and has been on the team for {n} years. | {p} has been on the team for {n} years and does not mentor new engineers.
people episode | {p} helped {q} fix the flaky test suite on {day}. | On {day}, {p} helped {q} fix the flaky test suite. | {p} did not help {q} fix the flaky test suite on {day}.
people fact | {p} has been the manager of {q} since {month}. | Since {month}, {q} has been managed by {p}. | {p} has not been the manager of {q} since {month}.
people preference | {p} prefers {drink} during long meetings. | During long meetings, {p} prefers {drink}. | {p} never drinks {drink} during long meetings.
people fact | {p} speaks at the {city} meetup every {month}. | Every {month}, {p} speaks at the meetup in {city}. | {p} no longer speaks at the {city} meetup every {month}.
people note | {p} is out of office from {month} {n} for two weeks. | For two weeks from {month} {n}, {p} is out of office. | {p} is not out of office from {month} {n} for two weeks.
tools fact | We use {tool} for the build cache and keep {n} days of history. | For the build cache we use {tool} and keep {n} days of history. | We do not use {tool} for the build cache or keep {n} days of history.
tools rule | Always run the {lang} linter before pushing to main. | Before pushing to main, always run the {lang} linter. | Never run the {lang} linter before pushing to main.
tools fact | The {lang} services are built with {tool} on every merge. | On every merge, the {lang} services are built with {tool}. | The {lang} services are not built with {tool} on every merge.
tools procedure | To rotate the {tool} credentials, open the admin console and revoke keys older than {n} days. | Open the admin console and revoke keys older than {n} days to rotate the {tool} credentials. | To rotate the {tool} credentials, open the admin console and do not revoke keys older than {n} days.
tools note | The {tool} dashboards refresh every {n} seconds and keep data for a month. | Every {n} seconds the {tool} dashboards refresh, and they keep data for a month. | The {tool} dashboards do not refresh every {n} seconds or keep data for a month.
ops fact | {p} is on call for the {proj} service in the week of {month} {n}. | In the week of {month} {n}, {p} is on call for the {proj} service. | {p} is not on call for the {proj} service in the week of {month} {n}.
ops episode | The {city} data center lost power for {n} hours and traffic moved to the backup region. | Traffic moved to the backup region when the {city} data center lost power for {n} hours. | The {city} data center did not lose power for {n} hours, and traffic moved to the backup region.
ops procedure | When the {proj} queue backs up, restart the consumers one at a time and watch the lag for {n} minutes. | Restart the {proj} consumers one at a time when the queue backs up, and watch the lag for {n} minutes. | When the {proj} queue backs up, never restart the consumers, and watch the lag for {n} minutes.
personal fact | {p} is travelling to {city} in {month} for the annual conference. | For the annual conference, {p} is travelling to {city} in {month}. | {p} is not travelling to {city} in {month} for the annual conference.
personal note | {p} recommended the {food} place near the {city} office. | The {food} place near the {city} office was recommended by {p}. | {p} did not recommend the {food} place near the {city} office.
personal preference | {p} likes {food} for the team lunch on {day}. | On {day}, {p} likes {food} for the team lunch. | {p} does not like {food} for the team lunch on {day}.
personal fact | {p}'s birthday is on {month} {n} and the team orders a cake. | The team orders a cake for {p}'s birthday on {month} {n}. | {p}'s birthday is on {month} {n} and the team does not order a cake.
building fact | The {city} office building holds fire drills on the first {day} of each month. | Fire drills in the {city} office building are held on the first {day} of each month. | The {city} office building holds no fire drills on the first {day} of each month.
building note | The elevator in the {city} building is serviced every {n} weeks. | Every {n} weeks the elevator in the {city} building is serviced. | The elevator in the {city} building is not serviced every {n} weeks.
building fact | Parking at the {city} building costs {n} dollars a day. | At the {city} building, parking costs {n} dollars a day. | Parking at the {city} building does not cost {n} dollars a day.
research note | The {lang} benchmark paper by {p} reports a {n} percent speedup. | {p}'s paper on the {lang} benchmark reports a {n} percent speedup. | The {lang} benchmark paper by {p} reports no {n} percent speedup.
people fact | {p} commutes to the office by {vehicle} most days. | Most days, {p} commutes to the office by {vehicle}. | {p} never commutes to the office by {vehicle}.
project note | The {proj} standup takes place in the {daytime} on {day}. | On {day}, the {proj} standup takes place in the {daytime}. | The {proj} standup does not take place in the {daytime} on {day}.
tools fact | {p} ordered a new {device} for the {proj} team. | A new {device} for the {proj} team was ordered by {p}. | {p} did not order a new {device} for the {proj} team.
personal fact | {p} brings {drink} to the planning meeting every {day}. | Every {day}, {p} brings {drink} to the planning meeting. | {p} never brings {drink} to the planning meeting on {day}.
personal note | {p} keeps a {pet} and works from home on {day}. | On {day}, {p} works from home, where {p} keeps a {pet}. | {p} keeps no {pet} and works from home on {day}.
research fact | {p} runs the ablation experiments on {n} GPUs every {day}. | Every {day}, {p} runs the ablation experiments on {n} GPUs. | {p} does not run the ablation experiments on {n} GPUs every {day}.
`
  .trim()
  .split('\n')
  .map((line) => {
    const [head, ...forms] = line.split(' | ');
    const [theme, kind] = head!.split(' ');
    return [theme as Theme, kind as Kind, ...(forms as [string, string, string])] as const;
  });

/** Slot values, one slot a line: name, then its values. */
const POOLS: Record<string, string[]> = Object.fromEntries(
  `p Alice Bruno Carol Dmitri Erin Farah Gustavo Hana Ivan Jun Kemal Lucia Mateo Nadia Oskar Priya
  Quentin Rosa Sven Tomoko Ugo Valeria Wen Ximena Yusuf Zora Amara Chiara Diego Elena Felix Greta Hugo
  Ines Jonas Kira Liam Maya Noor Omar
proj billing search auth ledger checkout payments inventory shipping catalog analytics
tool Postgres Redis Kafka Terraform Grafana Docker Jenkins Sentry Vault Elasticsearch Prometheus Nginx
city Berlin Lisbon Toronto Osaka Nairobi Denver Madrid Oslo Dublin Austin Seoul Lyon Prague Quito
day Monday Tuesday Wednesday Thursday Friday
month January February March April May June July August September October November December
drink tea coffee espresso juice water cocoa lemonade
food pizza sushi salad pasta curry tacos ramen
lang Python Rust Go TypeScript Kotlin Java Scala Ruby
vehicle car bus train bike scooter tram ferry
daytime morning afternoon evening
device laptop phone tablet monitor keyboard headset printer
pet cat dog parrot rabbit hamster turtle`
    .split(/\n(?! )/u)
    .map((line) => line.trim().split(/\s+/u))
    .map(([slot, ...values]) => [slot!, values])
    .concat([['n', Array.from({ length: 58 }, (_, i) => String(i + 2))]]),
);
const SLOT = /\{(\w+)\}/gu;
const THING_SLOTS = 'proj tool drink food lang day month vehicle daytime device pet'.split(' ');

/** Curated synonym candidates; with word vectors the corpus takes the closest one. */
const SYNONYMS: Record<string, string[]> = Object.fromEntries(
  `allows permits lets|expired lapsed|restart relaunch reboot|watch monitor observe|recommended
suggested endorsed|annual yearly|conference convention summit|mentors coaches guides|engineers
developers|keep retain preserve|refresh reload|moved shifted switched|flaky unreliable unstable|manager
supervisor boss|speaks talks presents|serviced maintained inspected|elevator lift|alerts alarms
warnings|client customer|joins attends|long lengthy|paper article publication|travelling
traveling|reviews examines checks|likes enjoys loves|prefers favors likes|plan proposal
strategy|experiments trials tests|requests calls queries|meetings sessions gatherings|writing
drafting authoring|written authored drafted|ordered purchased bought|brings carries|commutes travels`
    .split('|')
    .map((entry) => entry.trim().split(/\s+/u))
    .map(([word, ...synonyms]) => [word!, synonyms]),
);
/** Word cosine below which the corpus calls a synonym far: GloVe does not relate the two words. */
export const FAR_SYNONYM = 0.6;
const ADVERBS = ['usually', 'currently', 'still', 'now', 'also', 'typically', 'normally'];
/** The area of a statement's theme (a project's own area for project statements). */
function areaOf(theme: Theme, slots: Slots): string {
  if (theme === 'project') return `projects/${slots.proj}`;
  if (theme === 'building' || theme === 'research') return `projects/${theme}`;
  return theme === 'ops' ? 'ops/oncall' : theme;
}
/** Spelling variants of canonical areas, planted on a share of their items. */
const AREA_VARIANTS: Record<string, readonly string[]> = {
  'projects/billing': ['Projects/Billing', 'project/billing', 'projects-billing'],
  'projects/search': ['Projects/Search', 'projects/search/'],
  people: ['People'],
  tools: ['Tools', 'tool'],
};
const NO_FOLDS = ['billing building', 'search research', 'auth search']
  .map((pair) => pair.split(' ').map((name) => `projects/${name}`))
  .map(([a, b]) => ({ a: a!, b: b! }));
const DAY = 86_400_000;
/** engram's default `lifecycle.important_threshold`: at or above it a memory is never stale. */
const IMPORTANT = 0.7;
/** The corpus's "now": fixed, so ages never change between runs. */
export const CORPUS_NOW = Date.UTC(2026, 11, 1);

type Slots = Record<string, string>;
type Statement = { template: number; slots: Slots; negated: boolean };

/** Options of the generator. */
export interface CorpusOptions {
  /** Items, about. */
  n: number;
  seed?: number;
  /** Word vectors: synonyms are then the closest candidate (else the first). */
  words?: WordVectorLookup;
}

/**
 * The merges a perfect consolidation makes: per near-duplicate group of a mergeable kind, every
 * member but one, and but every pinned member past the first (two pinned items are never merged).
 * `has` leaves out items a run cannot see (no vector yet).
 */
export function expectedMerges(corpus: Corpus, has: (id: string) => boolean = () => true): number {
  const byId = new Map(corpus.items.map((i) => [i.id, i]));
  let expected = 0;
  for (const cluster of corpus.truth.clusters) {
    const members = cluster.filter(has).map((id) => byId.get(id)!);
    if (members.length < 2 || NEVER_MERGED.includes(members[0]!.kind)) continue;
    expected += members.length - Math.max(1, members.filter((m) => m.pinned).length);
  }
  return expected;
}

/** A corpus item as the full record an import takes (vector pending: a backfill embeds it). */
export function corpusRecord({ plant: _plant, ...c }: CorpusItem): ItemExport {
  const version = { item_id: c.id, version: 1, title: c.title, body: c.body, tags: [] };
  return {
    item: {
      ...c,
      space: 'default',
      tags: [],
      status: 'active',
      strength: 1,
      source: null,
      version: 1,
      last_used_at: null,
      prior: null,
      body_hash: bodyHash(c.body),
      vector_state: 'pending',
    },
    versions: [{ ...version, actor: null, reason: null, created_at: c.created_at }],
    status_events: [],
    vectors: [],
  };
}

/** Generates a corpus of about `n` items and its ground truth. */
export function generateCorpus(options: CorpusOptions): Corpus {
  return new Generator(options).run();
}

class Generator {
  private readonly rand: () => number;
  private readonly seen = new Set<string>();
  private readonly items: CorpusItem[] = [];
  private readonly truth: CorpusTruth = {
    clusters: [],
    distinct: [],
    folds: [],
    noFolds: NO_FOLDS,
    stale: [],
    notStale: [],
  };
  private readonly usedAreas = new Set<string>();

  constructor(private readonly options: CorpusOptions) {
    this.rand = mulberry32(options.seed ?? 7);
  }

  run(): Corpus {
    const n = this.options.n;
    while (this.items.length < n) {
      const base = this.fresh();
      if (base === null) break;
      const baseItem = this.add(base, 'base', null);
      const r = this.rand();
      if (r < 0.35) this.plantCluster(base, baseItem);
      else if (r < 0.6) this.plantDistractor(base, baseItem);
      else if (r < 0.62) this.plantOtherKind(base, baseItem);
    }
    for (const [into, froms] of Object.entries(AREA_VARIANTS))
      for (const from of froms) if (this.usedAreas.has(from)) this.truth.folds.push({ from, into });
    return { now: CORPUS_NOW, items: this.items, truth: this.truth };
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)]!;
  }

  /** A statement not made before (null when the templates run out of combinations). */
  private fresh(): Statement | null {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const template = Math.floor(this.rand() * TEMPLATES.length);
      const slots: Slots = {};
      for (const [, name] of TEMPLATES[template]![2].matchAll(SLOT))
        slots[name!] ??= this.value(name!, slots);
      const s = { template, slots, negated: false };
      if (this.claim(s)) return s;
    }
    return null;
  }

  /** A value for a slot; the two people of a statement are two different people. */
  private value(slot: string, slots: Slots): string {
    const v = this.pick(POOLS[slot === 'q' ? 'p' : slot]!);
    const other = { p: slots.q, q: slots.p }[slot];
    return v === other ? this.value(slot, slots) : v;
  }

  /** True when the statement was not made before (it is then taken). */
  private claim(s: Statement): boolean {
    const key = `${s.template}|${s.negated}|${Object.entries(s.slots).sort().join(';')}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  private text(s: Statement, form: 2 | 3 | 4): string {
    return TEMPLATES[s.template]![form].replace(SLOT, (_, name: string) => s.slots[name]!);
  }

  private add(
    s: Statement,
    plant: Plant,
    like: CorpusItem | null,
    body?: string,
    otherKind?: Kind,
  ): CorpusItem {
    const [theme, templateKind] = TEMPLATES[s.template]!;
    const kind = otherKind ?? templateKind;
    const id = `m${String(this.items.length + 1).padStart(6, '0')}`;
    const area = this.area(theme, s.slots);
    const title = this.title(s, plant, like);
    body ??= this.text(s, s.negated ? 4 : 2);
    const item: CorpusItem = { id, kind, area, title, body, plant, ...this.history(like) };
    this.recordAge(item);
    this.items.push(item);
    return item;
  }

  /** A fifth of the statements carry a title (their subject: many share it); copies mostly keep theirs. */
  private title(s: Statement, plant: Plant, like: CorpusItem | null): string | null {
    if (like && plant.startsWith('variant')) return this.rand() < 0.8 ? like.title : null;
    if (like && plant === 'other-kind') return like.title;
    if (this.rand() >= 0.2) return null;
    const subject = s.slots.proj ?? s.slots.tool ?? s.slots.lang ?? s.slots.p ?? s.slots.city;
    return subject === undefined ? null : `${subject} notes`;
  }

  private area(theme: Theme, slots: Slots): string {
    const canonical = areaOf(theme, slots);
    const variants = AREA_VARIANTS[canonical];
    const area = variants && this.rand() < 0.25 ? this.pick(variants) : canonical;
    this.usedAreas.add(area);
    return area;
  }

  /** Ages and use: a tenth old and untouched, a tenth old but used this year, the rest recent. */
  private history(like: CorpusItem | null): Pick<CorpusItem, Counts | Times> {
    const r = this.rand();
    const created_at = like
      ? Math.min(like.created_at + Math.floor(this.rand() * 60) * DAY, CORPUS_NOW - DAY)
      : CORPUS_NOW - Math.floor(r < 0.2 ? 400 + this.rand() * 700 : 1 + this.rand() * 360) * DAY;
    const untouched = CORPUS_NOW - created_at > 365 * DAY && r < 0.1;
    return {
      pinned: this.rand() < 0.05,
      importance: Math.round(this.rand() * 10) / 10,
      use_count: untouched ? 0 : Math.floor(this.rand() ** 3 * 8),
      access_count: untouched ? 0 : 1 + Math.floor(this.rand() ** 2 * 30),
      ...{ created_at, updated_at: created_at },
      last_accessed_at: untouched ? null : CORPUS_NOW - Math.floor(this.rand() * 300 + 1) * DAY,
    };
  }

  /** Stale: older than a year, untouched, archivable (not pinned, important or of a kept kind). */
  private recordAge(item: CorpusItem): void {
    if (CORPUS_NOW - item.created_at <= 365 * DAY) return;
    const kept = item.pinned || item.importance >= IMPORTANT || NEVER_MERGED.includes(item.kind);
    const stale = item.last_accessed_at === null && !kept;
    (stale ? this.truth.stale : this.truth.notStale).push(item.id);
  }

  private plantCluster(base: Statement, baseItem: CorpusItem): void {
    const cluster = [baseItem.id];
    const count = this.rand() < 0.7 ? 1 : 2;
    for (let i = 0; i < count; i++) {
      const { text, type } = this.variant(base, this.pick(VARIANT_TYPES));
      if (text !== baseItem.body)
        cluster.push(this.add(base, `variant:${type}`, baseItem, text).id);
    }
    if (cluster.length > 1) this.truth.clusters.push(cluster);
  }

  private variant(s: Statement, type: VariantType): { text: string; type: VariantType } {
    const plain = this.text(s, 2);
    if (type === 'synonym') return this.synonym(plain);
    const text = {
      reword: () => this.text(s, 3),
      adverb: () => plain.replace(/^(\S+) /u, `$1 ${this.pick(ADVERBS)} `),
      typo: () => this.typo(plain),
      format: () => plain.replace(/\.$/u, '').replace(/^\p{Lu}/u, (c) => c.toLowerCase()),
      'reword+typo': () => this.typo(this.text(s, 3)),
      'synonym-far': () => plain,
    }[type]();
    return { text, type };
  }

  /**
   * One word replaced by its closest curated synonym; `synonym-far` when the word vectors put even
   * that one below FAR_SYNONYM (no word-vector lever can see such a pair as one word).
   */
  private synonym(text: string): { text: string; type: VariantType } {
    const present = Object.keys(SYNONYMS).filter((w) => new RegExp(`\\b${w}\\b`, 'u').test(text));
    if (present.length === 0) return { text: text.replace(/ the /u, ' this '), type: 'format' };
    const word = this.pick(present);
    const [synonym, cosine] = this.closest(word, SYNONYMS[word]!);
    const type = cosine < FAR_SYNONYM ? 'synonym-far' : 'synonym';
    return { text: text.replace(new RegExp(`\\b${word}\\b`, 'u'), synonym), type };
  }

  private closest(word: string, candidates: readonly string[]): [string, number] {
    const words = this.options.words;
    if (!words) return [candidates[0]!, 1];
    const id = words.wordId(word);
    const cos = (c: string) => {
      const other = words.wordId(c);
      return id < 0 || other < 0 ? -1 : dot(words.wordVector(id), words.wordVector(other));
    };
    const best = [...candidates].sort((x, y) => cos(y) - cos(x))[0]!;
    return [best, cos(best)];
  }

  /** Two neighbouring letters of one long lowercase word swapped. */
  private typo(text: string): string {
    const long = [...text.matchAll(/\b\p{Ll}{6,}\b/gu)];
    if (long.length === 0) return text;
    const m = this.pick(long);
    const w = m[0];
    const i = 1 + Math.floor(this.rand() * (w.length - 3));
    const typo = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
    return text.slice(0, m.index) + typo + text.slice(m.index! + w.length);
  }

  private plantDistractor(base: Statement, baseItem: CorpusItem): void {
    const slots = Object.keys(base.slots);
    const options: Difference[] = ['negation'];
    if (slots.includes('n')) options.push('number');
    if (slots.includes('p')) options.push('name');
    if (slots.includes('city')) options.push('place');
    if (slots.some((s) => THING_SLOTS.includes(s))) options.push('thing');
    const type = this.pick(options);
    const other = this.changed(base, type);
    if (other === null) return;
    const item = this.add(other, `distractor:${type}`, baseItem);
    this.truth.distinct.push({ a: baseItem.id, b: item.id, differs: type });
  }

  private changed(base: Statement, type: Difference): Statement | null {
    const slot =
      { number: 'n', name: 'p', place: 'city', negation: '' }[type as string] ??
      this.pick(THING_SLOTS.filter((s) => s in base.slots));
    for (let attempt = 0; attempt < 20; attempt++) {
      const s = { ...base, slots: { ...base.slots }, negated: type === 'negation' };
      if (slot !== '') s.slots[slot] = this.value(slot, s.slots);
      if (this.claim(s)) return s;
    }
    return null;
  }

  /** The same text under another kind: never merged with its base. */
  private plantOtherKind(base: Statement, baseItem: CorpusItem): void {
    // The kind is set before the item's age is judged: a copy as a note of a kept kind is stale.
    const kind = baseItem.kind === 'note' ? 'fact' : 'note';
    const item = this.add(base, 'other-kind', baseItem, baseItem.body, kind);
    this.truth.distinct.push({ a: baseItem.id, b: item.id, differs: 'kind' });
  }
}

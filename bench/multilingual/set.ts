/**
 * The multilingual recall set: memories and questions made from each language's templates
 * (templates/*.ts), the same on every run (seeded). Each person gets eight of the ten fact kinds;
 * a hundred memories of two people at once (so a name alone does not find the answer) and a few
 * dozen notes about no one are mixed in. Questions are of two sorts: one about a person
 * (its answer is that one memory) and one naming a value ("who is allergic to peanuts?", whose
 * answers are every memory holding it). `build-set.ts` writes the sets to `set/<lang>.json`, which
 * the benchmark reads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { mulberry32 } from '../lib/random.js';
import { ar } from './templates/ar.js';
import { de } from './templates/de.js';
import { es } from './templates/es.js';
import { fr } from './templates/fr.js';
import { hi } from './templates/hi.js';
import { it } from './templates/it.js';
import { ja } from './templates/ja.js';
import { ko } from './templates/ko.js';
import { pt } from './templates/pt.js';
import { ru } from './templates/ru.js';
import { th } from './templates/th.js';
import type { AnyFact, LanguageTemplates, Person } from './templates/types.js';
import { zh } from './templates/zh.js';

/** Every language of the set, in report order. */
export const LANGUAGES: readonly LanguageTemplates[] = [
  zh,
  ja,
  ko,
  th,
  de,
  ru,
  es,
  fr,
  pt,
  it,
  ar,
  hi,
];

/** Fact kinds each person gets. */
const FACTS_PER_PERSON = 8;
/** Memories about two people, per language. */
const EVENTS = 100;
/** Questions naming a value, per language (questions about a person: one per person). */
const VALUE_QUESTIONS = 20;

/** One memory of the set. */
export interface SetMemory {
  id: string;
  text: string;
}

/** One question with the ids of the memories that answer it. */
export interface SetQuestion {
  id: string;
  text: string;
  /** `person`: asks about a person; `value`: names a value held by one or more people. */
  sort: 'person' | 'value';
  /** The fact kind asked about. */
  fact: string;
  expected: string[];
}

/** One language's part of the set. */
export interface LanguageSet {
  lang: string;
  label: string;
  memories: SetMemory[];
  questions: SetQuestion[];
}

interface Draft {
  text: string;
  person?: Person;
  fact?: AnyFact;
  value?: unknown;
}

function seedOf(lang: string): number {
  let h = 2166136261;
  for (const ch of lang) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

function keyOf(f: AnyFact, value: unknown): string {
  return f.key ? f.key(value as never) : JSON.stringify(value);
}

/** The memories about each person, then the notes, in a shuffled order. */
function drafts(t: LanguageTemplates, random: () => number): Draft[] {
  const out: Draft[] = [];
  for (const person of t.people)
    for (const f of shuffle(t.facts, random).slice(0, FACTS_PER_PERSON)) {
      const value = pick(f.values, random);
      const text = pick(f.memories, random)(person, value);
      out.push({ text, person, fact: f, value });
    }
  const events = new Set<string>();
  while (events.size < EVENTS) {
    const [a, b] = shuffle(t.people, random);
    events.add(pick(t.events, random)(a!, b!));
  }
  out.push(...[...events].map((text) => ({ text })));
  out.push(...t.notes.map((text) => ({ text })));
  return shuffle(out, random);
}

/** One question per person, about one of its memories picked at random. */
function personQuestions(
  t: LanguageTemplates,
  memories: Draft[],
  ids: string[],
  random: () => number,
) {
  return t.people.map((person) => {
    const mine = memories.flatMap((m, i) => (m.person === person ? [i] : []));
    const i = pick(mine, random);
    const m = memories[i]!;
    return {
      text: m.fact!.ask(person, m.value as never),
      sort: 'person' as const,
      fact: m.fact!.kind,
      expected: [ids[i]!],
    };
  });
}

/** Questions naming a value, each answered by every memory that holds it. */
function valueQuestions(memories: Draft[], ids: string[], random: () => number) {
  const groups = new Map<string, { f: AnyFact; value: unknown; ids: string[] }>();
  memories.forEach((m, i) => {
    if (!m.fact?.askWho) return;
    const key = `${m.fact.kind}\u0000${keyOf(m.fact, m.value)}`;
    const group = groups.get(key) ?? { f: m.fact, value: m.value, ids: [] };
    group.ids.push(ids[i]!);
    groups.set(key, group);
  });
  return shuffle([...groups.values()], random)
    .slice(0, VALUE_QUESTIONS)
    .map((g) => ({
      text: g.f.askWho!(g.value as never),
      sort: 'value' as const,
      fact: g.f.kind,
      expected: g.ids,
    }));
}

/** Builds one language's set from its templates. */
export function buildLanguageSet(t: LanguageTemplates): LanguageSet {
  const random = mulberry32(seedOf(t.lang));
  const memories = drafts(t, random);
  const ids = memories.map((_, i) => `${t.lang}-${String(i + 1).padStart(3, '0')}`);
  const questions = [
    ...personQuestions(t, memories, ids, random),
    ...valueQuestions(memories, ids, random),
  ].map((q, i) => ({ id: `${t.lang}-q${String(i + 1).padStart(2, '0')}`, ...q }));
  return {
    lang: t.lang,
    label: t.label,
    memories: memories.map((m, i) => ({ id: ids[i]!, text: m.text })),
    questions,
  };
}

/** Where a language's set is committed. */
export function setPath(lang: string): string {
  return join(import.meta.dirname, 'set', `${lang}.json`);
}

/** Reads the committed set of every language, in report order. */
export function loadSets(): LanguageSet[] {
  return LANGUAGES.map((t) => JSON.parse(readFileSync(setPath(t.lang), 'utf8')) as LanguageSet);
}

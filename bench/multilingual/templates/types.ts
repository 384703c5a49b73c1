/**
 * The shape of one language's templates for the multilingual recall set: the people a user's
 * agent would remember things about, the kinds of fact it would note about them (each with a few
 * phrasings and the questions a user would ask back), and notes about no one in particular.
 */

/** A person memories are about. */
export interface Person {
  name: string;
  /** Grammatical gender, for the languages whose phrasing needs it. */
  female: boolean;
}

/**
 * The people of a language from `[name, female]` pairs, each name as `address` writes it (the name
 * itself unless a language adds an honorific).
 */
export function peopleOf(
  pairs: readonly (readonly [string, boolean])[],
  address: (name: string) => string = (name) => name,
): Person[] {
  return pairs.map(([name, female]) => ({ name: address(name), female }));
}

/** The masculine or the feminine form of a word, as the person's gender asks. */
export function g(p: Person, masculine: string, feminine: string): string {
  return p.female ? feminine : masculine;
}

/** One kind of fact: its possible values, how a memory states it, how a user asks about it. */
export interface Fact<V> {
  /** Short name of the fact kind (report only). */
  kind: string;
  values: readonly V[];
  /** Phrasings of a memory stating the fact; one is picked per memory. */
  memories: readonly ((person: Person, value: V) => string)[];
  /** A question about the person whose answer is this memory. */
  ask: (person: Person, value: V) => string;
  /** A question naming the value whose answers are every memory holding it (optional). */
  askWho?: (value: V) => string;
  /** Identity of a value for `askWho` (defaults to JSON of the value). */
  key?: (value: V) => string;
}

/** A fact kind with its value type erased, as a language lists them. */
export type AnyFact = Fact<never>;

/** Erases a fact's value type (the generator only passes values back to the same fact). */
export function fact<V>(f: Fact<V>): AnyFact {
  return f as unknown as AnyFact;
}

/** The templates of one language. */
export interface LanguageTemplates {
  /** BCP 47 code: zh, ja, de, ko, th. */
  lang: string;
  /** English name of the language (report only). */
  label: string;
  people: readonly Person[];
  facts: readonly AnyFact[];
  /** Memories about two people at once (outings, favours, news), which share their names. */
  events: readonly ((a: Person, b: Person) => string)[];
  /** Memories about no one in particular (errands, plans, reminders). */
  notes: readonly string[];
}

/** A calendar day (month 1-12, day 1-28), for birthdays. */
export interface DayOfYear {
  month: number;
  day: number;
}

/** Dates the birthday facts draw from (the generator needs plain values, not a random source). */
export const DAYS: readonly DayOfYear[] = Array.from({ length: 48 }, (_, i) => ({
  month: (i % 12) + 1,
  day: ((i * 7) % 28) + 1,
}));

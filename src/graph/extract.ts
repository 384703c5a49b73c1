/**
 * Entity extraction (§4): pattern rules for technical tokens, then the English NLP model for
 * names (runs of proper nouns), then statements (aliases, arrows) between what was found.
 * Deterministic for a given text and bounds, so a rebuild reproduces the incremental graph.
 */
import { analyse, type NlpDoc, type NlpToken } from './nlp.js';
import { cleanSurface, entityKey, isEdgeWord, isNoiseKey, PRONOUNS } from './normalize.js';
import { matchPatterns, type PatternMatch } from './patterns.js';
import type { EntityType, ExtractedEntity, ExtractedStatement, Extraction } from './types.js';

/** Bounds of one extraction. */
export interface ExtractOptions {
  /** Characters of text read at most (the start of the text). */
  maxChars: number;
  /** Entities kept per text at most (the most frequent, then the earliest). */
  maxEntities: number;
}

/** Version of the extraction rules; stored with each item's extraction so a change shows as stale. */
export const EXTRACTOR_VERSION = 1;

interface Occurrence {
  start: number;
  end: number;
  key: string;
  surface: string;
  type: EntityType;
  /** Capitalised only by its place at a sentence start: maybe a name, maybe a common word. */
  weak: boolean;
}

const CONNECTORS = new Set(['of', '&', 'de', 'van', 'von', 'da', 'del', 'du', 'der', 'den', 'al']);
const MAX_NAME_TOKENS = 6;

/** Extracts entities and statements from a text within the bounds. */
export function extract(text: string, options: ExtractOptions): Extraction {
  const { body, truncated } = bound(text, options.maxChars);
  const { matches, masked } = matchPatterns(body);
  const occurrences = matches.flatMap((m) => occurrence(m));
  const prose = withoutNamelessSentences(masked);
  const doc = analyse(prose);
  const offsets = tokenOffsets(prose, doc.tokens);
  for (const { from, to, weak } of nameRuns(doc)) {
    const start = offsets[from]!;
    const end = offsets[to]! + doc.tokens[to]!.value.length;
    if (start < 0 || offsets[to]! < 0) continue;
    const o = occurrence({ start, end, surface: body.slice(start, end), type: 'name' }, weak);
    occurrences.push(...o.map((x) => ({ ...x, key: singularKey(x.key, doc) })));
  }
  occurrences.sort((a, b) => a.start - b.start || a.end - b.end);
  const statements = [
    ...aliasStatements(body, occurrences),
    ...arrowStatements(body, occurrences, doc),
  ];
  return finish(occurrences, statements, options.maxEntities, truncated);
}

/**
 * Keys of the technical tokens of a text (URLs, paths, versions...): the pattern rules alone,
 * without the language model. Queries use this plus their word n-grams, so recall never waits
 * for the model to load.
 */
export function technicalKeys(text: string, maxChars: number): string[] {
  const { matches } = matchPatterns(bound(text, maxChars).body);
  return [...new Set(matches.flatMap((m) => occurrence(m)).map((o) => o.key))];
}

const SENTENCE = /[^.!?…\n]*(?:[.!?…]+|\n|$)/gu;
const CAPITALISED = /\p{Lu}[\p{L}\p{N}'’-]*/gu;

/** True when some capitalised word of the sentence could start a name. */
function mayName(sentence: string): boolean {
  for (const [word] of sentence.matchAll(CAPITALISED)) {
    const bare = word.replace(/['’].*$/u, '');
    if (bare !== 'I' && !isEdgeWord(bare)) return true;
  }
  return false;
}

/**
 * The text with every sentence that cannot hold a name blanked out (same length, so offsets
 * stay): a sentence whose only capitalised words are "I", stop-words or greetings is not worth
 * the model's time. Names only come from capitalised words, so nothing is lost.
 */
function withoutNamelessSentences(text: string): string {
  let out = '';
  for (const [sentence] of text.matchAll(SENTENCE))
    out += mayName(sentence) ? sentence : ' '.repeat(sentence.length);
  return out;
}

function bound(text: string, maxChars: number): { body: string; truncated: boolean } {
  if (text.length <= maxChars) return { body: text, truncated: false };
  const cut = text.slice(0, maxChars);
  const space = cut.search(/\s\S*$/u);
  return { body: space > maxChars / 2 ? cut.slice(0, space) : cut, truncated: true };
}

function occurrence(m: PatternMatch, weak = false): Occurrence[] {
  const surface = cleanSurface(m.surface, m.type);
  const key = entityKey(surface, m.type);
  if (isNoiseKey(key, m.type)) return [];
  return [{ start: m.start, end: m.end, key, surface, type: m.type, weak }];
}

/** Singular of an English plural by its spelling ("groups", "agencies", "boxes"). */
export function singular(word: string): string | null {
  if (!/^\p{Ll}{3,}s$/u.test(word) || /(?:ss|us|is)$/u.test(word)) return null;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|zes|sses)$/u.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/**
 * A multi-word name ending in a plural common noun is keyed in the singular ("Support Groups" and
 * "Support Group" are one entity), when both forms are English words; names like "Kubernetes" or
 * "Paris" are no plurals of a word and stay as they are.
 */
function singularKey(key: string, doc: NlpDoc): string {
  const words = key.split(' ');
  const last = words[words.length - 1]!;
  const one = words.length > 1 ? singular(last) : null;
  if (!one || doc.isOOV(last) || doc.isOOV(one)) return key;
  return [...words.slice(0, -1), one].join(' ');
}

/** Character offset of each token in the text (-1 when the tokenizer changed its spelling). */
function tokenOffsets(text: string, tokens: readonly NlpToken[]): number[] {
  let cursor = 0;
  return tokens.map((t) => {
    const at = text.indexOf(t.value, cursor);
    if (at < 0) return -1;
    cursor = at + t.value.length;
    return at;
  });
}

/** Acronyms (LLM, AWS, NASA): the model often tags them as common nouns. */
const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}&]{1,7}$/u;
const ACRONYM_POS = new Set(['PROPN', 'NOUN', 'ADJ', 'X']);

/** Inside a sentence, a capitalised noun or adjective is part of a name ("Iris Park"). */
const TITLED_POS = new Set(['NOUN', 'ADJ', 'X']);

function isNameToken(t: NlpToken): boolean {
  const titled = !t.initial && TITLED_POS.has(t.pos) && /^\p{Lu}/u.test(t.value);
  return (
    (t.pos === 'PROPN' || titled || (ACRONYM.test(t.value) && ACRONYM_POS.has(t.pos))) &&
    t.kind === 'word' &&
    /\p{L}/u.test(t.value) &&
    !/^['’]/u.test(t.value) &&
    !PRONOUNS.has(t.value.toLowerCase())
  );
}

/** A proper-noun run: its token span, and whether only its position capitalised it. */
interface NameRun {
  from: number;
  to: number;
  weak: boolean;
}

/** Token spans of proper-noun runs that may name something. */
function nameRuns(doc: NlpDoc): NameRun[] {
  const tokens = doc.tokens;
  const inner = new Set<string>();
  tokens.forEach((t) => {
    if (!t.initial && isNameToken(t)) inner.add(t.value.toLowerCase());
  });
  const runs: NameRun[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!isNameToken(tokens[i]!)) continue;
    let j = i;
    while (j + 1 < tokens.length) {
      const next = tokens[j + 1]!;
      if (isNameToken(next)) j++;
      else if (
        CONNECTORS.has(next.value.toLowerCase()) &&
        tokens[j + 2] &&
        isNameToken(tokens[j + 2]!)
      )
        j += 2;
      else break;
    }
    const run = trimRun(tokens, i, j);
    const kept = run ? judgeRun(doc, run, inner) : null;
    if (run && kept) runs.push({ from: run[0], to: run[1], weak: kept === 'weak' });
    i = j;
  }
  return runs;
}

function trimRun(tokens: readonly NlpToken[], from: number, to: number): [number, number] | null {
  const edge = (t: NlpToken) => isEdgeWord(t.value) || CONNECTORS.has(t.value.toLowerCase());
  while (from <= to && edge(tokens[from]!)) from++;
  while (to >= from && edge(tokens[to]!)) to--;
  if (from > to || to - from + 1 > MAX_NAME_TOKENS) return null;
  return [from, to];
}

/**
 * A capitalised word at the start of a sentence may be capitalised by position only ("Family's
 * great", "Glad to hear it"). It is a name when it is no English word or is used as a name
 * elsewhere in the text; when it is the subject of a verb or has a possessive ("Caroline said",
 * "Docker runs") it is kept as weak: the graph trusts it once some item names it mid-sentence.
 * Anything else is dropped.
 */
function judgeRun(
  doc: NlpDoc,
  [from, to]: [number, number],
  inner: ReadonlySet<string>,
): 'strong' | 'weak' | null {
  const tokens = doc.tokens;
  if (!tokens.slice(from, to + 1).some((t) => /\p{Lu}/u.test(t.value))) return null;
  const first = tokens[from]!;
  if (from !== to || !first.initial) return 'strong';
  const lower = first.value.toLowerCase();
  if (first.value.length > 1 && first.value === first.value.toUpperCase()) return 'strong';
  if (doc.isOOV(lower) || inner.has(lower)) return 'strong';
  const next = tokens[from + 1];
  return next !== undefined && (next.pos === 'VERB' || /^['’]s$/u.test(next.value)) ? 'weak' : null;
}

/** `Large Language Model (LLM)` and `Kubernetes aka k8s`: the two names are one entity. */
function aliasStatements(text: string, occ: readonly Occurrence[]): ExtractedStatement[] {
  const out: ExtractedStatement[] = [];
  for (let i = 0; i + 1 < occ.length; i++) {
    const a = occ[i]!;
    const b = occ[i + 1]!;
    if (a.key === b.key || b.start < a.end) continue;
    const gap = text.slice(a.end, b.start);
    const after = text.slice(b.end, b.end + 2);
    const paren = /^\s*\(\s*$/u.test(gap) && /^\s*\)/u.test(after);
    const aka = /^\s*,?\s*(?:\(\s*)?(?:aka|a\.k\.a\.?|also known as|formerly|né|née)\s+$/iu.test(
      gap,
    );
    if (paren || aka) out.push({ a: a.key, b: b.key, type: 'alias' });
  }
  return out;
}

const ARROW = /(\S+?)\s*(?:-->|->|=>|→|⟶|⇒)\s*(\S+)/gu;

/**
 * `A -> B` between two entities. An arrow whose ends are ordinary words ("3 hours->last week")
 * is no statement about entities and is dropped.
 */
function arrowStatements(text: string, occ: Occurrence[], doc: NlpDoc): ExtractedStatement[] {
  const out: ExtractedStatement[] = [];
  ARROW.lastIndex = 0;
  for (let m = ARROW.exec(text); m !== null; m = ARROW.exec(text)) {
    const leftEnd = m.index + m[1]!.length;
    const rightStart = m.index + m[0].length - m[2]!.length;
    const left = endpoint(occ, leftEnd, 'left') ?? looseEndpoint(m[1]!, m.index, doc, occ);
    const right = endpoint(occ, rightStart, 'right') ?? looseEndpoint(m[2]!, rightStart, doc, occ);
    if (left && right && left !== right) out.push({ a: left, b: right, type: 'arrow' });
    ARROW.lastIndex = rightStart;
  }
  return out;
}

function endpoint(occ: readonly Occurrence[], at: number, side: 'left' | 'right'): string | null {
  const hit = occ.find((o) =>
    side === 'left'
      ? o.end >= at - 1 && o.end <= at && o.start < at
      : o.start >= at && o.start <= at + 1,
  );
  return hit?.key ?? null;
}

/** An arrow end that no rule found is kept when it looks technical or is no English word. */
function looseEndpoint(raw: string, start: number, doc: NlpDoc, occ: Occurrence[]): string | null {
  const surface = cleanSurface(raw, 'identifier');
  const key = entityKey(surface, 'identifier');
  if (isNoiseKey(key, 'identifier') || /^[\p{N}.,:-]+$/u.test(key)) return null;
  const technical = /[_./:\d]|\p{Ll}\p{Lu}|\p{L}-\p{L}/u.test(surface);
  if (!technical && !(key.length >= 3 && /^\p{L}+$/u.test(key) && doc.isOOV(key))) return null;
  occ.push({ start, end: start + raw.length, key, surface, type: 'identifier', weak: false });
  return key;
}

function finish(
  occurrences: readonly Occurrence[],
  statements: readonly ExtractedStatement[],
  maxEntities: number,
  truncated: boolean,
): Extraction {
  const byKey = new Map<
    string,
    {
      first: number;
      types: Map<string, number>;
      surfaces: Map<string, number>;
      count: number;
      weak: boolean;
    }
  >();
  occurrences.forEach((o, index) => {
    let e = byKey.get(o.key);
    if (!e)
      byKey.set(
        o.key,
        (e = { first: index, types: new Map(), surfaces: new Map(), count: 0, weak: true }),
      );
    e.count++;
    e.weak &&= o.weak;
    e.surfaces.set(o.surface, (e.surfaces.get(o.surface) ?? 0) + 1);
    e.types.set(o.type, (e.types.get(o.type) ?? 0) + 1);
  });
  const entities: (ExtractedEntity & { first: number })[] = [...byKey].map(([key, e]) => ({
    key,
    surface: top(e.surfaces),
    type: top(e.types) as EntityType,
    count: e.count,
    weak: e.weak,
    first: e.first,
  }));
  entities.sort((a, b) => b.count - a.count || a.first - b.first);
  const kept = entities.slice(0, maxEntities);
  const keys = new Set(kept.map((e) => e.key));
  const seen = new Set<string>();
  const kStatements = statements.filter((s) => {
    const id = `${s.type}\u0000${s.a}\u0000${s.b}`;
    if (!keys.has(s.a) || !keys.has(s.b) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return {
    entities: kept.map(({ first: _first, ...e }) => e),
    statements: kStatements,
    truncated,
  };
}

/** The most frequent value; ties go to the first seen. */
function top(counts: ReadonlyMap<string, number>): string {
  let best = '';
  let n = -1;
  for (const [value, c] of counts) if (c > n) [best, n] = [value, c];
  return best;
}

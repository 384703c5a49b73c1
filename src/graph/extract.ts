/**
 * Entity extraction (§4): pattern rules for technical tokens, then the English NLP model for
 * names (runs of proper nouns), then statements (aliases, arrows) between what was found.
 * Deterministic for a given text and bounds, so a rebuild reproduces the incremental graph.
 */
import type {
  EntityType,
  ExtractedEntity,
  ExtractedStatement,
  Extraction,
} from '../domain/graph.js';
import { namedProse, nameRuns, type Prose } from './names.js';
import { analyse, type NlpDoc } from './nlp.js';
import { cleanSurface, entityKey, isNoiseKey } from './normalize.js';
import { matchPatterns, type PatternMatch } from './patterns.js';

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

/**
 * Analyses of the texts of one batch, by prose: chat turns often repeat a short line ("Thanks,
 * Mel!"), and the model's analysis of a text depends on nothing else.
 */
export type AnalysisMemo = Map<string, NlpDoc>;

/** Extracts entities and statements from a text within the bounds. */
export function extract(text: string, options: ExtractOptions, memo?: AnalysisMemo): Extraction {
  const { body, truncated } = bound(text, options.maxChars);
  const { matches, masked } = matchPatterns(body);
  const occurrences = matches.flatMap((m) => occurrence(m));
  const prose = namedProse(masked);
  const doc = analyseProse(prose.text, memo);
  const offsets = tokenOffsets(prose, doc.values);
  for (const { from, to, weak } of nameRuns(doc)) {
    const start = offsets[from]!;
    const end = offsets[to]! + doc.values[to]!.length;
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

/** Extracts the texts of one batch (the same as one by one, sharing repeated analyses). */
export function extractMany(texts: readonly string[], options: ExtractOptions): Extraction[] {
  const memo: AnalysisMemo = new Map();
  return texts.map((text) => extract(text, options, memo));
}

/** The model's analysis of the prose, once per batch. */
function analyseProse(prose: string, memo: AnalysisMemo | undefined): NlpDoc {
  let doc = memo?.get(prose);
  if (!doc) {
    doc = analyse(prose);
    memo?.set(prose, doc);
  }
  return doc;
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
  if (!key.includes(' ')) return key;
  const words = key.split(' ');
  const last = words[words.length - 1]!;
  const one = words.length > 1 ? singular(last) : null;
  if (!one || doc.isOOV(last) || doc.isOOV(one)) return key;
  return [...words.slice(0, -1), one].join(' ');
}

/** Character offset of each token in the text (-1 when the tokenizer changed its spelling). */
function tokenOffsets(prose: Prose, values: readonly string[]): number[] {
  let cursor = 0;
  return values.map((value) => {
    const at = prose.text.indexOf(value, cursor);
    if (at < 0) return -1;
    cursor = at + value.length;
    return prose.start + at;
  });
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
/** Every arrow ARROW reads contains one of these; most texts have none (the lazy scan is slow). */
const ARROW_SIGN = /->|=>|[→⟶⇒]/u;

/**
 * `A -> B` between two entities. An arrow whose ends are ordinary words ("3 hours->last week")
 * is no statement about entities and is dropped.
 */
function arrowStatements(text: string, occ: Occurrence[], doc: NlpDoc): ExtractedStatement[] {
  const out: ExtractedStatement[] = [];
  if (!ARROW_SIGN.test(text)) return out;
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

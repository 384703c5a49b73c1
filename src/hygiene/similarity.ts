/**
 * Near-duplicate judgement (§10): two texts of one kind are near-duplicates when their vectors are
 * close AND their words overlap, and nothing says they state different facts.
 *
 * Words match exactly, by stem or as a one-letter typo (word-vector synonyms: see SYNONYM_COSINE).
 * The overlap is the share of the longer text's content words matched in the other.
 * Guards catch "same template, different facts", which vectors and overlap both miss in short
 * texts: a number or a name of one text missing in the other, two words the other way round, a
 * negation on one side only, two different words of one kind in the same place (GloVe puts
 * "Monday" and "Tuesday" closer than true synonyms), and a content word of the shorter text that
 * the longer lacks (a substitution, where an addition would leave the shorter one covered).
 */
import { STOP_WORDS, wordTokens } from '../domain/text.js';
import { dot, type WordVectorLookup } from '../embed/embedder.js';
import { properNames } from '../retrieval/rerank/alignment.js';
import { stem } from '../retrieval/rerank/stem.js';

// Word vectors for synonyms come from the embedder, as for the alignment scorer; app.ts lends the
// built-in GloVe ones to an embedder without them.
export type { WordVectorSource } from '../retrieval/rerank/alignment.js';
export { wordVectorSource } from '../retrieval/rerank/scorers.js';

type Words = WordVectorLookup | undefined;

/**
 * Word cosine from which two different words count as one (a synonym). On GloVe, synonyms sit at
 * 0.44-0.88 and different things of one kind at 0.7-0.99 (tea/coffee 0.77), so this equals
 * ALTERNATIVE_COSINE: no synonyms (precision at 100k 0.957 -> 0.992; bench/hygiene/README.md).
 */
export const SYNONYM_COSINE = 0.85;

/**
 * Word cosine from which two different words are alternatives of one kind rather than synonyms:
 * words that fill the same slot in text are closest in GloVe (monday/tuesday 0.99, three/four
 * 0.99, before/after 0.93, morning/evening 0.89, cat/dog 0.88, increase/decrease 0.88), above
 * every synonym measured (begin/start 0.83). One such word in place of the other differs in fact.
 */
export const ALTERNATIVE_COSINE = 0.85;

/** One side of a pair: its text (title and body as embedded) and its unit vector. */
export interface PairInput {
  text: string;
  vector: Float32Array;
}

/** Thresholds of a near-duplicate (config `dream.duplicates`). */
export interface PairThresholds {
  similarity: number;
  overlap: number;
}

/** The judgement of a pair; `reason` names a rule, never the memory text (it goes to a diary). */
export interface PairJudgement {
  similarity: number;
  overlap: number;
  duplicate: boolean;
  reason: string;
}

/** Why a pair with close vectors and overlapping text is still not a duplicate. */
export type GuardReason =
  | 'numbers differ'
  | 'names differ'
  | 'roles differ'
  | 'negation differs'
  | 'alternative words differ'
  | 'words differ';

/** Text overlap of two texts and the first guard that finds different facts (null when none). */
export interface TextComparison {
  overlap: number;
  guard: GuardReason | null;
}

/** Judges whether two texts of one kind are near-duplicates (see the file header). */
export function judgePair(
  a: PairInput,
  b: PairInput,
  words: WordVectorLookup | undefined,
  thresholds: PairThresholds,
): PairJudgement {
  return judgeScores(dot(a.vector, b.vector), compareTexts(a.text, b.text, words), thresholds);
}

/** The judgement of a pair from its vector similarity and its text comparison. */
export function judgeScores(
  similarity: number,
  { overlap, guard }: TextComparison,
  thresholds: PairThresholds,
): PairJudgement {
  const at = { similarity, overlap };
  if (similarity < thresholds.similarity)
    return { ...at, duplicate: false, reason: 'similarity below threshold' };
  if (guard !== null && guard !== 'words differ') return { ...at, duplicate: false, reason: guard };
  if (overlap < thresholds.overlap)
    return { ...at, duplicate: false, reason: 'text overlap below threshold' };
  if (guard !== null) return { ...at, duplicate: false, reason: guard };
  return { ...at, duplicate: true, reason: 'similar vectors and overlapping text' };
}

/** Compares two texts (see TextComparer), with a bounded cache of analysed texts per word-vector set. */
export function compareTexts(
  a: string,
  b: string,
  words: WordVectorLookup | undefined,
): TextComparison {
  return sharedComparer(words).compare(a, b);
}

/**
 * Compares texts with one set of word vectors, analysing each text once and keeping it while the
 * comparer lives: a dream run makes one, so texts met in many pairs are read once.
 */
export class TextComparer {
  private readonly seen = new Map<string, Analysed>();

  constructor(
    readonly words: WordVectorLookup | undefined,
    /** Texts kept at most; the cache starts over when full. */
    private readonly limit = Infinity,
  ) {}

  /**
   * Text overlap and the first guard that finds different facts (see the file header). With
   * `measureGuarded` false, a pair a fact guard tells apart is not aligned (overlap NaN).
   */
  compare(a: string, b: string, measureGuarded = true): TextComparison {
    const { words } = this;
    const x = this.analyse(a);
    const y = this.analyse(b);
    const guard = factGuard(x, y, words);
    if (guard !== null && !measureGuarded) return { overlap: Number.NaN, guard };
    const [longer, shorter] = isLonger(y, x, b, a) ? [y, x] : [x, y];
    const forward = align(longer, shorter, this);
    const backward = align(shorter, longer, this);
    const overlap = longer.words.length === 0 ? 1 : forward.matched / longer.words.length;
    if (guard !== null) return { overlap, guard };
    if (forward.alternatives + backward.alternatives > 0)
      return { overlap, guard: 'alternative words differ' };
    return { overlap, guard: backward.matched < shorter.words.length ? 'words differ' : null };
  }

  /**
   * True when `container` says everything `part` says: the part's numbers and names occur in it,
   * both or neither negate, and at least `share` of the part's content words match in it.
   */
  covers(container: string, part: string, share = 0.8): boolean {
    const c = this.analyse(container);
    const p = this.analyse(part);
    if (p.words.length === 0) return true;
    if (c.negated !== p.negated) return false;
    if (![...p.numbers, ...p.names].every((t) => c.tokens.has(t))) return false;
    const { matched, alternatives } = align(p, c, this);
    return alternatives === 0 && matched / p.words.length >= share;
  }

  private readonly vectors = new Map<number, Float32Array>();

  /** The unit vector of a word id, kept (a run meets the same few thousand words again and again). */
  vectorOf(id: number): Float32Array {
    let v = this.vectors.get(id);
    if (v !== undefined) return v;
    if (this.vectors.size >= 50_000) this.vectors.clear();
    this.vectors.set(id, (v = this.words!.wordVector(id)));
    return v;
  }

  private analyse(text: string): Analysed {
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    if (this.seen.size >= this.limit) this.seen.clear();
    const analysed = analyseText(text, this.words);
    this.seen.set(text, analysed);
    return analysed;
  }
}

const shared = new WeakMap<object, TextComparer>();

/** The comparer of the module functions, one per word-vector set (the map itself: none). */
function sharedComparer(words: Words): TextComparer {
  const comparer = shared.get(words ?? shared) ?? new TextComparer(words, 20_000);
  return shared.set(words ?? shared, comparer).get(words ?? shared)!;
}

/** A content word of a text: one per stem. Numbers and names match only themselves. */
interface Word {
  token: string;
  stem: string;
  /** Id in the word vectors for synonyms; -1 when unknown, without word vectors, or exact-only. */
  id: number;
  /** Frequency rank in the word vectors (Infinity when unknown or without word vectors). */
  rank: number;
  /** Has a digit: never a typo of anything. */
  digit: boolean;
  exactOnly: boolean;
}

/** A text reduced to what the judgement needs. */
interface Analysed {
  words: Word[];
  stems: Set<string>;
  /** Every token, lowercased, possessives dropped. */
  tokens: Set<string>;
  numbers: Set<string>;
  names: Set<string>;
  negated: boolean;
  /** Stems of the content words in text order, repeats kept. */
  order: string[];
  /** First position of each content stem in `order`. */
  at: Map<string, number>;
  /** How often "by" occurs: a passive rewording puts the names the other way round. */
  byCount: number;
}

const NEGATIONS = new Set(
  `not no never without nothing none nobody neither nor cannot dont doesnt didnt isnt arent wasnt
werent wont cant couldnt shouldnt wouldnt hasnt havent hadnt mustnt`.split(/\s+/u),
);

/** Spelled numbers; "one" and "second" are left out (a pronoun and a unit far more often). */
const NUMBER_WORDS = new Set(
  `zero two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
thousand million billion third fourth fifth sixth seventh eighth ninth tenth once twice half
dozen`.split(/\s/u),
);

const NUMBER = /\p{N}+(?:[.,:/-]\p{N}+)*/gu;
const SENTENCE_START = /(?:^|[.!?:;"“(]\s*)(\p{Lu}[\p{L}\p{N}]*)/gu;

function isNegation(token: string): boolean {
  return NEGATIONS.has(token) || /n['’]t$/u.test(token);
}

function bare(token: string): string {
  return token.replace(/['’]s?$/u, '');
}

/**
 * Capitalised words, per line (a title ends without a full stop): inside a sentence they are
 * proper names; at a sentence start they may be ("Alice prefers tea"), and a name's nearest word
 * vectors are other names, so both only ever match themselves.
 */
function namesOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split(/\n+/u)) {
    for (const name of properNames(line)) names.add(bare(name));
    for (const m of line.matchAll(SENTENCE_START)) names.add(bare(m[1]!.toLowerCase()));
  }
  for (const name of names)
    if (STOP_WORDS.has(name) || isNegation(name) || NUMBER_WORDS.has(name)) names.delete(name);
  return names;
}

function analyseText(text: string, words: Words): Analysed {
  const sequence = wordTokens(text).map(bare);
  const tokens = new Set(sequence);
  const numbers = new Set(
    [...text.matchAll(NUMBER)].map((m) => m[0].replace(/,(?=\p{N}{3}\b)/gu, '')),
  );
  for (const t of tokens) if (NUMBER_WORDS.has(t)) numbers.add(t);
  const names = namesOf(text);
  const byStem = new Map<string, Word>();
  const order: string[] = [];
  for (const token of sequence) {
    if (token.length < 2 || STOP_WORDS.has(token) || isNegation(token)) continue;
    const s = stem(token);
    order.push(s);
    if (byStem.has(s)) continue;
    const digit = /\p{N}/u.test(token);
    const exactOnly = digit || NUMBER_WORDS.has(token) || names.has(token);
    const id = words ? words.wordId(token) : -1;
    const rank = id < 0 ? Infinity : id + 1;
    byStem.set(s, { token, stem: s, id: exactOnly ? -1 : id, rank, digit, exactOnly });
  }
  for (const n of numbers) tokens.add(n);
  const negated = [...tokens].some(isNegation);
  return {
    words: [...byStem.values()],
    stems: new Set(byStem.keys()),
    tokens,
    numbers,
    names,
    negated,
    order,
    at: new Map(order.map((s) => [s, order.indexOf(s)])),
    byCount: sequence.filter((t) => t === 'by').length,
  };
}

function isLonger(x: Analysed, y: Analysed, xText: string, yText: string): boolean {
  if (x.words.length !== y.words.length) return x.words.length > y.words.length;
  return xText.length > yText.length;
}

/** How the words of `from` match in `to`. */
interface Alignment {
  matched: number;
  /** Words of `from` in place of a different word of one kind in `to` (cosine >= ALTERNATIVE_COSINE). */
  alternatives: number;
}

function align(from: Analysed, to: Analysed, comparer: TextComparer): Alignment {
  const { words } = comparer;
  const out = { matched: 0, alternatives: 0 };
  // Partners for soft matches: words of `to` that `from` does not have itself.
  const partners = to.words.filter((w) => !from.stems.has(w.stem) && !from.tokens.has(w.token));
  for (const word of from.words) {
    if (to.stems.has(word.stem) || to.tokens.has(word.token)) out.matched++;
    else if (partners.some((p) => isTypo(word, p, words))) out.matched++;
    else if (words && word.id >= 0) {
      const v = comparer.vectorOf(word.id);
      const best = Math.max(
        ...partners.map((p) => (p.id < 0 ? -1 : dot(v, comparer.vectorOf(p.id)))),
      );
      if (best >= ALTERNATIVE_COSINE) out.alternatives++;
      else if (best >= SYNONYM_COSINE) out.matched++;
    }
  }
  return out;
}

/**
 * Frequency rank past which a word one letter away from another is a misspelling of it: GloVe
 * knows common misspellings, all rare (mintues 144,178th, recieve 159,836th, buidling 310,148th),
 * while real words one letter apart are commoner (untied 42,251st, planing 68,100th).
 */
export const MISSPELLING_RANK = 100_000;

/** A one-letter slip between words of 5+ letters, one unknown to the vectors or rarer than MISSPELLING_RANK. */
function isTypo(a: Word, b: Word, words: Words): boolean {
  const [m, n] = [a.token.length, b.token.length];
  if (m < 5 || n < 5 || Math.abs(m - n) > 1 || a.digit || b.digit) return false;
  if (words && Math.max(a.rank, b.rank) <= MISSPELLING_RANK) return false;
  return oneEdit(a.token, b.token);
}

/** True when `a` and `b` differ by exactly one edit (Damerau: a swap of neighbours counts as one). */
export function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

/** Numbers, names, roles or negation that differ between two texts (null when none do). */
function factGuard(x: Analysed, y: Analysed, words: Words): GuardReason | null {
  if (!sameSet(x.numbers, y.numbers)) return 'numbers differ';
  if (missingName(x, y, words) || missingName(y, x, words)) return 'names differ';
  if (reordered(x, y)) return 'roles differ';
  if (x.negated !== y.negated) return 'negation differs';
  return null;
}

/**
 * Two words the other way round about the same words between them ("Ana helped Bo" / "On Monday,
 * Bo helped Ana"; "billing calls search" / "search calls billing"): the same bag of words states
 * another fact, unless a passive rewording ("by") explains the order. Only words both texts have
 * count between the two (a title or an adverb in one changes nothing). A symmetric statement
 * ("Ana and Bo met") is kept apart too.
 */
function reordered(x: Analysed, y: Analysed): boolean {
  if (x.byCount !== y.byCount) return false;
  const shared = x.words.filter((w) => y.at.has(w.stem)).map((w) => w.stem);
  const between = (a: Analysed, m: string, n: string) =>
    [...new Set(a.order.slice(a.at.get(m)! + 1, a.at.get(n)))]
      .filter((s) => s !== m && s !== n && x.at.has(s) && y.at.has(s))
      .sort()
      .join(' ');
  return shared.some((m) =>
    shared.some((n) => {
      if (x.at.get(m)! >= x.at.get(n)! || y.at.get(n)! >= y.at.get(m)!) return false;
      const words = between(x, m, n);
      return words !== '' && words === between(y, n, m);
    }),
  );
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((t) => b.has(t));
}

/** True when a name of `from` is not in `other` (by token, stem or a misspelling). */
function missingName(from: Analysed, other: Analysed, words: Words): boolean {
  return from.words.some(
    (w) =>
      from.names.has(w.token) &&
      !other.tokens.has(w.token) &&
      !other.stems.has(w.stem) &&
      !other.words.some((o) => isTypo(w, o, words)),
  );
}

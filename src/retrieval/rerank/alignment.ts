/**
 * The built-in `alignment` relevance scorer (§8): soft term alignment with the word vectors of the
 * embedder (the static GloVe ones by default), offline and fast enough to judge a whole recall
 * pool within a few milliseconds.
 *
 * For a query with content terms t (stop-words dropped, one term per stem) and a document D:
 *
 *   match(t, w) = 1                                        when stem(t) = stem(w)
 *               = max(0, (cos(t, w) - floor) / (1 - floor)) otherwise; 0 when either word has no
 *                                                          vector or t is a proper name (names
 *                                                          only ever match themselves)
 *   best(t)     = max( max_{w ∈ D.text} match(t, w),  context · max_{w ∈ D.context} match(t, w) )
 *   exact(t)    = 1 when t's stem occurs in D.text, context when only in D.context, else 0
 *   soft        = Σ w(t) · best(t)  / Σ w(t)
 *   lexical     = Σ w(t) · exact(t) / Σ w(t)
 *   relevance   = (1 - lexical_weight) · soft + lexical_weight · lexical          ∈ [0, 1]
 *
 * Stems are English (Porter2) stems, and stop-words are English ones; for a query told another
 * language than English (by two telling words, as the word vectors are set aside: one would take
 * a name such as "Kim", a Turkish function word, out of "Kim's new job"), the words of that
 * language in the query and in every document are read as the keyword index reads them: the
 * language's own stems, its function words left out (src/domain/inflection.ts).
 *
 * w(t) = idf(t) · pool(t). idf(t) = ln(1 + rank(t) / common_rank) estimates inverse document
 * frequency from the word's frequency rank in the vectors' corpus (Zipf's law), so very common
 * words weigh almost nothing and rare ones most; words outside the vocabulary (names, numbers,
 * codes) count as the rarest. pool(t) weighs a term by how well it tells the judged documents
 * apart: with N documents judged together, n(t) of them holding t's stem in their own text,
 *
 *   pool(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5)) / ln(1 + (N + 0.5) / 0.5)     ∈ (0, 1]
 *
 * (BM25's idf over the pool, 1 for a term no document holds), so a word every candidate shares,
 * such as the name of the person a conversation is with, weighs little when they are ranked
 * (`pool_weighting`, on by default; off, pool(t) = 1). 1 means every query term occurs in the
 * document; 0 means nothing in it relates to the query.
 */
import { MODEL_LANGUAGE_EVIDENCE, toldOtherThanEnglish } from '../../domain/inflection.js';
import { dot4 } from '../../domain/simd-dot.js';
import type { WordVectorLookup } from '../../embed/embedder.js';
import type { RelevanceDocument, RelevanceScorer } from './relevance.js';
import {
  type Analysed,
  analyser,
  eachContent,
  unitVector,
  type WordTable,
  wordTable,
} from './word-table.js';

/** Tunables of the alignment scorer (defaults chosen on LoCoMo conversations 1-5). */
export interface AlignmentOptions {
  /** Cosine at or below which two different words are unrelated (default 0.4). */
  floor?: number;
  /** Share of the score that only exact (same-stem) matches earn, 0..1 (default 0.5). */
  lexicalWeight?: number;
  /** Discount on evidence found only in a document's context, 0..1 (default 0.7). */
  contextWeight?: number;
  /** Frequency rank below which words weigh little in idf (default 100). */
  commonRank?: number;
  /** Weighs each term by how many of the judged documents hold it (pool(t), default on). */
  poolWeighting?: boolean;
}

/** Where the scorer gets word vectors: an embedder with the word-vector capability. */
export interface WordVectorSource {
  wordVectors(): Promise<WordVectorLookup>;
}

/** Default alignment tunables. */
export const ALIGNMENT_DEFAULTS: Readonly<Required<AlignmentOptions>> = Object.freeze({
  floor: 0.4,
  lexicalWeight: 0.5,
  contextWeight: 0.7,
  commonRank: 100,
  poolWeighting: true,
});

interface Term {
  stem: string;
  vector: Float32Array | null;
  idf: number;
}

/** The alignment relevance scorer over a set of word vectors. */
export class AlignmentScorer implements RelevanceScorer {
  readonly name = 'alignment';
  private readonly options: Required<AlignmentOptions>;

  constructor(
    private readonly source: WordVectorSource,
    options: AlignmentOptions = {},
  ) {
    this.options = { ...ALIGNMENT_DEFAULTS, ...options };
  }

  async score(query: string, documents: readonly RelevanceDocument[]): Promise<number[]> {
    const words = await this.source.wordVectors();
    return scoreAlignment(words, query, documents, this.options);
  }
}

/** Synchronous core of the alignment scorer (see the file header for the formula). */
export function scoreAlignment(
  words: WordVectorLookup,
  query: string,
  documents: readonly RelevanceDocument[],
  options: AlignmentOptions = {},
): number[] {
  const o = { ...ALIGNMENT_DEFAULTS, ...options };
  const told = toldOtherThanEnglish(query, MODEL_LANGUAGE_EVIDENCE);
  const terms = queryTerms(words, query, o.commonRank, told);
  if (terms.length === 0 || terms.every((t) => t.idf === 0)) return documents.map(() => 0);
  const table = wordTable(words);
  table.trim();
  const analyse = analyser(table, told);
  const sides = documents.map((d) => ({
    own: analyse(d.text),
    around: (d.context ?? []).map(analyse),
  }));
  const matches = new SoftTable(table, terms, sides, o.floor);
  const weights = o.poolWeighting
    ? poolWeights(
        terms,
        matches.termStems,
        sides.map((s) => s.own),
      )
    : terms.map((t) => t.idf);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const n = terms.length;
  const aroundBest = new Float64Array(n);
  const aroundExact = new Uint8Array(n);
  const { bests, exacts } = matches;
  return sides.map(({ own, around }) => {
    // A text judged before in this call (a turn is often another's context) is read again.
    const mine = matches.judge(own);
    aroundBest.fill(0);
    aroundExact.fill(0);
    for (const part of around) {
      const at = matches.judge(part);
      for (let t = 0; t < n; t++) {
        if (bests[at + t]! > aroundBest[t]!) aroundBest[t] = bests[at + t]!;
        aroundExact[t]! |= exacts[at + t]!;
      }
    }
    let soft = 0;
    let lexical = 0;
    for (let t = 0; t < n; t++) {
      const w = weights[t]!;
      soft += w * Math.max(bests[mine + t]!, o.contextWeight * aroundBest[t]!);
      lexical += w * (exacts[mine + t] ? 1 : aroundExact[t] ? o.contextWeight : 0);
    }
    const score = ((1 - o.lexicalWeight) * soft + o.lexicalWeight * lexical) / total;
    return Math.min(1, Math.max(0, score));
  });
}

/** w(t) = idf(t) · pool(t) (see the file header), from each document's own text. */
function poolWeights(
  terms: readonly Term[],
  stems: Int32Array,
  texts: readonly Analysed[],
): number[] {
  const n = texts.length;
  const holding = new Array<number>(terms.length).fill(0);
  for (const text of texts)
    stems.forEach((s, t) => {
      if (s >= 0 && text.stems.includes(s)) holding[t]!++;
    });
  const most = Math.log(1 + (n + 0.5) / 0.5);
  return terms.map((term, t) => {
    const pool = Math.log(1 + (n - holding[t]! + 0.5) / (holding[t]! + 0.5)) / most;
    return term.idf * pool;
  });
}

/**
 * Lowercased words written with a capital inside a sentence ("did Caroline go"): proper names,
 * whose nearest word vectors are other names, so they may only match exactly.
 */
export function properNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/(?<![\p{L}\p{N}'’-])\p{Lu}[\p{L}\p{N}]*/gu)) {
    const before = text.slice(0, match.index).trimEnd();
    const sentenceStart = before === '' || /[.!?:;"“(]$/u.test(before);
    if (!sentenceStart) names.add(match[0].toLowerCase());
  }
  return names;
}

function queryTerms(
  words: WordVectorLookup,
  query: string,
  commonRank: number,
  told: boolean,
): Term[] {
  const names = properNames(query);
  const byStem = new Map<string, Term>();
  // Read as the documents are (`analyser`): a told language's stems, without its function words.
  eachContent(words.tokenize(query), told, (token, s) => {
    if (byStem.has(s)) return;
    const id = words.wordId(token);
    const rank = id < 0 ? words.size : id + 1;
    byStem.set(s, {
      stem: s,
      vector: id < 0 || names.has(token) ? null : unitVector(words, id),
      idf: Math.log1p(rank / commonRank),
    });
  });
  return [...byStem.values()];
}

/**
 * match(t, w) for every query term and every distinct word of the documents and their contexts,
 * computed once per scoring call (a pool shares most of its words), not once per document.
 */
class SoftTable {
  /** match(t, w) at `column(w) * terms + t`. */
  private readonly values: Float32Array;
  /** Each term's stem id, or -1 when no analysed text holds it. */
  readonly termStems: Int32Array;
  /** best(t, text) of each text judged in this call, `terms` values from the text's `at`. */
  bests: Float64Array;
  /** 1 where the text holds the term's stem. */
  exacts: Uint8Array;
  private judged = 0;
  /** This call's number (`WordTable.calls`), which marks the texts judged in it. */
  private readonly call: number;

  constructor(
    private readonly table: WordTable,
    private readonly terms: readonly Term[],
    sides: readonly { own: Analysed; around: readonly Analysed[] }[],
    floor: number,
  ) {
    const { column, stamp } = table;
    const generation = table.nextCall();
    this.call = table.calls;
    const texts = sides.reduce((sum, side) => sum + 1 + side.around.length, 0);
    this.bests = new Float64Array(texts * terms.length);
    this.exacts = new Uint8Array(texts * terms.length);
    this.termStems = Int32Array.from(terms, (term) => table.stems.get(term.stem) ?? -1);
    const ids: number[] = [];
    const add = (side: Analysed) => {
      for (const id of side.ids)
        if (stamp[id] !== generation) {
          stamp[id] = generation;
          column[id] = ids.length;
          ids.push(id);
        }
    };
    for (const { own, around } of sides) {
      add(own);
      for (const part of around) add(part);
    }
    const n = terms.length;
    this.values = new Float32Array(n * ids.length);
    const soft = terms.flatMap((term, t) => (term.vector ? [t] : []));
    if (soft.length === 0) return;
    const dim = table.dimension;
    const termVectors = new Float64Array(soft.length * dim);
    soft.forEach((t, k) => termVectors.set(terms[t]!.vector!, k * dim));
    const slots = table.slotsOf(ids);
    const values = this.values;
    // Every word against every term in one call of the kernel, then kept above the floor.
    const cos = table.dots(slots, termVectors, soft.length);
    if (cos) {
      for (let col = 0; col < ids.length; col++)
        for (let k = 0; k < soft.length; k++) {
          const c = cos[col * soft.length + k]!;
          if (c > floor) values[col * n + soft[k]!] = (c - floor) / (1 - floor);
        }
      return;
    }
    // Word-major: each word's vector is read once and met by every term while it is hot.
    const slab = table.slab;
    for (let col = 0; col < ids.length; col++)
      for (let k = 0; k < soft.length; k++) {
        const c = dot4(termVectors, k * dim, slab, slots[col]! * dim, dim);
        if (c > floor) values[col * n + soft[k]!] = (c - floor) / (1 - floor);
      }
  }

  /**
   * Where best(t, text) and exact(t, text) of every term are in `bests` and `exacts`, computed on
   * the text's first judging in this call.
   */
  judge(text: Analysed): number {
    if (text.call === this.call) return text.at;
    const n = this.terms.length;
    const at = this.judged++ * n;
    text.call = this.call;
    text.at = at;
    const { bests, exacts, termStems, values } = this;
    const stems = text.stems;
    for (let i = 0; i < stems.length; i++)
      for (let t = 0; t < n; t++)
        if (termStems[t] === stems[i]) {
          bests[at + t] = 1;
          exacts[at + t] = 1;
        }
    const column = this.table.column;
    for (const id of text.ids) {
      const base = column[id]! * n;
      for (let t = 0; t < n; t++) {
        const m = values[base + t]!;
        if (m > bests[at + t]!) bests[at + t] = m;
      }
    }
    return at;
  }
}

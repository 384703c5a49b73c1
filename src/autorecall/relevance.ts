/**
 * Relevance of a memory to a conversation message, on a documented 0..1 scale (§6 step 2):
 *
 *   semantic  = clamp((cos - cosine_floor) / (cosine_ceiling - cosine_floor), 0, 1)
 *   lexical   = Σ w(t) · [stem(t) occurs in the memory] / Σ w(t)   over the message's search terms
 *               (w = 3 for words of entities, 1 for topics and content verbs)
 *   entity    = share of the message's named entities (names, identifiers, paths, urls, emails,
 *               versions) whose words all occur in the memory
 *   relevance = max(1 - (1 - semantic) · (1 - 0.8 · lexical),  0.75 · entity)
 *
 * `cos` is the cosine between the message's and the memory's embeddings. Averaged word vectors
 * put unrelated English sentences anywhere in 0.45–0.85 and paraphrases above 0.9, so the
 * defaults (floor 0.65, ceiling 0.95) credit only clear closeness. Semantic and lexical evidence
 * combine like independent signals, lexical alone topping out at 0.8; a memory about every entity
 * the message names (the person, the service, the file) scores at least 0.75. With the default
 * threshold 0.7 an item is kept when it carries most of the message's telling terms, names what
 * the message names, is semantically very close, or has a fair amount of both kinds of evidence.
 * Without an embedder, the semantic part is 0.
 */
import { labelTerms, stemWord } from '../lifecycle/terms.js';

/** The weighted search terms of a message. */
export interface WeightedTerm {
  stem: string;
  weight: number;
}

/** Weighted, stemmed terms of a message (entity words weigh 3). */
export function weightedTerms(terms: readonly string[], entityWords: ReadonlySet<string>) {
  const out = new Map<string, number>();
  for (const t of terms) {
    const stem = stemWord(t);
    out.set(stem, Math.max(out.get(stem) ?? 0, entityWords.has(t) ? 3 : 1));
  }
  return [...out].map(([stem, weight]): WeightedTerm => ({ stem, weight }));
}

/** Share of the message's term weight that occurs in the memory's text. */
export function lexicalCoverage(terms: readonly WeightedTerm[], memoryText: string): number {
  if (terms.length === 0) return 0;
  const present = new Set(labelTerms(memoryText));
  let hit = 0;
  let total = 0;
  for (const t of terms) {
    total += t.weight;
    if (present.has(t.stem)) hit += t.weight;
  }
  return total === 0 ? 0 : hit / total;
}

/** Share of the entities (each a list of stemmed words) wholly present in the memory's text. */
export function entityCoverage(entities: readonly string[][], memoryText: string): number {
  if (entities.length === 0) return 0;
  const present = new Set(labelTerms(memoryText));
  const found = entities.filter((words) => words.length > 0 && words.every((w) => present.has(w)));
  return found.length / entities.length;
}

/** The semantic part: cosine rescaled between the floor and the ceiling. */
export function semanticScore(cos: number | null, floor: number, ceiling: number): number {
  if (cos === null || !Number.isFinite(cos)) return 0;
  return Math.min(1, Math.max(0, (cos - floor) / (ceiling - floor)));
}

/** The combined relevance (see the file header). */
export function combineRelevance(semantic: number, lexical: number, entity = 0): number {
  return Math.max(1 - (1 - semantic) * (1 - 0.8 * lexical), 0.75 * entity);
}

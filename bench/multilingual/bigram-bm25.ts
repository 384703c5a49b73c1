/**
 * The baseline of the multilingual benchmark: BM25 over character bigrams, the usual way to
 * search text in scripts without spaces when no dictionary is at hand. Text is NFKC-normalised and
 * lower-cased; every run of letters, marks and digits becomes its overlapping pairs of characters
 * (a run of one character stays itself). BM25 with k1 = 1.2, b = 0.75 and
 * idf = ln(1 + (N − df + 0.5) / (df + 0.5)); each distinct query bigram counts once.
 */

const K1 = 1.2;
const B = 0.75;

/** The bigram tokens of a text. */
export function bigramTokens(text: string): string[] {
  const out: string[] = [];
  for (const run of text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
    const chars = [...run];
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

/** An in-memory BM25 index over the bigrams of a list of documents. */
export class BigramBm25 {
  private readonly tf: Map<string, number>[];
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly average: number;

  constructor(
    private readonly ids: readonly string[],
    texts: readonly string[],
  ) {
    this.tf = texts.map((text) => {
      const counts = new Map<string, number>();
      for (const t of bigramTokens(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const t of counts.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return counts;
    });
    this.lengths = texts.map((text) => bigramTokens(text).length);
    this.average = this.lengths.reduce((a, n) => a + n, 0) / Math.max(1, texts.length);
  }

  /** Ids of the best `k` documents with a positive score, best first (ties by position). */
  search(query: string, k: number): string[] {
    const n = this.tf.length;
    const terms = [...new Set(bigramTokens(query))].filter((t) => this.df.has(t));
    const scored: { i: number; score: number }[] = [];
    this.tf.forEach((counts, i) => {
      let score = 0;
      for (const t of terms) {
        const f = counts.get(t);
        if (!f) continue;
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const norm = 1 - B + (B * this.lengths[i]!) / this.average;
        score += (idf * f * (K1 + 1)) / (f + K1 * norm);
      }
      if (score > 0) scored.push({ i, score });
    });
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    return scored.slice(0, k).map((s) => this.ids[s.i]!);
  }
}

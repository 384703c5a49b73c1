/** Scores of the multilingual benchmark: recall@k per ranking system, zero-hit questions. */
import { recallAtK } from '../lib/metrics.js';
import type { LanguageSet } from './set.js';

/** The cut-offs reported. */
export const CUTOFFS = [1, 5, 10] as const;

/** One system's answers to one language's questions, scored. */
export interface RankingResult {
  id: string;
  label: string;
  /** Mean recall@k over the questions, in percent (one decimal). */
  recall: Record<(typeof CUTOFFS)[number], number>;
  /** Recall@10 of the questions about a person, and of those naming a value. */
  recall10_by_sort: { person: number; value: number };
  /** Questions that got no hit at all (every question shares a word with its answers). */
  zero_hit: number;
  /** The ids of those questions. */
  zero_hit_questions: string[];
  /** How often each degradation was reported, over all questions. */
  degraded: Record<string, number>;
}

/** Everything measured for one language. */
export interface LanguageResult {
  lang: string;
  label: string;
  memories: number;
  questions: number;
  rankings: RankingResult[];
}

const percent = (x: number) => Math.round(x * 1000) / 10;

function meanRecall(
  set: LanguageSet,
  answers: readonly { ranked: string[] }[],
  k: number,
  keep: (i: number) => boolean = () => true,
): number {
  let sum = 0;
  let n = 0;
  set.questions.forEach((q, i) => {
    if (!keep(i)) return;
    sum += recallAtK(answers[i]!.ranked, new Set(q.expected), k);
    n++;
  });
  return n === 0 ? Number.NaN : percent(sum / n);
}

/** Scores one system's rankings (in question order) against the set's expected answers. */
export function scoreRankings(
  id: string,
  label: string,
  set: LanguageSet,
  answers: readonly { ranked: string[]; degraded: readonly string[] }[],
  k: number,
): RankingResult {
  const zero = set.questions.filter((_, i) => answers[i]!.ranked.length === 0).map((q) => q.id);
  const degraded: Record<string, number> = {};
  for (const a of answers)
    for (const d of new Set(a.degraded)) degraded[d] = (degraded[d] ?? 0) + 1;
  const sortIs = (sort: string) => (i: number) => set.questions[i]!.sort === sort;
  return {
    id,
    label,
    recall: {
      1: meanRecall(set, answers, 1),
      5: meanRecall(set, answers, 5),
      10: meanRecall(set, answers, k),
    },
    recall10_by_sort: {
      person: meanRecall(set, answers, k, sortIs('person')),
      value: meanRecall(set, answers, k, sortIs('value')),
    },
    zero_hit: zero.length,
    zero_hit_questions: zero,
    degraded,
  };
}

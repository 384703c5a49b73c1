/**
 * Multilingual recall benchmark (`npm run bench:multilingual`): for each language of the set
 * (set/<lang>.json: Chinese, Japanese, Korean, Thai, German, Russian, Spanish, French,
 * Portuguese, Italian, Arabic, Hindi), one engram store holding every
 * memory of that language (body only, as an agent would store it), asked every question of that
 * language through the public API. Reported per language: recall@1/5/10 (the fraction of a
 * question's answers in the first k) and the questions that got no hit at all, for
 * - BM25 over character bigrams, computed here (bigram-bm25.ts): the baseline;
 * - engram's keyword channel alone (vector, graph and time weights 0, no rerank);
 * - engram's default recall (every channel, rerank as configured), with the degradations it
 *   reported (the vector channel's `query_not_embeddable` for text outside the word vectors);
 * - with --postgres (and ENGRAM_TEST_PG_URL), the keyword channel on PostgreSQL too.
 * Each engram run gets its own copy of the built store. Writes
 * bench/results/multilingual-<date>.md and .json with the machine's facts.
 *
 *   npx tsx bench/multilingual/run.ts [--languages zh,ja,ko,th,de] [--postgres] [--out DIR]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import type { RecallRequest } from '../../src/domain/input.js';
import { machineFacts } from '../lib/machine.js';
import { BigramBm25 } from './bigram-bm25.js';
import {
  buildLanguageStore,
  dropPostgresSchema,
  openStoreCopy,
  postgresStore,
  type StoreRun,
  type WriteProtocol,
} from './engram-runs.js';
import { type LanguageResult, type RankingResult, scoreRankings } from './report.js';
import { writeMultilingualReport } from './report-file.js';
import { type LanguageSet, loadSets } from './set.js';

/** The depth every ranking is scored at. */
const K = 10;

/** The engram configurations measured on SQLite. */
const VARIANTS: { id: string; label: string; request: Partial<RecallRequest> }[] = [
  {
    id: 'keyword',
    label: 'engram keyword channel',
    request: { weights: { vector: 0, graph: 0, time: 0 }, rerank: false },
  },
  { id: 'default', label: 'engram default recall', request: {} },
];

const log = (message: string) => process.stderr.write(`${message}\n`);

/** Every question of the set answered by the bigram baseline. */
function baseline(set: LanguageSet): RankingResult {
  const index = new BigramBm25(
    set.memories.map((m) => m.id),
    set.memories.map((m) => m.text),
  );
  const rankings = set.questions.map((q) => ({ ranked: index.search(q.text, K), degraded: [] }));
  return scoreRankings('bigram_bm25', 'BM25 over character bigrams', set, rankings, K);
}

/** Every question of the set asked of one engram store. */
async function askAll(
  run: StoreRun,
  set: LanguageSet,
  request: Partial<RecallRequest>,
): Promise<{ ranked: string[]; degraded: string[] }[]> {
  const out: { ranked: string[]; degraded: string[] }[] = [];
  for (const q of set.questions) {
    const answer = await run.engram.recall({ ...request, query: q.text, k: K });
    out.push({
      ranked: answer.hits.map((h) => run.setIdOf.get(h.id) ?? h.id),
      degraded: answer.degraded.map((d) => `${d.channel}: ${d.reason}`),
    });
  }
  return out;
}

async function runLanguage(
  set: LanguageSet,
  postgresUrl: string | null,
  protocol: WriteProtocol,
): Promise<LanguageResult> {
  const rankings: RankingResult[] = [baseline(set)];
  const template = await buildLanguageStore(set, protocol);
  log(`${set.lang}: ${set.memories.length} memories stored in ${Math.round(template.ingestMs)} ms`);
  try {
    for (const v of VARIANTS) {
      const copy = openStoreCopy(template);
      try {
        rankings.push(scoreRankings(v.id, v.label, set, await askAll(copy, set, v.request), K));
      } finally {
        await copy.close();
      }
    }
  } finally {
    template.remove();
  }
  if (postgresUrl) {
    const pg = await postgresStore(set, postgresUrl, protocol);
    try {
      const answers = await askAll(pg, set, VARIANTS[0]!.request);
      rankings.push(
        scoreRankings('keyword_postgres', 'engram keyword channel, PostgreSQL', set, answers, K),
      );
    } finally {
      await pg.close();
      await dropPostgresSchema(postgresUrl, pg.schema!);
    }
  }
  return {
    lang: set.lang,
    label: set.label,
    memories: set.memories.length,
    questions: set.questions.length,
    rankings,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      languages: { type: 'string' },
      postgres: { type: 'boolean', default: false },
      writes: { type: 'string', default: 'batch' },
      kind: { type: 'string' },
      out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
    },
  });
  const wanted = values.languages?.split(',');
  const postgresUrl = values.postgres ? (process.env.ENGRAM_TEST_PG_URL ?? null) : null;
  if (values.postgres && !postgresUrl)
    throw new Error('--postgres needs ENGRAM_TEST_PG_URL (see scripts/ci/postgres.sh)');
  if (values.writes !== 'batch' && values.writes !== 'session')
    throw new Error('--writes must be batch or session');
  const protocol: WriteProtocol = {
    writes: values.writes,
    ...(values.kind !== undefined && { kind: values.kind }),
  };
  const machine = machineFacts();
  const started = performance.now();
  const results: LanguageResult[] = [];
  for (const set of loadSets().filter((s) => !wanted || wanted.includes(s.lang))) {
    results.push(await runLanguage(set, postgresUrl, protocol));
    log(
      results
        .at(-1)!
        .rankings.map((r) => `  ${r.id}: R@10 ${r.recall[10]} zero-hit ${r.zero_hit}`)
        .join('\n'),
    );
  }
  mkdirSync(values.out, { recursive: true });
  const written = writeMultilingualReport(values.out, {
    machine,
    protocol,
    k: K,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    results,
  });
  for (const file of written) log(`wrote ${file}`);
}

await main();

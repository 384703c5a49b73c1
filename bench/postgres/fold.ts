/**
 * What folding Latin diacritics (`keyword_fold`, src/store/postgres/fold.ts) adds to computing a
 * memory's keyword tsvector on PostgreSQL, for text of four kinds: unaccented, accented with
 * Latin-1 letters only (French, Portuguese), with Latin Extended-A letters (Polish, Czech), and
 * Vietnamese (Latin Extended Additional). Each kind is a temporary table of memories of about 190
 * characters; each round computes every row's tsvector with the fold and without it, in turn, and
 * the report gives medians over the rounds and their ratio.
 *
 *   ENGRAM_TEST_PG_URL=... npx tsx bench/postgres/fold.ts [--rows 20000] [--rounds 5] [--out DIR]
 */
import { parseArgs } from 'node:util';

import pg from 'pg';

import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { machineFacts, writeResults } from '../lib/machine.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    out: { type: 'string', default: 'bench/results' },
  },
});
const url = process.env.ENGRAM_TEST_PG_URL;
if (!url)
  throw new Error('ENGRAM_TEST_PG_URL must name a PostgreSQL server (scripts/ci/postgres.sh)');
const rows = Number(values.rows);
const rounds = Number(values.rounds);

/** The kinds of text, each a few words repeated through the memory with common English ones. */
const KINDS: { name: string; words: string }[] = [
  { name: 'unaccented', words: 'cafe Sao Paulo Muller' },
  { name: 'Latin-1 accents', words: 'café São Paulo Müller' },
  { name: 'Latin Extended-A', words: 'Łódź Dvořák Ağrı' },
  { name: 'Vietnamese', words: 'Nguyễn Thị Ánh Hà Nội' },
];
const COMMON =
  'the a went to support group pottery class yesterday running morning dog painting lake camping kids school music concert guitar book read friend family';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

const schema = `engram_fold_bench_${process.pid}`;
const store = openPostgresStore({ url, schema });
await store.connect(); // runs the migrations, keyword_fold's among them
await store.close();
const client = new pg.Client({ connectionString: url });
await client.connect();
const results: {
  kind: string;
  chars: number;
  folded_ms: number;
  plain_ms: number;
  ratio: number;
}[] = [];
try {
  await client.query(`SET search_path = "${schema}"`);
  for (const kind of KINDS) {
    const words = `${kind.words} ${COMMON}`.split(' ');
    await client.query('DROP TABLE IF EXISTS bench_text');
    await client.query(
      `CREATE TEMP TABLE bench_text AS SELECT (SELECT string_agg(($1::text[])[1 + ((g * 7 + k * 13) % array_length($1::text[], 1))], ' ')
         FROM generate_series(1, 28) k) AS body FROM generate_series(1, $2) g`,
      [words, rows],
    );
    const { rows: avg } = await client.query<{ n: string }>(
      'SELECT avg(length(body)) AS n FROM bench_text',
    );
    const time = async (expr: string) => {
      const start = performance.now();
      await client.query(`SELECT sum(length(to_tsvector('english', ${expr}))) FROM bench_text`);
      return performance.now() - start;
    };
    const folded: number[] = [];
    const plain: number[] = [];
    for (let r = 0; r < rounds; r++) {
      folded.push(await time('keyword_fold(body)'));
      plain.push(await time('body'));
    }
    const f = median(folded);
    const p = median(plain);
    results.push({
      kind: kind.name,
      chars: round(Number(avg[0]!.n), 0),
      folded_ms: round(f, 0),
      plain_ms: round(p, 0),
      ratio: round(f / p),
    });
    console.log(`${kind.name}: folded ${f.toFixed(0)} ms, plain ${p.toFixed(0)} ms`);
  }
} finally {
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

const machine = machineFacts();
const date = machine.date.slice(0, 10);
writeResults(`${values.out}/pg-fold-${date}`, machine, { machine, rows, rounds, results }, [
  `# Folding Latin diacritics in PostgreSQL's keyword index — ${date}`,
  '',
  `Each row is the median over ${rounds} rounds of computing the \`english\` tsvector of ${rows} memories, with \`keyword_fold\` and without it, the two in turn (bench/postgres/fold.ts). Ratios are of medians measured side by side in one run.`,
  '',
  '| text | characters a memory | with the fold (ms) | without (ms) | ratio |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...results.map((r) => `| ${r.kind} | ${r.chars} | ${r.folded_ms} | ${r.plain_ms} | ${r.ratio} |`),
  '',
]);
console.log(`wrote ${values.out}/pg-fold-${date}.md`);

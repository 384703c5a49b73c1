/**
 * Fault-injection benchmark (`npm run bench:faults`): the kill trials of the test suite, run with
 * many more trials and other seeds than CI runs. Each round is one vitest run of
 * test/faults-kill.test.ts (writer processes SIGKILLed mid-write), test/faults-dream.test.ts (dream
 * runs SIGKILLed at write boundaries) and, when ENGRAM_TEST_PG_URL is set, the PostgreSQL kill
 * trials and test/faults-postgres.test.ts (the server stopped at once during writes), with its own
 * seed. Results, per round and test, go to bench/results/faults-<date>.{md,json} with the machine's
 * facts.
 *
 * Settings (environment): FAULTS_ROUNDS (3), FAULTS_TRIALS (SQLite writer kills per round, 60),
 * FAULTS_PG_TRIALS (PostgreSQL writer kills per round, 10), FAULTS_DREAM_TRIALS (dream kill
 * points per round beside every batch's intent, changes and diary append, 10), FAULTS_PG_CYCLES (server
 * crashes per round, 6), FAULTS_SEED (seed of the first round; round n uses seed + n).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { type MachineFacts, machineFacts, machineMarkdown } from '../lib/machine.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ROUNDS = Number(process.env.FAULTS_ROUNDS ?? 3);
const TRIALS = Number(process.env.FAULTS_TRIALS ?? 60);
const PG_TRIALS = Number(process.env.FAULTS_PG_TRIALS ?? 10);
const DREAM_TRIALS = Number(process.env.FAULTS_DREAM_TRIALS ?? 10);
const PG_CYCLES = Number(process.env.FAULTS_PG_CYCLES ?? 6);
const SEED = Number(process.env.FAULTS_SEED ?? 0x0fa0_17);
const PG = Boolean(process.env.ENGRAM_TEST_PG_URL);

const FILES = [
  'test/faults-kill.test.ts',
  'test/faults-dream.test.ts',
  ...(PG ? ['test/faults-postgres.test.ts'] : []),
];

/** One test's outcome in one round. */
interface Outcome {
  file: string;
  test: string;
  status: string;
  seconds: number;
  failure: string | null;
}

/** One round. */
interface Round {
  seed: number;
  seconds: number;
  outcomes: Outcome[];
}

interface VitestReport {
  testResults: {
    name: string;
    assertionResults: {
      fullName: string;
      status: string;
      duration?: number;
      failureMessages?: string[];
    }[];
  }[];
}

/** Runs the fault test files once with `seed`; returns each test's outcome. */
function round(seed: number): Round {
  const dir = mkdtempSync(join(tmpdir(), 'engram-faults-'));
  const report = join(dir, 'report.json');
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      ...FILES,
      '--no-file-parallelism',
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        ENGRAM_FAULT_SEED: String(seed),
        ENGRAM_FAULT_TRIALS: String(TRIALS),
        ENGRAM_FAULT_PG_TRIALS: String(PG_TRIALS),
        ENGRAM_FAULT_DREAM_TRIALS: String(DREAM_TRIALS),
        ENGRAM_FAULT_PG_CYCLES: String(PG_CYCLES),
      },
      maxBuffer: 64 << 20,
    },
  );
  const seconds = Math.round((performance.now() - started) / 1000);
  let parsed: VitestReport;
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
  } catch {
    throw new Error(`vitest wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const outcomes = parsed.testResults.flatMap((file) =>
    file.assertionResults.map((a) => ({
      file: file.name.replace(`${ROOT}/`, ''),
      test: a.fullName,
      status: a.status,
      seconds: Math.round((a.duration ?? 0) / 100) / 10,
      failure: a.failureMessages?.length ? a.failureMessages[0]!.slice(0, 2000) : null,
    })),
  );
  return { seed, seconds, outcomes };
}

function markdown(machine: MachineFacts, rounds: Round[], after: number[]): string {
  const failed = rounds.flatMap((r) => r.outcomes.filter((o) => o.status === 'failed'));
  const rows = rounds.flatMap((r) =>
    r.outcomes.map((o) => `| ${r.seed} | ${o.file} | ${o.test} | ${o.status} | ${o.seconds} |`),
  );
  const durations = rounds.map((r) => `seed ${r.seed}: ${r.seconds} s`).join(', ');
  return `# Fault-injection benchmark, ${machine.date}

Rounds: ${ROUNDS} (${durations}, test-suite build included). The kill trials with more trials than CI: per round ${TRIALS} SQLite writer
kills${PG ? `, ${PG_TRIALS} PostgreSQL writer kills, ${PG_CYCLES} PostgreSQL server crashes` : ''} and
dream runs killed after every batch's intent, changes and diary append plus ${DREAM_TRIALS} other writes,
each round with its own seed (round n: FAULTS_SEED + n)${PG ? '' : '; PostgreSQL was not available, so its trials did not run'}.
Each test checks what the tests in CI check (see docs/security.md, "Crash safety").

**${failed.length === 0 ? 'No trial failed.' : `${failed.length} tests failed.`}**

Seconds are each test's own; the dream trials run in the file's setup, so their tests show none.

| seed | file | test | status | seconds |
|---|---|---|---|---|
${rows.join('\n')}
${failed.length ? `\n## Failures\n\n${failed.map((f) => `### ${f.test}\n\n\`\`\`\n${f.failure}\n\`\`\``).join('\n\n')}\n` : ''}
Machine:

${machineMarkdown(machine)}
- load average at the end (1/5/15 min): ${after.join(' / ')}
`;
}

function main(): void {
  const machine = machineFacts();
  const rounds: Round[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    const r = round(SEED + n);
    rounds.push(r);
    const failed = r.outcomes.filter((o) => o.status === 'failed').length;
    process.stdout.write(
      `round ${n + 1}/${ROUNDS} (seed ${r.seed}): ${r.seconds} s, ${failed} failed\n`,
    );
  }
  const after = loadavg().map((l) => Math.round(l * 100) / 100);
  const settings = {
    rounds: ROUNDS,
    trials: TRIALS,
    pg_trials: PG_TRIALS,
    dream_trials: DREAM_TRIALS,
    pg_cycles: PG_CYCLES,
    seed: SEED,
    postgres: PG,
  };
  const out = join(ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const date = machine.date.slice(0, 10);
  writeFileSync(
    join(out, `faults-${date}.json`),
    `${JSON.stringify({ machine, load_average_after: after, settings, rounds }, null, 2)}\n`,
  );
  const page = markdown(machine, rounds, after);
  writeFileSync(join(out, `faults-${date}.md`), page);
  process.stdout.write(page);
}

main();

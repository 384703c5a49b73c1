/** The worker benchmark's results: their shape and their markdown report. */
import { type MachineFacts, machineMarkdown } from '../lib/machine.js';
import type { BackfillResult } from './backfill.js';
import type { OverheadResult, Quantiles } from './overhead.js';

/** Everything one run of the benchmark measured. */
export interface WorkerResults {
  date: string;
  items: number;
  /** Why the item count differs from the default, when it does. */
  items_note: string | null;
  machine: MachineFacts;
  load_average_after: number[];
  /** The PostgreSQL server, or why PostgreSQL was not measured. */
  postgres: { server: string | null; skipped: string | null };
  backfill: BackfillResult[];
  overhead: OverheadResult[];
}

const BACKFILL_HEAD = `| backend | processes | items/s (embedding window) | items/s (job run) | items/s (wall, incl. start) | wall s | items per CPU s | texts embedded per process | sum = items | vectors after |
|---|---|---|---|---|---|---|---|---|---|`;

/** Items per CPU second of all the worker processes while their workers ran. */
function perCpuSecond(r: BackfillResult): number | string {
  const cpu = r.per_process.reduce((sum, p) => sum + p.cpu_s, 0);
  return cpu > 0 ? Math.round(r.items / cpu) : '-';
}

function backfillRow(r: BackfillResult): string {
  const embedded = r.per_process.map((p) => p.embedded).join(' + ');
  const once = r.embedded_once ? `yes (${r.embedded_total})` : `**no** (${r.embedded_total})`;
  const after = Object.entries(r.vectors_after)
    .map(([state, n]) => `${state} ${n}`)
    .join(', ');
  return `| ${r.backend} | ${r.processes} | ${r.items_per_s.embed_window} | ${r.items_per_s.job ?? '-'} | ${r.items_per_s.wall} | ${r.wall_s} | ${perCpuSecond(r)} | ${embedded} | ${once} | ${after} |`;
}

/** Who ran the job in a multi-process configuration, in words. */
function standBy(r: BackfillResult): string {
  const workers = r.per_process.filter((p) => p.embedded > 0).length;
  const runs = r.per_process.map((p) => p.runs).join(', ');
  const cpu = r.per_process.map((p) => p.cpu_s).join(', ');
  const jobs = r.jobs.map((j) => `${j.state}, ${j.attempts} failed attempts`).join('; ');
  return `- ${r.backend}, ${r.processes} processes: ${workers} of them embedded; job runs per process ${runs}; CPU s per process while running ${cpu}; backfill jobs in the store: ${r.jobs.length} (${jobs}); fill (no embedder) ${r.fill_s} s, model publication ${r.publish_s} s.`;
}

const q = (x: Quantiles) => `${x.p50} | ${x.p95}`;

function overheadRow(o: OverheadResult): string {
  const target =
    o.target_p50_ms === null ? '-' : `≤ ${o.target_p50_ms} (${o.target_met ? 'met' : 'missed'})`;
  return `| ${o.backend} | ${o.jobs} | ${q(o.per_job_ms)} | ${target} | ${q(o.enqueue_ms)} | ${q(o.run_next_ms)} | ${q(o.claim_ms)} | ${q(o.finish_ms)} |`;
}

/** The markdown report. */
export function workerReport(r: WorkerResults): string {
  const m = r.machine;
  const pg = r.postgres.server
    ? `PostgreSQL: ${r.postgres.server}.`
    : `PostgreSQL not measured: ${r.postgres.skipped}.`;
  return `# Background worker benchmark, ${r.date}

## Backfill throughput

A fresh store per row holds ${r.items} memories (bench/scale/corpus.ts, each made unique), written
with no embedder so every one is vector-pending; the static model is then published over them.
Worker processes (bench/worker/worker-process.ts) start at once, each fresh: it loads the static
embedder, queues the one \`vectors.backfill\` job (dedupe key \`vectors.backfill\`) and runs
\`engram.jobWorker()\` until no item is pending. The graph is off in every process, so only the
backfill runs. Each process counts the texts its embedder embedded.${r.items_note ? `\n\n${r.items_note}` : ''}

${BACKFILL_HEAD}
${r.backfill.map(backfillRow).join('\n')}

The embedding window runs from the first to the last embedding call in any process; the job run
from the job's first start to its finish (the store's clock); wall from the spawn to the last
exit. Items per CPU second divide the items by the CPU time (user + system) of all the worker
processes while their workers ran (the PostgreSQL server's own CPU not included): on a shared
machine it moves less than the rates, which follow the machine's load. The backfill is one
deduplicated job: with several processes one of them holds its lease and
fills everything, the others find it running and stand by, so more processes do not fill faster.

${r.backfill.map(standBy).join('\n')}

${pg}

## Job overhead

No-op jobs (a handler for \`graph.catch_up\` that returns \`{ done: true }\` at once), one at a
time on a fresh store: \`enqueue\` then \`JobRunner.runNext()\` (claim, handler, finish, and the
job read back), ${r.overhead[0]?.jobs ?? 0} jobs after ${r.overhead[0]?.warmup ?? 0} warm-up jobs.
Claim and finish are then timed on the store alone, in a second pass over as many jobs.

| backend | jobs | per job p50 ms | per job p95 ms | target p50 | enqueue p50 | enqueue p95 | runNext p50 | runNext p95 | claim p50 | claim p95 | finish p50 | finish p95 |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${r.overhead.map(overheadRow).join('\n')}

Machine:
${machineMarkdown(m)}
- load average at the end (1/5/15 min): ${r.load_average_after.join(' / ')}

The machine is shared with other work (${m.cores} cores); when the load average is above the core
count, a process waits for a core, and times exceed what a quiet machine shows.
`;
}

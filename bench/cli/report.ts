/** The CLI start-up benchmark's results: their shape and their markdown report. */
import { type MachineFacts, machineMarkdown } from '../lib/machine.js';

/** Wall (and, where the OS tells, CPU) milliseconds of one command over its runs. */
export interface CommandTimes {
  command: string;
  runs: number;
  wall_ms: { p50: number; p95: number; min: number; max: number };
  /** The child's user + system CPU time (Linux, 10 ms ticks), null elsewhere. */
  cpu_ms: { p50: number; p95: number; min: number } | null;
  /** The wall-time target on a quiet machine. */
  target: Target;
}

/** A wall-time target: a percentile of the runs and its bound in milliseconds. */
export interface Target {
  stat: 'p50' | 'p95';
  ms: number;
}

/** Everything one run of the benchmark measured. */
export interface CliResults {
  date: string;
  cli: string;
  items: number;
  store_seconds: number;
  warmup_runs: number;
  machine: MachineFacts;
  load_average_after: number[];
  commands: CommandTimes[];
  /** Another build measured run for run beside this one (BENCH_BASELINE_CLI), if any. */
  baseline: { label: string; cli: string; commands: CommandTimes[] } | null;
}

function row(c: CommandTimes): string {
  const cpu = c.cpu_ms ? `${c.cpu_ms.p50} | ${c.cpu_ms.p95}` : '- | -';
  const met = c.wall_ms[c.target.stat] <= c.target.ms ? 'met' : 'missed';
  return `| \`${c.command}\` | ${c.wall_ms.p50} | ${c.wall_ms.p95} | ${c.wall_ms.min} | ${c.wall_ms.max} | ${cpu} | ${c.target.stat} ≤ ${c.target.ms} (${met}) |`;
}

const TABLE_HEAD = `| command | wall p50 ms | wall p95 ms | wall min ms | wall max ms | CPU p50 ms | CPU p95 ms | target (wall ms) |
|---|---|---|---|---|---|---|---|`;

function baselineSection(r: CliResults): string {
  if (!r.baseline) return '';
  const ratios = r.commands.map((c, i) => {
    const b = r.baseline!.commands[i]!;
    const cpu = c.cpu_ms && b.cpu_ms ? `, CPU ${(b.cpu_ms.p50 / c.cpu_ms.p50).toFixed(1)}×` : '';
    return `- \`${c.command}\`: wall ${(b.wall_ms.p50 / c.wall_ms.p50).toFixed(1)}×${cpu}`;
  });
  return `
Baseline: ${r.baseline.label} (\`${r.baseline.cli}\`), run for run beside this build (same
store, same machine, same moments):

${TABLE_HEAD}
${r.baseline.commands.map(row).join('\n')}

Baseline p50 divided by this build's p50:
${ratios.join('\n')}
`;
}

/** The markdown report. */
export function cliReport(r: CliResults): string {
  const m = r.machine;
  return `# CLI start-up benchmark, ${r.date}

Process wall time of the built CLI (\`node ${r.cli}\`), spawned fresh for every run as an agent
shelling out to \`engram\` would, against a SQLite store of ${r.items} generated memories
(bench/http/corpus.ts; built in ${r.store_seconds} s with the library's batch write, graph and
static embedder on, as configured by default). ${r.commands[0]?.runs ?? 0} runs per command, after
${r.warmup_runs} warm-up runs each (the first writes the command's code cache, in a folder of this
run); the commands are interleaved run by run, so a change in the
machine's load falls on all of them alike. \`search\` rotates over generated queries; every
\`remember\` writes a new generated text. The hook rows feed \`engram hook user-prompt\` a Claude Code
prompt event (a generated question, a new session id every run, so every run searches; auto-recall
is on in the store): once opening the store in its own process, once asking an \`engram serve\` that
the bench started on the same store beforehand (\`--server\`).

${TABLE_HEAD}
${r.commands.map(row).join('\n')}
${baselineSection(r)}
CPU is the child process's user + system time (Linux clock ticks of 10 ms), less sensitive to
other work on the machine than wall time. The targets are for a quiet machine.

Machine:
${machineMarkdown(m)}
- load average at the end (1/5/15 min): ${r.load_average_after.join(' / ')}

The machine is shared with other work (${m.cores} cores); when the load average is above the core
count, a process waits for a core, and wall times exceed what a quiet machine shows.
`;
}

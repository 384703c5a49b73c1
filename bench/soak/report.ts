/** The markdown page of a soak run (bench/results/soak-<date>.md). */
import { machineMarkdown } from '../lib/machine.js';
import type { OpFigures, SoakResult } from './analysis.js';

const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

function opRow(name: string, f: OpFigures): string {
  const statuses = Object.entries(f.statuses)
    .map(([status, n]) => `${status === '0' ? 'network' : status}: ${n}`)
    .join(', ');
  return `| ${name} | ${f.count} | ${f.errors}${statuses ? ` (${statuses})` : ''} | ${f.first_minute.p50} / ${f.first_minute.p99} | ${f.after_warmup.p50} / ${f.after_warmup.p99} | ${f.last_minute.p50} / ${f.last_minute.p99} | ${f.drift} | ${f.drift_after_warmup} |`;
}

/** The page. */
export function soakMarkdown(r: SoakResult): string {
  const s = r.settings as {
    duration_s: number;
    warmup_s: number;
    clients: number;
    rate: number;
    items: number;
    mix: Record<string, number>;
  };
  const mix = Object.entries(s.mix)
    .map(([op, share]) => `${op} ${Math.round(share * 100)}%`)
    .join(', ');
  const perMinute = r.rss.samples
    .filter(
      (x, i, all) =>
        i === 0 ||
        i === all.length - 1 ||
        Math.floor(x.at_s / 60) !== Math.floor(all[i - 1]!.at_s / 60),
    )
    .map((x) => `${Math.round(x.at_s)} s: ${x.mib}`)
    .join(' · ');
  return `# Soak benchmark, ${r.machine.date}

The engram service (\`bench/soak/server.ts\`: \`engram serve\`'s HTTP app and job worker, SQLite,
static embedder, 127.0.0.1) in its own process, ${s.items} memories stored before the load. ${s.clients}
clients offer ${s.rate} operations/s in all (${mix}) for ${s.duration_s} s; revise and forget act on
live memories, export streams the whole space. Memory is the server process's resident set size.
Settings: SOAK_DURATION_S=${s.duration_s} SOAK_WARMUP_S=${s.warmup_s} SOAK_CLIENTS=${s.clients}
SOAK_RATE=${s.rate} SOAK_ITEMS=${s.items}.

| target | value | |
|---|---|---|
| errors: 0 | ${r.all.errors} of ${r.all.count} operations | ${verdict(r.targets.errors)} |
| p99 drift, last minute / first minute (and / minute after warm-up): <= 1.5x | ${r.all.drift}x (${r.all.first_minute.p99} ms -> ${r.all.last_minute.p99} ms; from the minute after warm-up: ${r.all.drift_after_warmup}x) | ${verdict(r.targets.drift)} |
| RSS growth after warm-up (${s.warmup_s} s) to the end: <= 10% | ${r.rss.growth_pct}% (${r.rss.after_warmup_mib} MiB -> ${r.rss.end_mib} MiB, peak ${r.rss.peak_mib} MiB) | ${verdict(r.targets.rss)} |

| operation | count | errors | first minute p50 / p99 ms | minute after warm-up p50 / p99 ms | last minute p50 / p99 ms | p99 drift from the first minute | from the minute after warm-up |
|---|---|---|---|---|---|---|---|---|
${Object.entries(r.ops)
  .map(([name, f]) => opRow(name, f))
  .join('\n')}
${opRow('all', r.all)}

Server RSS (MiB) by minute: ${perMinute}.

Server log: ${r.server_log.warnings} warnings, ${r.server_log.errors} errors${r.server_log.first_lines.length ? `; first lines:\n\n\`\`\`\n${r.server_log.first_lines.join('\n')}\n\`\`\`` : '.'}

Seeding took ${r.seed_seconds} s; ${r.live_items_at_end} live memories at the end; the server exited
with code ${r.server_exit_code} after SIGTERM.

Machine (the load generator runs on the same machine as the server, which may be shared):

${machine(r)}
`;
}

function machine(r: SoakResult): string {
  return `${machineMarkdown(r.machine)}\n- load average at the end (1/5/15 min): ${r.load_average_after.join(' / ')}`;
}

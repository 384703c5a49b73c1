/**
 * Facts about the machine and the code a benchmark ran on, recorded beside every result: a
 * figure without them cannot be compared or reproduced.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';

/** Machine and code facts of one benchmark run. */
export interface MachineFacts {
  date: string;
  cpu: string;
  cores: number;
  memory_gib: number;
  free_memory_gib: number;
  platform: string;
  node: string;
  /** 1, 5 and 15 minute load averages when the run started (the machine may be shared). */
  load_average: number[];
  git_commit: string | null;
  git_dirty: boolean | null;
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

const GIB = 1024 ** 3;

/** The facts now. */
export function machineFacts(): MachineFacts {
  const status = git(['status', '--porcelain']);
  return {
    date: new Date().toISOString(),
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gib: Math.round((totalmem() / GIB) * 10) / 10,
    free_memory_gib: Math.round((freemem() / GIB) * 10) / 10,
    platform: `${platform()} ${release()}`,
    node: process.version,
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    git_commit: git(['rev-parse', '--short', 'HEAD']),
    git_dirty: status === null ? null : status !== '',
  };
}

/** The facts as markdown bullet lines. */
export function machineMarkdown(facts: MachineFacts): string {
  return [
    `- date: ${facts.date}`,
    `- cpu: ${facts.cpu}, ${facts.cores} cores, ${facts.memory_gib} GiB RAM (${facts.free_memory_gib} GiB free)`,
    `- ${facts.platform}, Node ${facts.node}`,
    `- load average at start (1/5/15 min): ${facts.load_average.join(' / ')}`,
    `- code: ${facts.git_commit ?? 'unknown'}${facts.git_dirty ? ' plus uncommitted changes' : ''}`,
  ].join('\n');
}

/**
 * Writes a benchmark's results beside each other: `<stem>.json` (the payload, machine facts
 * included by the caller) and `<stem>.md` (the report's lines, then a "Machine" section).
 */
export function writeResults(
  stem: string,
  machine: MachineFacts,
  payload: unknown,
  lines: readonly string[],
): void {
  writeFileSync(`${stem}.json`, `${JSON.stringify(payload, null, 2)}\n`);
  writeFileSync(`${stem}.md`, [...lines, '## Machine', machineMarkdown(machine), ''].join('\n'));
}

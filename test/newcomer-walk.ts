/**
 * The newcomer walk's machinery: the README's CLI tour (the part between `<!-- newcomer-walk -->`
 * and `<!-- /newcomer-walk -->`) read as steps, run as written in one bash shell, and compared with
 * the outputs the README shows.
 *
 * The rules, stated once:
 * - Every line of a ```sh block is a step, run as written, in order, in one shell (so `cd` and
 *   variables carry over), with `set -o pipefail`. Each must exit 0, and so must every command
 *   inside it (`a; b` fails when `a` fails): bash's ERR trap marks such a failure.
 * - A ```text block is the stdout of the last step of the ```sh block before it. Both are compared
 *   line by line after `normalise`: ids, times, dates, decimal numbers (scores, milliseconds,
 *   sizes) and the folders of absolute paths vary, runs of spaces count as one. A line `...` in
 *   the README stands for any number of lines.
 * - Lines that cannot run here are skipped, each by one rule of SKIPS (the network, a server, a
 *   placeholder); `alias engram=...` is replaced by the walk's own `engram`: the built CLI.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** One line of the tour. */
export interface WalkStep {
  /** The line as the README writes it. */
  line: string;
  /** The stdout the README shows for it, when it shows one. */
  expected?: string[];
  /** Why the walk does not run it, when it does not. */
  skipped?: string;
}

/** What running one step gave. */
export interface StepResult {
  line: string;
  status: number;
  /** Commands inside the line that failed (bash's ERR trap), with their status. */
  failed: string[];
  stdout: string;
  stderr: string;
}

/** The lines the walk does not run, each with its reason. */
export const SKIPS: readonly { rule: RegExp; why: string }[] = [
  { rule: /^alias engram=/u, why: 'the walk runs its own `engram`: node dist/bin/engram.js' },
  { rule: /^npm\b/u, why: 'npm installs or builds: the network, and the walk uses the build' },
  { rule: /^engram (serve|mcp|worker)\b/u, why: 'a server: runs until it is stopped' },
  { rule: /\b(openai|ollama):/u, why: 'a remote embedding model: needs its server' },
  { rule: /\b[A-Z]+_ID\b/u, why: 'a placeholder to fill in' },
];

const OPEN = /<!-- newcomer-walk\b[^>]*-->/u;
const CLOSE = '<!-- /newcomer-walk -->';
const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gmu;

/** The part of the README between the walk's markers. */
export function walkSection(readme: string): string {
  const open = OPEN.exec(readme);
  const close = readme.indexOf(CLOSE);
  if (!open || close < open.index)
    throw new Error(`README: no ${OPEN.source} ... ${CLOSE} section`);
  return readme.slice(open.index + open[0].length, close);
}

/** The steps of the walk: every line of its sh blocks, with the output its text blocks show. */
export function walkSteps(readme: string): WalkStep[] {
  const steps: WalkStep[] = [];
  let last: WalkStep | undefined;
  for (const [, lang, body] of walkSection(readme).matchAll(FENCE)) {
    const lines = body!.replace(/\n$/u, '').split('\n');
    if (lang === 'text') {
      if (!last) throw new Error('README walk: a text block with no sh block before it');
      if (last.expected || last.skipped) throw new Error(`README walk: output for ${last.line}`);
      last.expected = lines;
      last = undefined;
      continue;
    }
    if (lang !== 'sh') throw new Error(`README walk: a \`\`\`${lang} block (sh and text only)`);
    for (const line of lines.filter((l) => l.trim() !== '' && !l.startsWith('#'))) {
      if (line.endsWith('\\')) throw new Error(`README walk: continued line ${line}`);
      const skip = SKIPS.find((s) => s.rule.test(line));
      steps.push({ line, ...(skip ? { skipped: skip.why } : {}) });
    }
    last = steps.at(-1);
  }
  return steps;
}

/** One line of output with what varies between runs replaced, for comparison. */
export function normalise(line: string): string {
  return line
    .replace(/(^|\s)(?:\/[^\s/]+)+\/([^\s/]+)/gu, '$1…/$2')
    .replace(/\b[0-9A-HJKMNP-TV-Z]{26}\b/gu, 'ID')
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/gu, 'TIME')
    .replace(/\b\d{4}-\d\d-\d\d\b/gu, 'DATE')
    .replace(/\b\d+\.\d+\b/gu, 'N')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Where the actual output differs from the README's, or undefined when it matches: the lines
 * compared one by one after `normalise`, a README line `...` matching any lines.
 */
export function outputDifference(expected: readonly string[], actual: string): string | undefined {
  const want = expected.map(normalise);
  const got = actual.replace(/\n+$/u, '').split('\n').map(normalise);
  return matches(want, got)
    ? undefined
    : `README shows:\n${expected.join('\n')}\n\nthe CLI printed:\n${actual}`;
}

function matches(want: readonly string[], got: readonly string[]): boolean {
  if (want.length === 0) return got.length === 0;
  const [head, ...rest] = want;
  if (head === '...') return got.some((_, i) => matches(rest, got.slice(i))) || matches(rest, []);
  return got.length > 0 && got[0] === head && matches(rest, got.slice(1));
}

/** A word for bash: single-quoted. */
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** The bash script that runs the steps with a marker before each step and its status after. */
function script(steps: readonly WalkStep[], cli: string): string {
  const lines = [
    'set -o pipefail',
    `engram() { node ${quote(cli)} "$@"; }`,
    `trap 'printf "\\n@@walk-failed %s %s@@\\n" "$?" "$BASH_COMMAND"' ERR`,
  ];
  steps.forEach((s, i) => {
    lines.push(`printf '\\n@@walk-step ${i}@@\\n'; printf '\\n@@walk-step ${i}@@\\n' >&2`);
    lines.push(s.line);
    lines.push(`printf '\\n@@walk-status %s@@\\n' "$?"`);
  });
  return `${lines.join('\n')}\n`;
}

const STEP = /\n@@walk-step \d+@@\n/u;

/** Where and how the walk runs: the built CLI, the working directory, the environment. */
export interface WalkPlace {
  cli: string;
  cwd: string;
  env: Record<string, string>;
  /** The file the walk's script is written to (outside `cwd`, which starts empty). */
  script: string;
}

/**
 * Runs the steps (skipped ones left out) in one bash shell, from a script file with stdin closed
 * (so no step reads the script); one result per step run.
 */
export async function runWalk(steps: readonly WalkStep[], place: WalkPlace): Promise<StepResult[]> {
  const run = steps.filter((s) => !s.skipped);
  writeFileSync(place.script, script(run, place.cli));
  const { stdout, stderr } = await bash(place);
  const outs = stdout.split(STEP).slice(1);
  const errs = stderr.split(STEP).slice(1);
  return run.map((s, i) => stepResult(s.line, outs[i] ?? '', errs[i] ?? ''));
}

function stepResult(line: string, out: string, stderr: string): StepResult {
  const status = /\n@@walk-status (\d+)@@\n$/u.exec(out);
  const failed = [...out.matchAll(/\n@@walk-failed (\d+) (.*)@@\n/gu)].map(
    (m) => `${m[2]} (${m[1]})`,
  );
  const stdout = out.replace(/\n@@walk-(status|failed) .*@@\n/gu, '');
  return { line, status: status ? Number(status[1]) : -1, failed, stdout, stderr };
}

function bash(place: WalkPlace): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [place.script], {
      cwd: place.cwd,
      env: place.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ stdout, stderr }));
  });
}

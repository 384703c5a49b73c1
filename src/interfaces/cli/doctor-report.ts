/** The human rendering of `engram doctor`: one line per check, its fix under it, then a summary. */
import type { CheckResult, DoctorReport } from '../../service/doctor/doctor.js';

const LABEL = { ok: 'ok', warn: 'warn', fail: 'FAIL' } as const;
const NAME_WIDTH = 10;
const INDENT = ' '.repeat(2 + 6 + NAME_WIDTH);

function checkLines(c: CheckResult): string[] {
  const lines = [`  ${LABEL[c.status].padEnd(6)}${c.name.padEnd(NAME_WIDTH)}${c.finding}`];
  if (c.fix) lines.push(`${INDENT}fix: ${c.fix}`);
  return lines;
}

const count = (n: number, word: string) => `${n === 0 ? 'no' : n} ${word}${n === 1 ? '' : 's'}`;

/** The report as text. */
export function doctorText(report: DoctorReport): string {
  const of = (status: CheckResult['status']) => report.checks.filter((c) => c.status === status);
  const summary = `${count(of('ok').length, 'check')} ok, ${count(of('warn').length, 'warning')}, ${count(of('fail').length, 'failure')}`;
  return ['engram doctor', ...report.checks.flatMap(checkLines), summary].join('\n');
}

/**
 * What `engram export` wrote: its lines counted by record type as they stream past (items,
 * relations, sessions, and the other records: lifecycle state, recall telemetry, purge notes),
 * and the sentence that reports them with the file and the space: on stdout when the lines went
 * to a file, on stderr when they went to stdout.
 */
import { printJson, println } from './output.js';
import { printable } from './printable.js';

/** The totals of one export. */
export interface ExportReport {
  /** The file written (absolute), or null for stdout. */
  file: string | null;
  /** The space exported, or null for every space. */
  space: string | null;
  /** Lines written, the header line included. */
  lines: number;
  items: number;
  relations: number;
  sessions: number;
  /** Records of other types: lifecycle state, dormant-recall telemetry, session purges. */
  other: number;
}

/** Every record line starts with its type (JSON.stringify keeps the first key first). */
const TYPE = /^\{"type":"([^"]+)"/u;

const COUNTED: Readonly<Record<string, 'items' | 'relations' | 'sessions'>> = {
  item: 'items',
  relation: 'relations',
  session: 'sessions',
};

/** Export lines with a newline each, counted as they pass; `report()` once they are written. */
export function countExport(
  lines: AsyncIterable<string>,
  file: string | null,
  space: string | null,
): { lines: AsyncIterable<string>; report: () => ExportReport } {
  const report: ExportReport = {
    file,
    space,
    lines: 0,
    items: 0,
    relations: 0,
    sessions: 0,
    other: 0,
  };
  async function* counted(): AsyncIterable<string> {
    for await (const line of lines) {
      if (report.lines++ > 0) report[COUNTED[TYPE.exec(line)?.[1] ?? ''] ?? 'other']++;
      yield `${line}\n`;
    }
  }
  return { lines: counted(), report: () => ({ ...report }) };
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The sentence reporting an export, e.g. `exported space default to /x/backup.jsonl: 3 items, ...`. */
export function exportReportText(r: ExportReport): string {
  const what = r.space === null ? 'all spaces' : `space ${r.space}`;
  const where = r.file ?? 'stdout';
  const parts = [
    count(r.items, 'item'),
    count(r.relations, 'relation'),
    count(r.sessions, 'session'),
    count(r.other, 'other record'),
  ];
  return `exported ${what} to ${where}: ${parts.join(', ')} (${count(r.lines, 'line')})`;
}

/** Prints the report: after a file on stdout, after stdout on stderr; JSON with --json. */
export function printExportReport(exported: ExportReport, json: boolean): void {
  const toFile = exported.file !== null;
  if (json && toFile) printJson({ exported });
  else if (json) process.stderr.write(`${JSON.stringify({ exported })}\n`);
  else if (toFile) println(exportReportText(exported));
  else process.stderr.write(`engram: ${printable(exportReportText(exported))}\n`);
}

/**
 * `engram import --from FORMAT PATH`: another memory tool's data through the importers
 * (src/importers): a progress bar, each failed record on stderr naming the record and the field
 * (every result as a JSON line with --json), warnings for what was read but not kept as given, a
 * closing summary line, exit code PARTIAL when some records failed. `--dry-run` reads and checks
 * everything without opening the store.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Config } from '../../config/schema.js';
import { EngramError } from '../../domain/errors.js';
import type { ImportFormat, MarkdownSplit, UserMapping } from '../../importers/importer.js';
import type { ImportOutcome, ImportRequest, ImportResult } from '../../importers/run.js';
import { EXIT_CODES } from '../error-codes.js';
import { type GlobalOptions, reportError, withEngram } from './context.js';
import type { SessionImportFormat } from './import-from-formats.js';
import { println } from './output.js';
import { printable } from './printable.js';
import { type Progress, progress } from './progress.js';

/** The options of `engram import` that the importers read. */
export interface ImportFromFlags {
  from: ImportFormat;
  dryRun?: boolean;
  area?: string;
  mapUser: UserMapping;
  split: MarkdownSplit;
  batchSize: number;
}

/** Problems a dry run lists in human output before it only counts them. */
const FIRST_PROBLEMS = 20;
/** Warnings listed in human output before they are only counted. */
const FIRST_WARNINGS = 20;

/** Prints each record's outcome as it comes: JSON lines, or problems and warnings on stderr. */
function resultPrinter(json: boolean, dryRun: boolean) {
  let errors = 0;
  let warnings = 0;
  const say = (r: ImportResult, text: string) =>
    process.stderr.write(`engram: ${printable(`${r.record}: ${text}`)}\n`);
  return {
    print(results: readonly ImportResult[]) {
      for (const r of results) {
        if (json) {
          process.stdout.write(`${JSON.stringify(r)}\n`);
          continue;
        }
        if (r.error && (!dryRun || errors < FIRST_PROBLEMS)) say(r, r.error.message);
        if (r.error) errors++;
        const label = r.status === 'skipped' ? 'skipped' : 'note';
        for (const w of r.warnings ?? []) if (warnings++ < FIRST_WARNINGS) say(r, `${label}: ${w}`);
      }
    },
    /** Says how many problems and warnings were not listed. */
    finish() {
      if (json) return;
      const hiddenErrors = dryRun ? Math.max(0, errors - FIRST_PROBLEMS) : 0;
      const hiddenWarnings = Math.max(0, warnings - FIRST_WARNINGS);
      if (hiddenErrors > 0) process.stderr.write(`engram: … and ${hiddenErrors} more errors\n`);
      if (hiddenWarnings > 0)
        process.stderr.write(`engram: … and ${hiddenWarnings} more notes (--json lists all)\n`);
    },
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The closing summary line. */
function summaryLine({ summary: s }: ImportOutcome): string {
  const r = s.relations;
  const anyLinks = r.valid + r.unresolved > 0;
  if (s.dry_run) {
    const links = anyLinks ? `; relations: ${r.valid} valid, ${r.unresolved} unresolved` : '';
    return `checked ${plural(s.records, 'record')} from ${s.format} (dry run, nothing written): ${s.valid} valid, ${s.skipped} skipped, ${s.error} errors${links}`;
  }
  const links = anyLinks
    ? `; relations: ${r.created} created, ${r.exists} already present, ${r.unresolved} unresolved${r.error ? `, ${r.error} errors` : ''}`
    : '';
  return `imported ${plural(s.records, 'record')} from ${s.format}: ${s.created} created, ${s.duplicate} duplicates, ${s.exists} already present, ${s.updated} updated, ${s.skipped} skipped, ${s.error} errors${links}`;
}

/** Runs an import (or its dry run) from the command line; sets the exit code. */
export async function importFromCommand(
  path: string,
  o: ImportFromFlags,
  g: GlobalOptions,
): Promise<void> {
  const json = g.json ?? false;
  const printer = resultPrinter(json, o.dryRun ?? false);
  const bar = once(await progress(`engram import --from ${o.from}`));
  const request: ImportRequest = {
    format: o.from,
    path,
    space: g.space,
    area: o.area,
    map_user: o.mapUser,
    split: o.split,
    batch_size: o.batchSize,
    onResults: (results) => printer.print(results),
    onProgress: (done, total) => total > 0 && bar.update(Math.min(done, total), total),
  };
  const finish = (outcome: ImportOutcome): number => {
    bar.stop();
    printer.finish();
    if (json) process.stdout.write(`${JSON.stringify({ summary: outcome.summary })}\n`);
    else println(summaryLine(outcome));
    return outcome.summary.error > 0 ? EXIT_CODES.PARTIAL : EXIT_CODES.OK;
  };
  if (o.dryRun) {
    try {
      process.exitCode = finish(await dryRun(g, request));
    } catch (err) {
      bar.stop();
      process.exitCode = reportError(err, json);
    }
    return;
  }
  await withEngram(g, 'writes', async (engram) => {
    const { importFrom } = await import('../../importers/run.js');
    let outcome: ImportOutcome;
    try {
      outcome = await importFrom(engram, request);
    } finally {
      bar.stop();
    }
    await graphCaughtUp(engram, json);
    await engram.backfill();
    return finish(outcome);
  });
}

/**
 * Waits for the knowledge graph to take in what was imported (its extraction runs behind the
 * writes), saying so when that takes a while, so the summary comes when the work is done.
 */
async function graphCaughtUp(engram: { idle(): Promise<void> }, json: boolean): Promise<void> {
  const idle = engram.idle();
  const quick = await Promise.race([idle.then(() => true), sleep(1_000, false, { ref: false })]);
  if (quick) return;
  if (!json) process.stderr.write('engram import: the knowledge graph is catching up…\n');
  await idle;
}

/** A progress reporter whose stop runs once, however many ways the command ends. */
function once(p: Progress): Progress {
  let stopped = false;
  return {
    update: (done, total) => stopped || p.update(done, total),
    stop: () => {
      if (!stopped) p.stop();
      stopped = true;
    },
  };
}

/**
 * `engram import --from chatgpt|claude FILE`: the same as `engram sessions import --format FORMAT
 * FILE` (its output, its dry run), so a conversation export becomes sessions, never memory items.
 */
export async function importSessionsCommand(
  path: string,
  format: SessionImportFormat,
  o: { dryRun?: boolean },
  g: GlobalOptions,
): Promise<void> {
  const { SESSION_COMMANDS } = await import('./session-commands.js');
  const group = SESSION_COMMANDS.find((c) => c.name === 'sessions');
  const sessionsImport = group?.commands?.find((c) => c.name.startsWith('import '));
  if (!sessionsImport?.run) {
    const err = new EngramError('INTERNAL', 'the sessions import command is missing');
    process.exitCode = reportError(err, g.json ?? false);
    return;
  }
  await sessionsImport.run({
    args: [path],
    options: { format, dryRun: o.dryRun ?? false, tools: true },
    globals: g,
  });
}

/** A dry run reads only the configuration (for the limits and the space): no store is opened. */
async function dryRun(g: GlobalOptions, request: ImportRequest): Promise<ImportOutcome> {
  const { loadConfig } = await import('../../config/load.js');
  const { checkImport } = await import('../../importers/run.js');
  const config: Config = loadConfig({ file: g.config });
  return checkImport(config, request);
}

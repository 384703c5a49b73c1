/**
 * The commands for whole-store work: init, import, export, status, models prepare|backfill and
 * the transition commands, embedder status.
 */
import { createWriteStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';

import type { Engram } from '../../app.js';
import { EngramError } from '../../domain/errors.js';
import { IMPORT_FORMATS, MARKDOWN_SPLITS, USER_MAPPINGS } from '../../importers/importer.js';
import type { ImportReport, LineResult } from '../../transfer/transfer.js';
import { EXIT_CODES } from '../error-codes.js';
import type { CommandSpec } from './command.js';
import { LOCAL_CONFIG, readWithoutFlag } from './config-file.js';
import { type GlobalOptions, reportError, withEngram } from './context.js';
import type { ImportFromFlags } from './import-from.js';
import { SESSION_IMPORT_FORMATS } from './import-from-formats.js';
import { importFileLines } from './import-lines.js';
import { EMBEDDER_COMMAND, modelsStatus, TRANSITION_COMMANDS } from './model-commands.js';
import { printJson, println } from './output.js';
import { int } from './parse.js';
import { printable } from './printable.js';
import { progress } from './progress.js';

function lineError(r: LineResult): string {
  return printable(`line ${r.line}: ${r.error?.message ?? 'failed'}`);
}

/** Prints the results of one batch: every result as a JSON line, or the errors on stderr. */
function printResults(results: readonly LineResult[], json: boolean): void {
  if (json) for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
  else
    for (const r of results)
      if (r.status === 'error') process.stderr.write(`engram: ${lineError(r)}\n`);
}

/** The closing summary of an import, with the lines the CLI itself refused (not UTF-8). */
function printSummary(report: ImportReport, refused: number, json: boolean): void {
  const { errors, ...totals } = report;
  const summary = { ...totals, error: totals.error + refused };
  if (json) return void process.stdout.write(`${JSON.stringify({ summary })}\n`);
  if (errors.some((e) => e.error?.message.includes('this import is confined to space')))
    process.stderr.write('engram: plain lines naming another space need --allow-spaces\n');
  println(
    `imported ${summary.lines} ${summary.lines === 1 ? 'line' : 'lines'}: ${summary.created} created, ${summary.duplicate} duplicates, ${summary.imported} items restored, ${summary.exists} already present, ${summary.error} errors`,
  );
}

/** Lines refused before the importer (not UTF-8), printed in line order with the batches. */
function refusedLines(json: boolean) {
  const waiting: LineResult[] = [];
  let count = 0;
  return {
    add: (r: LineResult) => {
      waiting.push(r);
      count++;
    },
    count: () => count,
    /** Prints a batch's results with the refused lines read before them, in line order. */
    print: (results: readonly LineResult[] = []) => {
      printResults(
        [...waiting.splice(0), ...results].sort((a, b) => a.line - b.line),
        json,
      );
    },
  };
}

function isFile(file: string): boolean {
  return file === '-' || (existsSync(file) && statSync(file).isFile());
}

/** The options of `engram import`: engram JSONL, or another tool's data with --from. */
type ImportFlags = Omit<ImportFromFlags, 'from'> & {
  from: 'jsonl' | ImportFromFlags['from'] | 'chatgpt' | 'claude';
  allowSpaces?: boolean;
};

const importCommand: CommandSpec<[string], ImportFlags> = {
  name: 'import <path>',
  description:
    'import memories from engram JSONL ("-" for stdin): plain {"body": ...} lines or an engram export; or, with --from, another memory tool\'s data (docs/import.md); idempotent',
  options: [
    {
      flags: '--from <format>',
      description:
        "what PATH holds: engram JSONL, the MCP memory server's JSONL graph, a mem0 export, a folder of Markdown notes, or a ChatGPT or Claude.ai export (conversations.json, imported as sessions)",
      choices: ['jsonl', ...IMPORT_FORMATS, ...SESSION_IMPORT_FORMATS],
      default: 'jsonl',
    },
    {
      flags: '--dry-run',
      description:
        'with --from: read and check everything, report counts and problems, write nothing',
    },
    {
      flags: '--area <area>',
      description: 'with --from: the area imported memories land in (or below)',
    },
    {
      flags: '--map-user <to>',
      description:
        'mem0: user and agent ids as areas of the space (users/ID/agents/ID) or as spaces',
      choices: USER_MAPPINGS,
      default: 'area',
    },
    {
      flags: '--split <unit>',
      description: 'markdown: one memory per note, or one per heading section',
      choices: MARKDOWN_SPLITS,
      default: 'note',
    },
    {
      flags: '--batch-size <n>',
      description: 'memories per transaction',
      parse: int,
      default: 500,
    },
    {
      flags: '--allow-spaces',
      description:
        'JSONL: let plain lines write to the spaces they name (default: a plain line naming another space than --space fails alone, as over HTTP; records of an engram export always keep their space)',
    },
  ],
  async run({ args: [file], options: o, globals: g }) {
    if (o.from === 'chatgpt' || o.from === 'claude')
      return (await import('./import-from.js')).importSessionsCommand(file, o.from, o, g);
    if (o.from !== 'jsonl')
      return (await import('./import-from.js')).importFromCommand(file, { ...o, from: o.from }, g);
    if (o.dryRun || !isFile(file)) {
      const [field, rule, message] = o.dryRun
        ? ['dry-run', 'with --from', '--dry-run: needs --from FORMAT (see docs/import.md)']
        : ['file', 'existing file', `file ${file} does not exist or is not a file`];
      process.exitCode = reportError(
        new EngramError('INVALID_INPUT', message, { field, rule }),
        g.json ?? false,
      );
      return;
    }
    await withEngram(g, 'writes', (engram) => importFile(engram, file, o, g));
  },
};

/** Runs one import into an open engram; returns the exit code. */
async function importFile(
  engram: Engram,
  file: string,
  o: { batchSize: number; allowSpaces?: boolean },
  g: GlobalOptions,
): Promise<number> {
  const { importLines } = await import('../../transfer/transfer.js');
  const total = file === '-' ? 0 : statSync(file).size;
  const bar = total > 0 ? await progress('engram import') : undefined;
  const refused = refusedLines(g.json ?? false);
  let bytes = 0;
  // Confined to one space unless allowed, as the HTTP import is to its route's space.
  const space = o.allowSpaces ? g.space : (g.space ?? engram.config.space);
  // One import is one conversation: plain memories without a session of their own become its
  // turns, in file order (sessions without asking).
  const session = await engram.writeSession({ space });
  const report = await importLines(
    { ...engram, rememberMany: session.rememberMany },
    importFileLines(file, (n) => (bytes += n), refused.add),
    {
      space,
      confine: o.allowSpaces ? false : 'plain',
      batchSize: o.batchSize,
      onBatch: (results) => {
        refused.print(results);
        bar?.update(Math.min(bytes, total), total);
      },
    },
  );
  refused.print();
  bar?.stop();
  await engram.backfill();
  printSummary(report, refused.count(), g.json ?? false);
  return report.error + refused.count() > 0 ? EXIT_CODES.PARTIAL : 0;
}

const exportCommand: CommandSpec<[string | undefined], { allSpaces?: boolean }> = {
  name: 'export [file]',
  description:
    'export items, versions, status events, vectors, relations, lifecycle and dormant-recall state, sessions as JSONL (stdout by default); says what it wrote (on stderr when the lines go to stdout)',
  readsOnly: true,
  options: [
    {
      flags: '--all-spaces',
      description: 'export every space (default: only the current space)',
    },
  ],
  async run({ args: [file], options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const { exportLines } = await import('../../transfer/transfer.js');
      const { countExport, printExportReport } = await import('./export-report.js');
      const space = o.allSpaces ? null : (g.space ?? engram.config.space);
      const toFile = file !== undefined && file !== '-';
      const counted = countExport(exportLines(engram, space), toFile ? resolve(file) : null, space);
      const out = toFile ? createWriteStream(file) : process.stdout;
      await pipeline(counted.lines, out, { end: out !== process.stdout });
      printExportReport(counted.report(), g.json ?? false);
    });
  },
};

const status: CommandSpec<[]> = {
  name: 'status',
  description: 'store, embedder and model status',
  readsOnly: true,
  async run({ globals: g }) {
    await withEngram(g, false, async (engram) => {
      const s = await engram.status({ space: g.space });
      if (g.json) return printJson(s);
      for (const line of (await import('./data-views.js')).statusLines(s)) println(line);
    });
  },
};

const models: CommandSpec = {
  name: 'models',
  description: 'embedding models (alone: the models status)',
  readsOnly: true,
  run: modelsStatus,
  commands: [
    {
      name: 'prepare',
      description: 'build (once) and load the built-in embedder cache',
      async run({ globals: g }) {
        await withEngram(g, true, async (engram) => {
          const s = await engram.status({ space: g.space });
          if (g.json) printJson(s.embedder);
          else
            println(`embedder ready: ${'model_id' in s.embedder ? s.embedder.model_id : 'none'}`);
        });
      },
    },
    {
      name: 'backfill',
      description: 'embed every memory still waiting for a vector',
      async run({ globals: g }) {
        await withEngram(g, true, async (engram) => {
          const pending = (await engram.status()).store.vectors.pending;
          const bar = pending > 0 ? await progress('engram backfill') : undefined;
          const done = await engram.backfill({ onProgress: (n) => bar?.update(n, pending) });
          bar?.stop();
          if (g.json) printJson({ filled: done });
          else println(`filled ${done} vectors`);
        });
      },
    },
    ...TRANSITION_COMMANDS,
  ],
};

const init: CommandSpec<[], { store: string; force?: boolean }> = {
  name: 'init',
  description: 'write a configuration file and create the store',
  options: [
    { flags: '--store <path>', description: 'store file', default: './engram.db' },
    { flags: '--force', description: 'overwrite an existing configuration file' },
  ],
  async run({ options: o, globals: g }) {
    const file = resolve(g.config ?? LOCAL_CONFIG);
    if (existsSync(file) && !o.force) {
      process.exitCode = reportError(
        new EngramError('CONFLICT', `${file} exists; use --force to overwrite it`, {
          field: 'config',
          rule: 'new file',
        }),
        g.json ?? false,
      );
      return;
    }
    const { yamlText } = await import('./yaml-text.js');
    writeFileSync(
      file,
      `# engram configuration: see docs/configuration.md for every key.\n${yamlText({ store: { path: o.store } })}`,
    );
    // No --config in the hint when a command given none reads this file (./engram.yaml here).
    const next = readWithoutFlag(file) ? 'engram' : `engram --config ${file}`;
    await withEngram({ ...g, config: file }, true, async (engram) => {
      const s = await engram.status();
      if (g.json) printJson({ config: file, store: s.store.location });
      else
        println(`wrote ${file}\nstore ready at ${s.store.location}\nnext: ${next} remember "..."`);
    });
  },
};

/** The whole-store commands, in the order the help lists them. */
export const DATA_COMMANDS: readonly CommandSpec[] = [
  init,
  importCommand,
  exportCommand,
  status,
  models,
  EMBEDDER_COMMAND,
];

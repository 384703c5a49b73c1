/** The commands for whole-store work: init, import, export, status, models prepare|backfill. */
import { createReadStream, createWriteStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { EngramError } from '../../domain/errors.js';
import type { LineResult } from '../../transfer/transfer.js';
import { EXIT_CODES } from '../error-codes.js';
import type { CommandSpec } from './command.js';
import { reportError, withEngram } from './context.js';
import { printJson, println } from './output.js';
import { int } from './parse.js';
import { progress } from './progress.js';

function lineError(r: LineResult): string {
  return `line ${r.line}: ${r.error?.message ?? 'failed'}`;
}

async function* linesOf(path: string, onBytes: (n: number) => void): AsyncIterable<string> {
  const input = path === '-' ? process.stdin : createReadStream(path);
  input.on('data', (chunk: Buffer | string) =>
    onBytes(typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length),
  );
  yield* createInterface({ input, crlfDelay: Infinity });
}

function isFile(file: string): boolean {
  return file === '-' || (existsSync(file) && statSync(file).isFile());
}

const importCommand: CommandSpec<[string], { batchSize: number }> = {
  name: 'import <file>',
  description:
    'import memories from JSONL ("-" for stdin): plain {"body": ...} lines or an engram export; idempotent',
  options: [
    { flags: '--batch-size <n>', description: 'lines per transaction', parse: int, default: 500 },
  ],
  async run({ args: [file], options: o, globals: g }) {
    if (!isFile(file)) {
      process.exitCode = reportError(
        new EngramError('INVALID_INPUT', `file ${file} does not exist or is not a file`, {
          field: 'file',
          rule: 'existing file',
        }),
        g.json ?? false,
      );
      return;
    }
    await withEngram(g, 'writes', async (engram) => {
      const { importLines } = await import('../../transfer/transfer.js');
      const total = file === '-' ? 0 : statSync(file).size;
      const bar = total > 0 ? await progress('engram import') : undefined;
      let bytes = 0;
      const report = await importLines(
        engram,
        linesOf(file, (n) => (bytes += n)),
        {
          space: g.space,
          batchSize: o.batchSize,
          onBatch: (results) => {
            if (g.json) for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
            else
              for (const r of results)
                if (r.status === 'error') process.stderr.write(`engram: ${lineError(r)}\n`);
            bar?.update(Math.min(bytes, total), total);
          },
        },
      );
      bar?.stop();
      await engram.backfill();
      const { errors: _e, ...totals } = report;
      if (g.json) process.stdout.write(`${JSON.stringify({ summary: totals })}\n`);
      else
        println(
          `imported ${report.lines} lines: ${report.created} created, ${report.duplicate} duplicates, ${report.imported} items restored, ${report.exists} already present, ${report.error} errors`,
        );
      return report.error > 0 ? EXIT_CODES.PARTIAL : 0;
    });
  },
};

const exportCommand: CommandSpec<[string | undefined], { allSpaces?: boolean }> = {
  name: 'export [file]',
  description:
    'export items, versions, status events, vectors, relations, lifecycle and dormant-recall state as JSONL (stdout by default)',
  options: [
    {
      flags: '--all-spaces',
      description: 'export every space (default: only the current space)',
    },
  ],
  async run({ args: [file], options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const { exportLines } = await import('../../transfer/transfer.js');
      const space = o.allSpaces ? null : (g.space ?? engram.config.space);
      const source = exportLines(engram, space);
      const out = file && file !== '-' ? createWriteStream(file) : process.stdout;
      const newline = new Transform({
        objectMode: true,
        transform: (line: string, _enc, cb) => cb(null, `${line}\n`),
      });
      await pipeline(source, newline, out, { end: out !== process.stdout });
    });
  },
};

const status: CommandSpec<[]> = {
  name: 'status',
  description: 'store, embedder and model status',
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
  description: 'embedding models',
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
    const file = resolve(g.config ?? 'engram.yaml');
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
    await withEngram({ ...g, config: file }, true, async (engram) => {
      const s = await engram.status();
      if (g.json) printJson({ config: file, store: s.store.location });
      else
        println(
          `wrote ${file}\nstore ready at ${s.store.location}\nnext: engram --config ${file} remember "..."`,
        );
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
];

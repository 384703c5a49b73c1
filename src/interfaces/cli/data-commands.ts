/** CLI commands for whole-store work: init, import, export, status, models. */
import { createReadStream, createWriteStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type { Command } from 'commander';
import { stringify } from 'yaml';

import { EngramError } from '../../domain/errors.js';
import type { VectorIndexState } from '../../store/store.js';
import { exportLines, importLines, type LineResult } from '../../transfer/transfer.js';
import { EXIT_CODES } from '../error-codes.js';
import { type GlobalOptions, progress, reportError, withEngram } from './context.js';
import { printJson, println } from './output.js';
import { globals, int } from './program.js';

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

function registerImport(program: Command): void {
  program
    .command('import <file>')
    .description(
      'import memories from JSONL ("-" for stdin): plain {"body": ...} lines or an engram export; idempotent',
    )
    .option('--batch-size <n>', 'lines per transaction', int, 500)
    .action(async (file: string, o: { batchSize: number }, cmd: Command) => {
      const g = globals(cmd);
      if (file !== '-' && (!existsSync(file) || !statSync(file).isFile())) {
        process.exitCode = reportError(
          new EngramError('INVALID_INPUT', `file ${file} does not exist or is not a file`, {
            field: 'file',
            rule: 'existing file',
          }),
          g.json ?? false,
        );
        return;
      }
      await withEngram(g, true, async (engram) => {
        const total = file === '-' ? 0 : statSync(file).size;
        const bar = total > 0 ? progress('engram import') : undefined;
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
    });
}

function registerExport(program: Command): void {
  program
    .command('export [file]')
    .description(
      'export items, versions, status events, vectors, relations, lifecycle and dormant-recall state as JSONL (stdout by default)',
    )
    .option('--all-spaces', 'export every space (default: only the current space)')
    .action(async (file: string | undefined, o: { allSpaces?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const space = o.allSpaces ? null : (g.space ?? engram.config.space);
        const source = exportLines(engram, space);
        const out = file && file !== '-' ? createWriteStream(file) : process.stdout;
        const newline = new Transform({
          objectMode: true,
          transform: (line: string, _enc, cb) => cb(null, `${line}\n`),
        });
        await pipeline(source, newline, out, { end: out !== process.stdout });
      });
    });
}

function registerStatus(program: Command): void {
  program
    .command('status')
    .description('store, embedder and model status')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const s = await engram.status({ space: g.space });
        if (g.json) return printJson(s);
        println(`space        ${s.space}`);
        println(
          `store        ${s.store.backend} ${s.store.location} (schema v${s.store.schema_version}${s.store.size_bytes !== null ? `, ${(s.store.size_bytes / 1e6).toFixed(1)} MB` : ''})`,
        );
        println(
          `items        ${s.store.items_total} (${
            Object.entries(s.store.by_status)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ') || 'none'
          })`,
        );
        println(
          `kinds        ${
            Object.entries(s.store.by_kind)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ') || '-'
          }`,
        );
        println(
          `vectors      ready ${s.store.vectors.ready}, pending ${s.store.vectors.pending}, empty ${s.store.vectors.empty}`,
        );
        println(`relations    ${s.store.relations}`);
        println(
          `model        ${s.published_model ? `${s.published_model.id} (${s.published_model.dimension}-d, published)` : 'none published yet'}`,
        );
        const e = s.embedder;
        println(
          `embedder     ${'model_id' in e ? `${e.model_id}, ${e.available ? 'available' : `unavailable: ${e.reason ?? ''}`}${e.loaded ? ', loaded' : ''}` : `unavailable: ${e.reason}`}`,
        );
        for (const line of vectorIndexLines(s.store.vector_index)) println(line);
      });
    });
}

/** The approximate vector indexes this process has open, one line each. */
function vectorIndexLines(indexes: VectorIndexState[] | undefined): string[] {
  if (indexes === undefined) return [];
  if (indexes.length === 0)
    return [
      'vector index not open in this process (opened by the first vector search of a store above store.ann.min_items)',
    ];
  return indexes.map(
    (x) =>
      `vector index ${x.model}: ${x.state}, ${x.vectors} vectors, ${x.pending} pending${x.loaded_from_file ? ', loaded from file' : ''}${x.last_error ? `; last error: ${x.last_error}` : ''}`,
  );
}

function registerModels(program: Command): void {
  const models = program.command('models').description('embedding models');
  models
    .command('prepare')
    .description('build (once) and load the built-in embedder cache')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, true, async (engram) => {
        const s = await engram.status({ space: g.space });
        if (g.json) printJson(s.embedder);
        else println(`embedder ready: ${'model_id' in s.embedder ? s.embedder.model_id : 'none'}`);
      });
    });
  models
    .command('backfill')
    .description('embed every memory still waiting for a vector')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, true, async (engram) => {
        const pending = (await engram.status()).store.vectors.pending;
        const bar = pending > 0 ? progress('engram backfill') : undefined;
        const done = await engram.backfill({ onProgress: (n) => bar?.update(n, pending) });
        bar?.stop();
        if (g.json) printJson({ filled: done });
        else println(`filled ${done} vectors`);
      });
    });
}

function registerInit(program: Command): void {
  program
    .command('init')
    .description('write a configuration file and create the store')
    .option('--store <path>', 'store file', './engram.db')
    .option('--force', 'overwrite an existing configuration file')
    .action(async (o: { store: string; force?: boolean }, cmd: Command) => {
      const g: GlobalOptions = globals(cmd);
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
      writeFileSync(
        file,
        `# engram configuration: see docs/configuration.md for every key.\n${stringify({ store: { path: o.store } })}`,
      );
      await withEngram({ ...g, config: file }, true, async (engram) => {
        const s = await engram.status();
        if (g.json) printJson({ config: file, store: s.store.location });
        else
          println(
            `wrote ${file}\nstore ready at ${s.store.location}\nnext: engram --config ${file} remember "..."`,
          );
      });
    });
}

/** Registers init, import, export, status and models. */
export function registerDataCommands(program: Command): void {
  registerInit(program);
  registerImport(program);
  registerExport(program);
  registerStatus(program);
  registerModels(program);
}

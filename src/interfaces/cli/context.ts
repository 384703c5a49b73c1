/**
 * What every CLI command shares: global options, opening the service (loaded only when a command
 * runs), loading the embedder, and mapping failures to exit codes.
 */
import type { Engram } from '../../app.js';
import { EngramError, isEngramError, toEngramError } from '../../domain/errors.js';
import type { PrepareProgress } from '../../embed/embedder.js';
import { EXIT_CODES } from '../error-codes.js';
import { printable } from './printable.js';
import { type Progress, progressFactory } from './progress.js';

/** Global options of every command. */
export interface GlobalOptions {
  config?: string;
  json?: boolean;
  space?: string;
  /**
   * Not a flag: set for a command that only reads (see `CommandSpec.readsOnly`), or by a handler
   * whose arguments make it a read. The store must exist already; it is never created.
   */
  existingStore?: boolean;
}

/**
 * Refuses a SQLite store that does not exist, so a reading command never leaves an empty store
 * behind (a mistyped path, or a folder without the `engram.yaml` that `engram init` writes).
 */
async function requireExistingStore(configFile: string | undefined): Promise<void> {
  const { loadConfig } = await import('../../config/load.js');
  const { storeExists } = await import('../../store/open.js');
  const config = loadConfig({ file: configFile });
  if (storeExists(config)) return;
  throw new EngramError(
    'STORE_UNAVAILABLE',
    `no store at ${config.store.path}: run \`engram init\` or give --config`,
    { field: 'store.path', rule: 'existing store' },
  );
}

/**
 * Opens the service for one command (no background work: the command drains what it needs; no
 * in-memory keyword index). For a command that writes, the graph's extraction worker starts first, so its
 * language model loads while the service opens; it stops again when the configuration extracts
 * without it (graph off, or inline extraction).
 */
async function openEngram(options: GlobalOptions, writes: boolean): Promise<Engram> {
  if (options.existingStore) await requireExistingStore(options.config);
  const extractor = writes ? await import('../../graph/extractor.js') : undefined;
  extractor?.startExtractionWorker();
  const { createEngram } = await import('../../app.js');
  // One command searches once or twice: building the in-memory keyword index would cost more
  // than it saves (on 100,000 memories `engram search` took 0.77 -> 0.81 s with it).
  const engram = createEngram({
    configFile: options.config,
    background: false,
    config: { store: { keyword_memory: false } },
  });
  const { graph } = engram.config;
  if (extractor && !(graph.enabled && graph.worker)) await extractor.stopExtractionWorker();
  return engram;
}

/** Loads the embedder's model, showing a progress bar only while it is being built. */
export async function prepareEmbedder(engram: Engram): Promise<void> {
  const progress = await progressFactory();
  let bar: Progress | undefined;
  await engram.prepareModels({
    onProgress: (p: PrepareProgress) => {
      bar ??= progress(`engram: ${p.phase}`);
      bar.update(p.done, p.total);
    },
  });
  bar?.stop();
}

/** Prints an error to stderr (JSON with --json) and returns its exit code. */
export function reportError(err: unknown, json: boolean): number {
  const e = toEngramError(err);
  if (json) process.stderr.write(`${JSON.stringify({ error: e.toJSON() })}\n`);
  else process.stderr.write(`engram: ${printable(e.message)}\n`);
  if (!isEngramError(err) && process.env.ENGRAM_DEBUG)
    process.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
  return EXIT_CODES[e.code];
}

/**
 * Runs one command against the service: opens it, runs, drains pending vectors briefly, closes,
 * and sets the exit code. `needsEmbedder` loads the model first so the first query is not degraded
 * by a cold start; `'writes'` also starts the graph's language model loading (see `openEngram`).
 */
export async function withEngram(
  options: GlobalOptions,
  needsEmbedder: boolean | 'writes',
  action: (engram: Engram) => Promise<number | void>,
): Promise<void> {
  let engram: Engram | undefined;
  try {
    engram = await openEngram(options, needsEmbedder === 'writes');
    if (needsEmbedder) await prepareEmbedder(engram).catch(() => undefined);
    const code = await action(engram);
    process.exitCode = code ?? 0;
  } catch (err) {
    process.exitCode = reportError(err, options.json ?? false);
  } finally {
    await engram?.close({ drainMs: needsEmbedder ? 5_000 : 0 }).catch((err: unknown) => {
      process.exitCode = reportError(err, options.json ?? false);
    });
  }
}

#!/usr/bin/env node
/**
 * The `engram` command's entry, bundled as dist/bin/engram.js: runs the bundled CLI beside it with
 * its code cache (code-cache.ts). For `engram hook user-prompt` in its own process it first starts
 * the thread that loads the language model and parses the prompt (autorecall/parse-ahead.ts), so
 * the model loads while the CLI itself loads and opens the store.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { commandWord, runBundle } from './code-cache.js';

/** Whether these arguments run the user-prompt hook in this process (not asking a server). */
function parsesPrompt(argv: readonly string[], env: Record<string, string | undefined>): boolean {
  // The command word as the code cache reads it (global options and their values skipped).
  if (commandWord(argv, new Set(['hook'])) !== 'hook') return false;
  return (
    argv[argv.indexOf('hook') + 1] === 'user-prompt' &&
    !argv.some(
      (a) => a === '--server' || a.startsWith('--server=') || a === '--help' || a === '-h',
    ) &&
    !env.ENGRAM_URL
  );
}

// Awaited before the CLI runs: its synchronous start would otherwise hold the thread's start back.
// Imported only here, so that no other command loads it.
if (parsesPrompt(process.argv.slice(2), process.env))
  (await import('../../autorecall/parse-ahead.js')).startParseWorker();
runBundle(join(dirname(fileURLToPath(import.meta.url)), 'engram-cli.cjs'));

#!/usr/bin/env node
/** Entry point of the `engram` command: parses argv and maps failures to exit codes. */
import { CommanderError } from 'commander';

import { EXIT_CODES } from '../error-codes.js';
import { reportError } from './context.js';
import { buildProgram } from './program.js';

// A reader that closes the pipe early (`engram list | head -1`) has all it wants: stop quietly,
// as other command-line tools do, instead of failing with a write error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });

const program = buildProgram();

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : EXIT_CODES.USAGE;
    return;
  }
  process.exitCode = reportError(err, process.argv.includes('--json'));
});

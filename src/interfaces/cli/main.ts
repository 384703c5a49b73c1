#!/usr/bin/env node
/** Entry point of the `engram` command: parses argv and maps failures to exit codes. */
import { CommanderError } from 'commander';

import { EXIT_CODES } from '../error-codes.js';
import { reportError } from './context.js';
import { buildProgram } from './program.js';

const program = buildProgram();

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : EXIT_CODES.USAGE;
    return;
  }
  process.exitCode = reportError(err, process.argv.includes('--json'));
});

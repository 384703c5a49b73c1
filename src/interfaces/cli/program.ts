/**
 * The `engram` command line: the root command with its global options, and the table of every
 * command (argv -> one service call -> a human table or, with --json, the service's JSON).
 */
import { Command } from 'commander';

import { ENGRAM_VERSION } from '../version.js';
import { AREA_COMMANDS } from './area-commands.js';
import { AUTORECALL_COMMANDS } from './autorecall-commands.js';
import { addCommands, type CommandSpec } from './command.js';
import { COMPLETION_COMMAND } from './completion-command.js';
import { DATA_COMMANDS } from './data-commands.js';
import { DOCTOR_COMMAND } from './doctor-command.js';
import { DORMANT_COMMANDS } from './dormant-commands.js';
import { DREAM_COMMANDS } from './dream-commands.js';
import { GRAPH_COMMANDS } from './graph-commands.js';
import { HOOK_COMMANDS } from './hook-commands.js';
import { JOBS_COMMANDS } from './jobs-commands.js';
import { LIFECYCLE_COMMANDS } from './lifecycle-commands.js';
import { READ_COMMANDS } from './read-commands.js';
import { SERVICE_COMMANDS } from './service-commands.js';
import { SESSION_COMMANDS } from './session-commands.js';
import { WRITE_COMMANDS } from './write-commands.js';

/** Every command, in the order `engram --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  ...WRITE_COMMANDS,
  ...READ_COMMANDS,
  ...DATA_COMMANDS,
  ...GRAPH_COMMANDS,
  ...LIFECYCLE_COMMANDS,
  ...AUTORECALL_COMMANDS,
  ...SERVICE_COMMANDS,
  ...JOBS_COMMANDS,
  ...DORMANT_COMMANDS,
  ...SESSION_COMMANDS,
  ...HOOK_COMMANDS,
  ...DREAM_COMMANDS,
  ...AREA_COMMANDS,
  DOCTOR_COMMAND,
  COMPLETION_COMMAND,
];

/** Builds the whole command tree. */
export function buildProgram(): Command {
  const program = new Command('engram')
    .description('engram: long-term memory for AI agents')
    .version(ENGRAM_VERSION)
    .option(
      '-c, --config <file>',
      'configuration file (YAML); default: $ENGRAM_CONFIG, else ./engram.yaml when it exists, else built-in defaults',
    )
    .option('--json', 'print JSON instead of human tables')
    .option('--space <name>', 'space to act in (default: the configured space, "default")')
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .exitOverride();
  addCommands(program, COMMANDS);
  return program;
}

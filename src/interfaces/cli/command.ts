/**
 * The CLI's command table: every command is a declaration (name and arguments, description,
 * options, handler) and `addCommands` turns a table into commander commands. A declaration
 * imports nothing heavy; its handler loads what it uses when it runs, so `engram --version` and
 * `--help` never load the service.
 */
import { type Command, Option } from 'commander';

import { configFileOption } from './config-file.js';
import type { GlobalOptions } from './context.js';

/** One option of a command, in the order the help lists it. */
export interface OptionSpec {
  /** Flags in commander's syntax: `--kind <kind>`, `-k, --k <n>`, `--tag <tag...>`, `--no-rerank`. */
  flags: string;
  description: string;
  /** The allowed values, checked and listed in the help. */
  choices?: readonly string[];
  /** The value when the flag is absent, shown in the help. */
  default?: unknown;
  /** The command fails without this option. */
  required?: boolean;
  /** Parses a value (and, for a repeatable flag, adds it to the previous ones). */
  parse?(value: string, previous: unknown): unknown;
}

/** What a handler receives. */
export interface Call<A extends unknown[] = unknown[], O = Record<string, unknown>> {
  /** The positional arguments in declaration order (undefined when an optional one is absent). */
  args: A;
  /** The command's own options. */
  options: O;
  /**
   * The global options (--config, --json, --space) with the command's own; `config` is already
   * the file the command reads (see config-file.ts).
   */
  globals: GlobalOptions;
}

/** A command of the table: a leaf with a handler, or a group of subcommands. */
export interface CommandSpec<A extends unknown[] = unknown[], O = Record<string, unknown>> {
  /** Name and arguments in commander's syntax: `get <id>`, `remember [body]`, `observe <ids...>`. */
  name: string;
  description: string;
  alias?: string;
  options?: readonly OptionSpec[];
  /**
   * The command only reads: it needs a store that exists and never creates one (a SQLite file that
   * is not there fails with STORE_UNAVAILABLE, naming the path, instead of becoming an empty store).
   */
  readsOnly?: boolean;
  /** Subcommands of a group (`graph stats`, `dormant review`). */
  commands?: readonly CommandSpec[];
  /**
   * Runs the command; handlers set `process.exitCode` (see withEngram). Declared as a method, so a
   * command typed for its own arguments and options still fits in a `CommandSpec[]` table.
   */
  run?(call: Call<A, O>): Promise<void>;
}

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  if (spec.parse) option.argParser(spec.parse);
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.required) option.makeOptionMandatory();
  return option;
}

/** Commander calls an action with the arguments, then the options, then the command itself. */
function action(spec: CommandSpec): (...params: unknown[]) => Promise<void> {
  return async (...params) => {
    const command = params.pop() as Command;
    const options = params.pop() as Record<string, unknown>;
    const globals = command.optsWithGlobals<GlobalOptions>();
    globals.config = configFileOption(globals.config);
    if (spec.readsOnly) globals.existingStore = true;
    await spec.run!({ args: params, options, globals });
  };
}

/** Adds the commands of a table, with their options and subcommands, to a commander command. */
export function addCommands(parent: Command, table: readonly CommandSpec[]): void {
  for (const spec of table) {
    const command = parent.command(spec.name).description(spec.description);
    if (spec.alias) command.alias(spec.alias);
    for (const option of spec.options ?? []) command.addOption(toOption(option));
    if (spec.commands) addCommands(command, spec.commands);
    if (spec.run) command.action(action(spec));
  }
}

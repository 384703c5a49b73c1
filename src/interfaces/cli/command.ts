/**
 * The CLI's command table: every command is a declaration (name and arguments, description,
 * options, handler) and `addCommands` turns a table into commander commands. A declaration
 * imports nothing heavy; its handler loads what it uses when it runs, so `engram --version` and
 * `--help` never load the service.
 */
import { type Command, Option } from 'commander';

import { configFileOption } from './config-file.js';
import type { GlobalOptions } from './context.js';
import { println } from './output.js';

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
  /** The allowed values of positional arguments, by name: checked, listed in the help, completed. */
  argumentChoices?: Readonly<Record<string, readonly string[]>>;
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
   * command typed for its own arguments and options still fits in a `CommandSpec[]` table. A group
   * runs it when given no subcommand: it prints the group's status, and `addCommands` adds a line
   * naming the subcommands.
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

/** `engram models`: the command's path from the root. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The names of a group's subcommands. */
const subcommands = (group: Command) =>
  group.commands.map((c) => c.name()).filter((name) => name !== 'help');

/** The line a group prints under its status: how to run its subcommands. */
function subcommandHint(group: Command): string {
  return `${commandPath(group)} <command>: ${subcommands(group).join(', ')} (--help on any)`;
}

/** A group given a word that is none of its subcommands fails as commander does for other groups. */
function refuseUnknownSubcommand(group: Command): void {
  const [word] = group.args;
  if (word === undefined) return;
  const known = subcommands(group).join(', ');
  const message = `error: unknown command '${word}' for '${commandPath(group)}' (its commands: ${known})`;
  group.error(message, { code: 'commander.unknownCommand' });
}

/** Whether a group ran with none of its own options: then it printed its status. */
const bare = (options: Record<string, unknown>) =>
  Object.values(options).every((value) => value === undefined);

/** Commander calls an action with the arguments, then the options, then the command itself. */
function action(spec: CommandSpec): (...params: unknown[]) => Promise<void> {
  return async (...params) => {
    const command = params.pop() as Command;
    const options = params.pop() as Record<string, unknown>;
    if (spec.commands) refuseUnknownSubcommand(command);
    const globals = command.optsWithGlobals<GlobalOptions>();
    globals.config = configFileOption(globals.config);
    if (spec.readsOnly) globals.existingStore = true;
    await spec.run!({ args: spec.commands ? [] : params, options, globals });
    if (spec.commands && !globals.json && bare(options) && !process.exitCode)
      println(`\n${subcommandHint(command)}`);
  };
}

/** Adds the commands of a table, with their options and subcommands, to a commander command. */
export function addCommands(parent: Command, table: readonly CommandSpec[]): void {
  for (const spec of table) {
    const command = parent.command(spec.name).description(spec.description);
    if (spec.alias) command.alias(spec.alias);
    for (const argument of command.registeredArguments) {
      const choices = spec.argumentChoices?.[argument.name()];
      if (choices) argument.choices(choices);
    }
    for (const option of spec.options ?? []) command.addOption(toOption(option));
    if (spec.commands) addCommands(command, spec.commands);
    if (!spec.run) continue;
    command.action(action(spec));
    // A group's extra word reaches its action, which names it as an unknown subcommand.
    if (spec.commands) command.allowExcessArguments();
  }
}

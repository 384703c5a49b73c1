/**
 * Generates docs/cli.md from the command table itself (buildProgram), so the reference can never
 * drift from what `engram` accepts: every command, its arguments, options, choices and defaults.
 * Run: npx tsx scripts/cli-reference.ts > docs/cli.md && npx prettier --write docs/cli.md
 */
import type { Argument, Command, Option } from 'commander';

import { buildProgram } from '../src/interfaces/cli/program.js';

/** `<model>`, `[id]`, `<ids...>`: an argument as the usage line shows it. */
function argumentText(argument: Argument): string {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

/** The command path from the root (`engram models use`) and with its arguments. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function usage(command: Command): string {
  return [commandPath(command), ...command.registeredArguments.map(argumentText)].join(' ');
}

/**
 * Whether the command runs by itself (a leaf, or a group such as `jobs` that also has an action).
 * Commander keeps the action private; a group without one only prints its help.
 */
function runsItself(command: Command): boolean {
  const handler = (command as unknown as { _actionHandler?: unknown })._actionHandler;
  return command.commands.length === 0 || typeof handler === 'function';
}

/** Markdown-safe inline text: pipes and angle brackets would turn into tables and HTML. */
function inline(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('<', '\\<').replaceAll('*', '\\*');
}

/** A description as a sentence: commander's are lowercase and end without a full stop. */
function sentence(text: string): string {
  const trimmed = inline(text.trim());
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function optionLine(option: Option): string {
  const parts = [`- \`${option.flags}\`: ${sentence(option.description)}`];
  if (option.mandatory) parts.push('Required.');
  if (option.argChoices)
    parts.push(`One of ${option.argChoices.map((c) => `\`${c}\``).join(', ')}.`);
  if (option.defaultValueDescription) parts.push(`Default: ${option.defaultValueDescription}.`);
  else if (option.defaultValue !== undefined && !option.negate)
    parts.push(`Default: \`${JSON.stringify(option.defaultValue)}\`.`);
  return parts.join(' ');
}

function options(command: Command): string[] {
  const shown = command.options.filter((o) => !o.hidden);
  if (shown.length === 0) return [];
  return ['Options:', '', ...shown.map(optionLine), ''];
}

function leafSection(command: Command): string[] {
  const alias = command.aliases().length
    ? [
        `Alias: ${command
          .aliases()
          .map((a) => `\`${a}\``)
          .join(', ')}.`,
        '',
      ]
    : [];
  return [
    `### ${inline(usage(command))}`,
    '',
    sentence(command.description()),
    '',
    ...alias,
    ...options(command),
    `Help: \`${commandPath(command)} --help\``,
    '',
  ];
}

/** Every command under `command` that runs by itself, depth first in help order. */
function leaves(command: Command): Command[] {
  return command.commands.flatMap((c) => [...(runsItself(c) ? [c] : []), ...leaves(c)]);
}

function groupSection(group: Command): string[] {
  const path = commandPath(group);
  return [
    `## ${path}`,
    '',
    runsItself(group) ? `\`${path}\` and its subcommands.` : sentence(group.description()),
    '',
    ...(runsItself(group) ? leafSection(group) : []),
    ...leaves(group).flatMap(leafSection),
  ];
}

function reference(program: Command): string[] {
  const topLeaves = program.commands.filter((c) => c.commands.length === 0);
  const groups = program.commands.filter((c) => c.commands.length > 0);
  return [
    '# CLI reference',
    '',
    'Generated from the command table (`src/interfaces/cli/program.ts`) by `npx tsx scripts/cli-reference.ts`;',
    'the table is the rule of record. Every command prints its own usage with `--help`; with `--json` it',
    'prints the JSON of the service call instead of a human table.',
    '',
    '## Global options',
    '',
    'Given before or after the command: `engram --json list`, `engram list --json`.',
    '',
    ...program.options.map(optionLine),
    '- `-h, --help`: Display help for the command.',
    '',
    `## ${program.name()}`,
    '',
    `${inline(program.description())}. The commands directly under \`${program.name()}\`; the command groups follow.`,
    '',
    ...topLeaves.flatMap(leafSection),
    ...groups.flatMap(groupSection),
  ];
}

process.stdout.write(`${reference(buildProgram()).join('\n').trimEnd()}\n`);

/**
 * The CLI's command tree as shell completion needs it, read from the commander program itself:
 * every command's names (with aliases), description, options (which take a value, and their
 * choices) and argument choices. The shell scripts are generated from this, so they never drift
 * from what `engram` accepts.
 */
import type { Command, Option } from 'commander';

/** One option of a command. */
export interface CompletionOption {
  /** Its flags: `-k`, `--k`; `--no-rerank`. */
  flags: string[];
  description: string;
  /** Whether a value follows the flag. */
  takesValue: boolean;
  /** The values it allows, when it names them. */
  choices: string[];
}

/** One command of the tree. */
export interface CompletionNode {
  /** Canonical names from the root's child down to this command; empty for the root. */
  path: string[];
  /** Its name, then its aliases. */
  names: string[];
  description: string;
  /** Its own options (the global ones are on the root). */
  options: CompletionOption[];
  /** The allowed values of each positional argument, in order (empty when free text). */
  argumentChoices: string[][];
  commands: CompletionNode[];
}

/** Every command accepts it; commander adds it without listing it among the options. */
const HELP: CompletionOption = {
  flags: ['-h', '--help'],
  description: 'display help for the command',
  takesValue: false,
  choices: [],
};

function optionOf(option: Option): CompletionOption {
  return {
    flags: [option.short, option.long].filter((flag): flag is string => flag !== undefined),
    description: option.description,
    takesValue: option.required || option.optional,
    choices: [...(option.argChoices ?? [])],
  };
}

function nodeOf(command: Command, path: string[]): CompletionNode {
  const children = command.commands.filter((c) => c.name() !== 'help');
  return {
    path,
    names: [command.name(), ...command.aliases()],
    description: command.description(),
    options: [...command.options.filter((o) => !o.hidden).map(optionOf), HELP],
    argumentChoices: command.registeredArguments.map((a) => [...(a.argChoices ?? [])]),
    commands: children.map((c) => nodeOf(c, [...path, c.name()])),
  };
}

/** The completion tree of a program: the root holds the global options. */
export function completionTree(program: Command): CompletionNode {
  return nodeOf(program, []);
}

/** Every node of a tree, the root first, parents before their children. */
export function allNodes(root: CompletionNode): CompletionNode[] {
  return [root, ...root.commands.flatMap(allNodes)];
}

/** The options that apply at a node: its own, and the root's (given before or after a command). */
export function optionsAt(root: CompletionNode, node: CompletionNode): CompletionOption[] {
  if (node === root) return root.options;
  const own = new Set(node.options.flatMap((o) => o.flags));
  const globals = root.options.filter(
    (o) => !o.flags.includes('--version') && !o.flags.some((f) => own.has(f)),
  );
  return [...node.options, ...globals];
}

/** The path of a node as the scripts key it: names joined by one space (`graph neighbors`). */
export const pathKey = (node: CompletionNode): string => node.path.join(' ');

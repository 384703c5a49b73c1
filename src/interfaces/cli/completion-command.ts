/**
 * `engram completion bash|zsh|fish`: prints a shell completion script generated from this very
 * command tree (commands, subcommands, options and their choices), so it never drifts from what
 * `engram` accepts. The tree and the generators load only when the command runs.
 */
import type { CommandSpec } from './command.js';
import { reportError } from './context.js';

/** The shells a script is generated for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** One of {@link SHELLS}. */
export type Shell = (typeof SHELLS)[number];

const GENERATORS = {
  bash: async () => (await import('./completion/bash.js')).bashScript,
  zsh: async () => (await import('./completion/zsh.js')).zshScript,
  fish: async () => (await import('./completion/fish.js')).fishScript,
} as const;

/** The completion script of `shell` for the whole `engram` command tree. */
export async function completionScript(shell: Shell): Promise<string> {
  const { buildProgram } = await import('./program.js');
  const { completionTree } = await import('./completion/tree.js');
  const { ENGRAM_VERSION } = await import('../version.js');
  const generate = await GENERATORS[shell]();
  return generate(completionTree(buildProgram()), ENGRAM_VERSION);
}

/** `engram completion <shell>`. */
export const COMPLETION_COMMAND: CommandSpec<[Shell]> = {
  name: 'completion <shell>',
  description:
    'print the shell completion script for bash, zsh or fish (install: see the README); it is generated from these commands',
  argumentChoices: { shell: SHELLS },
  async run({ args: [shell], globals: g }) {
    try {
      process.stdout.write(await completionScript(shell));
    } catch (err) {
      process.exitCode = reportError(err, g.json ?? false);
    }
  },
};

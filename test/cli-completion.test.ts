/**
 * `engram completion bash|zsh|fish`: the scripts are generated from the command tree, so every
 * command, subcommand and option of `engram` completes, with choices where the CLI names them. The
 * bash script runs in a real bash; the zsh script in zsh with its completion system's few functions
 * stood in for (they need an interactive shell); the fish script through fish's own `complete -C`.
 * The zsh and fish cases run where those shells are installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { allNodes, completionTree } from '../src/interfaces/cli/completion/tree.js';
import { completionScript, type Shell, SHELLS } from '../src/interfaces/cli/completion-command.js';
import { buildProgram } from '../src/interfaces/cli/program.js';
import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { runCli } from './cli-run.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

const scripts = {} as Record<Shell, string>;
// The scripts for the whole file (tempDir() of helpers.ts is removed after each test).
const dir = mkdtempSync(join(tmpdir(), 'engram-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  for (const shell of SHELLS) {
    scripts[shell] = join(dir, `engram.${shell}`);
    writeFileSync(scripts[shell], await completionScript(shell));
  }
});

/** The top-level commands of the program, as a user sees them in `engram --help`. */
const topCommands = () =>
  buildProgram()
    .commands.map((c) => c.name())
    .filter((n) => n !== 'help');

/** Completions bash offers for the words typed so far (the last one is being completed). */
function bash(...words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source "$1"; COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _engram; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'bash',
      scripts.bash,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter(Boolean);
}

describe('engram completion', () => {
  it('prints the generated script through the built CLI, and refuses another shell', async () => {
    const r = await runCli(['completion', 'bash']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(await completionScript('bash'));
    const other = await runCli(['completion', 'tcsh']);
    expect(other.code).toBe(EXIT_CODES.USAGE);
    expect(other.stderr).toContain('Allowed choices are bash, zsh, fish');
  });

  it('the tree holds every command of the program, with aliases and option choices', () => {
    const tree = completionTree(buildProgram());
    expect(tree.commands.map((c) => c.names[0])).toEqual(topCommands());
    const graph = tree.commands.find((c) => c.names[0] === 'graph')!;
    expect(graph.commands.find((c) => c.names[0] === 'neighbors')!.names).toEqual([
      'neighbors',
      'neighbours',
    ]);
    const search = tree.commands.find((c) => c.names[0] === 'search')!;
    expect(search.options.find((o) => o.flags.includes('--kind'))!.choices).toContain('preference');
    expect(tree.commands.find((c) => c.names[0] === 'completion')!.argumentChoices).toEqual([
      ['bash', 'zsh', 'fish'],
    ]);
    // Each shell's script names every command path of the tree.
    for (const shell of SHELLS) {
      const text = readFileSync(scripts[shell], 'utf8');
      for (const node of allNodes(tree).slice(1))
        expect(text, `${shell}: ${node.path.join(' ')}`).toContain(node.path.join(' '));
    }
  });

  it('bash completes commands, subcommands, aliases, options and choices', () => {
    expect(bash('engram', '')).toEqual(topCommands());
    expect(bash('engram', 'mo')).toEqual(['move', 'models']);
    expect(bash('engram', 'models', '')).toEqual([
      'prepare',
      'backfill',
      'use',
      'status',
      'rollback',
      'prune',
    ]);
    expect(bash('engram', '--config', 'x.yaml', 'models', 'u')).toEqual(['use']);
    expect(bash('engram', 'graph', 'neighbours', '--d')).toEqual(['--depth']);
    expect(bash('engram', 'search', '--kind', 'pr')).toEqual(['preference', 'procedure']);
    expect(bash('engram', '-c', 'x.yaml', '--json', 'search', 'q', '--kind', 'f')).toEqual([
      'fact',
    ]);
    expect(bash('engram', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    // Global options complete after a command too; a file argument falls back to file names.
    expect(bash('engram', 'list', '--js')).toEqual(['--json']);
    expect(bash('engram', 'import', '')).toEqual([]);
  });

  it.skipIf(!has('zsh'))(
    'zsh: the script parses and completes through _describe and compadd',
    () => {
      const stubs = [
        'compdef() { }',
        '_describe() { print -r -- "describe ${(j:|:)${(P)4}}" }',
        'compadd() { print -r -- "compadd ${(j:|:)reply}" }',
        '_files() { print -r -- files }',
      ].join('\n');
      const run = (...words: string[]) =>
        execFileSync(
          'zsh',
          [
            '-c',
            `${stubs}\nsource "$1"; shift; words=("$@"); CURRENT=$#words; _engram`,
            'zsh',
            scripts.zsh,
            ...words,
          ],
          { encoding: 'utf8' },
        ).trim();
      expect(spawnSync('zsh', ['-n', scripts.zsh]).status).toBe(0);
      expect(run('engram', 'models', '')).toMatch(/^describe prepare:build \(once\) and load/);
      expect(run('engram', 'search', '--kind', '')).toBe(
        'compadd fact|preference|rule|skill|procedure|note|episode|identity|working',
      );
      expect(run('engram', 'graph', 'neighbours', '-')).toMatch(
        /^describe --depth:edges to follow/,
      );
      expect(run('engram', 'completion', '')).toBe('compadd bash|zsh|fish');
      expect(run('engram', 'import', '')).toBe('files');
    },
  );

  it.skipIf(!has('fish'))('fish: complete -C offers commands, options and choices', () => {
    const run = (line: string) =>
      execFileSync('fish', ['-c', `source $argv[1]; complete -C "${line}"`, scripts.fish], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(run('engram mo')).toEqual(['models', 'move']);
    expect(run('engram models ')).toEqual([
      'backfill',
      'prepare',
      'prune',
      'rollback',
      'status',
      'use',
    ]);
    expect(run('engram graph neighbours --d')).toEqual(['--depth']);
    expect(run('engram search --kind pr')).toEqual(['preference', 'procedure']);
    expect(run('engram completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(run('engram -c x.yaml models u')).toEqual(['use']);
  });
});

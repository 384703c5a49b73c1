/**
 * The `engram` command line: argv -> MemoryService. Each command parses its flags, calls one
 * service method and prints a human table or, with --json, the service's JSON.
 */
import { Command, InvalidArgumentError, Option } from 'commander';

import type { Engram } from '../../app.js';
import { KINDS, STATUSES } from '../../domain/types.js';
import { type GlobalOptions, withEngram } from './context.js';
import { registerDataCommands } from './data-commands.js';
import { registerDormantCommands } from './dormant-commands.js';
import { registerGraphCommands } from './graph-commands.js';
import { registerLifecycleCommands } from './lifecycle-commands.js';
import { memoryDetails, memoryTable, printJson, println, recallTable } from './output.js';
import { registerServiceCommands } from './service-commands.js';
import { readStdin } from './stdin.js';

/** Parses an integer flag. */
export function int(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('must be an integer');
  return n;
}

/** Parses a number flag. */
export function num(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError('must be a number');
  return n;
}

/** Collects a repeatable flag. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

/** Collects a repeatable `NAME=NUMBER` flag (e.g. `--weight vector=0.5`) into an object. */
export function weight(
  value: string,
  previous: Record<string, number> = {},
): Record<string, number> {
  const match = /^([a-z_]+)=(.+)$/.exec(value.trim());
  const n = Number(match?.[2]);
  if (!match || !Number.isFinite(n))
    throw new InvalidArgumentError('must be CHANNEL=NUMBER, e.g. vector=0.5');
  return { ...previous, [match[1]!]: n };
}

/** The global options of a subcommand. */
export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

function change(cmd: Command): { space?: string; actor?: string; reason?: string } {
  const o = cmd.optsWithGlobals<GlobalOptions & { actor?: string; reason?: string }>();
  return { space: o.space, actor: o.actor, reason: o.reason };
}

/** Prints a memory (details, or JSON). */
function showMemory(cmd: Command, memory: unknown, line?: string): void {
  if (globals(cmd).json) printJson(memory);
  else println(line ?? memoryDetails(memory as Parameters<typeof memoryDetails>[0]));
}

function filterOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--kind <kind...>', 'only these kinds').choices(KINDS))
    .option('--area <prefix>', 'only areas under this prefix (repeatable)', collect)
    .option('--tag <tag>', 'only items with every given tag (repeatable)', collect)
    .addOption(new Option('--status <status...>', 'statuses to include').choices(STATUSES))
    .option('--pinned', 'only pinned items')
    .option('--created-after <iso>', 'created at or after this ISO time')
    .option('--created-before <iso>', 'created before this ISO time')
    .option('--updated-after <iso>', 'updated at or after this ISO time')
    .option('--updated-before <iso>', 'updated before this ISO time');
}

function filters(o: Record<string, unknown>) {
  return {
    kinds: o.kind as never,
    areas: o.area as string[] | undefined,
    tags: o.tag as string[] | undefined,
    statuses: o.status as never,
    pinned: o.pinned as boolean | undefined,
    created_after: o.createdAfter as string | undefined,
    created_before: o.createdBefore as string | undefined,
    updated_after: o.updatedAfter as string | undefined,
    updated_before: o.updatedBefore as string | undefined,
  };
}

function withChange(cmd: Command): Command {
  return cmd
    .option('--actor <name>', 'who makes the change (recorded in history)')
    .option('--reason <text>', 'why (recorded in history)');
}

/** A command acting on one memory id with one service call. */
function idCommand(
  program: Command,
  name: string,
  description: string,
  act: (engram: Engram, id: string, cmd: Command) => Promise<unknown>,
): void {
  withChange(program.command(`${name} <id>`).description(description)).action(
    async (id: string, _o: unknown, cmd: Command) => {
      await withEngram(globals(cmd), false, async (engram) =>
        showMemory(cmd, await act(engram, id, cmd), `${name}: ${id}`),
      );
    },
  );
}

function registerWriteCommands(program: Command): void {
  withChange(
    program
      .command('remember [body]')
      .description(
        'store a memory (body from the argument, or from stdin with "-" or no argument)',
      ),
  )
    .addOption(new Option('--kind <kind>', 'memory kind').choices(KINDS).default('note'))
    .option('--title <title>', 'short title (skills: the skill name)')
    .option('--area <area>', 'topic area, e.g. projects/billing', 'general')
    .option('--tag <tag>', 'tag (repeatable, or comma-separated)', collect)
    .option('--importance <0..1>', 'importance', num)
    .option('--pin', 'pin the memory (never decays or is archived automatically)')
    .option('--candidate', 'store as a candidate instead of active')
    .option('--agent <id>', 'provenance: the writing agent')
    .option('--session <id>', 'provenance: the session')
    .option('--speaker <name>', 'provenance: who said or wrote it (a person)')
    .action(async (body: string | undefined, o: Record<string, unknown>, cmd: Command) => {
      const text = body === undefined || body === '-' ? await readStdin() : body;
      await withEngram(globals(cmd), true, async (engram) => {
        const source =
          o.agent || o.session || o.speaker
            ? {
                agent: o.agent as string | undefined,
                session: o.session as string | undefined,
                speaker: o.speaker as string | undefined,
              }
            : undefined;
        const result = await engram.remember({
          ...change(cmd),
          body: text,
          kind: o.kind as never,
          title: o.title as string | undefined,
          area: o.area as string,
          tags: (o.tag as string[]) ?? [],
          importance: o.importance as number | undefined,
          pinned: Boolean(o.pin),
          status: o.candidate ? 'candidate' : 'active',
          source,
        });
        if (globals(cmd).json) printJson(result);
        else
          println(
            `${result.created ? 'remembered' : 'already remembered (exact duplicate)'}: ${result.memory.id}`,
          );
      });
    });

  withChange(
    program
      .command('revise <id> [body]')
      .description('write a new version of a memory (body from the argument or stdin with "-")'),
  )
    .option('--title <title>', 'new title')
    .option('--tags <tags>', 'replace all tags (comma-separated)')
    .option('--restore-version <n>', 'restore the content of version n as a new version', int)
    .action(
      async (id: string, body: string | undefined, o: Record<string, unknown>, cmd: Command) => {
        const text = body === '-' ? await readStdin() : body;
        await withEngram(globals(cmd), true, async (engram) => {
          const memory =
            o.restoreVersion !== undefined
              ? await engram.restoreVersion(id, o.restoreVersion as number, change(cmd))
              : await engram.revise(id, {
                  ...change(cmd),
                  body: text,
                  title: o.title as string | undefined,
                  tags: o.tags === undefined ? undefined : collect(o.tags as string),
                });
          showMemory(cmd, memory, `revised: ${id} (version ${memory.version})`);
        });
      },
    );

  idCommand(
    program,
    'forget',
    'hide a memory from recall (reversible with restore)',
    (e, id, cmd) => e.forget(id, change(cmd)),
  );
  idCommand(
    program,
    'restore',
    'bring back a forgotten, archived, superseded or merged memory',
    (e, id, cmd) => e.restore(id, change(cmd)),
  );
  idCommand(program, 'pin', 'pin a memory', (e, id, cmd) => e.pin(id, change(cmd)));
  idCommand(program, 'unpin', 'unpin a memory', (e, id, cmd) => e.unpin(id, change(cmd)));

  withChange(
    program
      .command('purge <id>')
      .description(
        'irreversibly delete a memory: text, versions, vectors and index entries (audited)',
      ),
  )
    .option('--yes', 'confirm the irreversible deletion')
    .action(async (id: string, o: { yes?: boolean }, cmd: Command) => {
      await withEngram(globals(cmd), false, async (engram) => {
        if (!o.yes) {
          process.stderr.write(
            'engram: purge is irreversible; add --yes to confirm (use forget for a reversible removal)\n',
          );
          return 2;
        }
        const result = await engram.purge(id, change(cmd));
        if (globals(cmd).json) printJson(result);
        else println(`purged: ${id}`);
        return 0;
      });
    });

  withChange(
    program.command('move <id> <area>').description('move a memory to another area'),
  ).action(async (id: string, area: string, _o: unknown, cmd: Command) => {
    await withEngram(globals(cmd), false, async (engram) =>
      showMemory(cmd, await engram.move(id, area, change(cmd)), `moved: ${id} -> ${area}`),
    );
  });

  withChange(program.command('tag <id>').description('add or remove tags'))
    .option('--add <tag>', 'tag to add (repeatable, or comma-separated)', collect)
    .option('--remove <tag>', 'tag to remove (repeatable, or comma-separated)', collect)
    .action(async (id: string, o: { add?: string[]; remove?: string[] }, cmd: Command) => {
      await withEngram(globals(cmd), false, async (engram) => {
        const memory = await engram.tag(
          id,
          { add: o.add ?? [], remove: o.remove ?? [] },
          change(cmd),
        );
        showMemory(cmd, memory, `tags of ${id}: ${memory.tags.join(', ') || '(none)'}`);
      });
    });

  withChange(
    program.command('importance <id> <value>').description('set importance (0..1)'),
  ).action(async (id: string, value: string, _o: unknown, cmd: Command) => {
    await withEngram(globals(cmd), false, async (engram) =>
      showMemory(
        cmd,
        await engram.setImportance(id, num(value), change(cmd)),
        `importance of ${id}: ${value}`,
      ),
    );
  });

  withChange(
    program
      .command('supersede <old>')
      .description('record that a newer memory replaces an older one'),
  )
    .requiredOption('--by <new>', 'the memory that replaces it')
    .action(async (old: string, o: { by: string }, cmd: Command) => {
      await withEngram(globals(cmd), false, async (engram) => {
        const result = await engram.supersede(old, o.by, change(cmd));
        if (globals(cmd).json) printJson(result);
        else println(`${old} is superseded by ${o.by}`);
      });
    });

  withChange(program.command('relate <from> <to>').description('relate two memories'))
    .addOption(
      new Option('--type <type>', 'relation type')
        .choices(['related', 'derived_from'])
        .default('related'),
    )
    .option('--remove', 'invalidate the relation instead (kept in history)')
    .action(
      async (
        from: string,
        to: string,
        o: { type: 'related' | 'derived_from'; remove?: boolean },
        cmd: Command,
      ) => {
        await withEngram(globals(cmd), false, async (engram) => {
          if (o.remove) await engram.unrelate(from, to, { ...change(cmd), type: o.type });
          const relations = o.remove
            ? []
            : await engram.relate(from, to, { ...change(cmd), type: o.type });
          if (globals(cmd).json) printJson(o.remove ? { invalidated: true } : relations);
          else
            println(
              o.remove ? `relation ${from} -> ${to} invalidated` : `${from} -[${o.type}]-> ${to}`,
            );
        });
      },
    );
}

function registerReadCommands(program: Command): void {
  program
    .command('get <id>')
    .description('show one memory')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      await withEngram(globals(cmd), false, async (engram) =>
        showMemory(cmd, await engram.get(id, { space: globals(cmd).space })),
      );
    });

  filterOptions(program.command('list').description('list memories, most recently updated first'))
    .option('--limit <n>', 'page size', int, 50)
    .addOption(
      new Option('--order <order>', 'sort by').choices(['updated', 'created']).default('updated'),
    )
    .option('--cursor <cursor>', 'cursor printed by the previous page')
    .action(async (o: Record<string, unknown>, cmd: Command) => {
      await withEngram(globals(cmd), false, async (engram) => {
        const page = await engram.list({
          space: globals(cmd).space,
          ...filters(o),
          limit: o.limit as number,
          order: o.order as 'updated',
          cursor: o.cursor as string | undefined,
        });
        if (globals(cmd).json) return printJson(page);
        println(page.items.length ? memoryTable(page.items) : 'no memories');
        if (page.next_cursor) println(`more: engram list --cursor ${page.next_cursor}`);
      });
    });

  filterOptions(
    program
      .command('search <query>')
      .description('hybrid recall: keyword, vector, graph and time channels, fused'),
  )
    .option('-k, --k <n>', 'number of hits', int)
    .option('--rerank', 'rerank the best candidates (default: recall.rerank.enabled)')
    .option('--no-rerank', 'keep the fused order')
    .option(
      '--weight <channel=n>',
      'fusion weight of a channel for this search: keyword, vector, graph or time (repeatable; 0 turns it off)',
      weight,
    )
    .action(async (query: string, o: Record<string, unknown>, cmd: Command) => {
      await withEngram(globals(cmd), true, async (engram) => {
        const result = await engram.recall({
          space: globals(cmd).space,
          query,
          k: o.k as number | undefined,
          rerank: o.rerank as boolean | undefined,
          weights: o.weight as Record<string, number> | undefined,
          ...filters(o),
        });
        if (globals(cmd).json) printJson(result);
        else println(recallTable(result));
      });
    });

  program
    .command('history <id>')
    .description('versions, status changes and relations of a memory')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      await withEngram(globals(cmd), false, async (engram) => {
        const h = await engram.history(id, { space: globals(cmd).space });
        if (globals(cmd).json) return printJson(h);
        for (const v of h.versions)
          println(
            `v${v.version}  ${v.created_at}  ${v.actor ?? '-'}  ${v.reason ?? ''}\n    ${v.body.replace(/\n/gu, '\n    ')}`,
          );
        for (const e of h.status_events)
          println(`status  ${e.at}  ${e.from_status ?? '-'} -> ${e.to_status}  (${e.reason})`);
        for (const r of h.relations)
          println(
            `relation  ${r.created_at}  ${r.from_id} -[${r.type}]-> ${r.to_id}${r.invalidated_at ? `  invalidated ${r.invalidated_at} (${r.invalidated_reason})` : ''}`,
          );
      });
    });
}

/** Builds the whole command tree. */
export function buildProgram(): Command {
  const program = new Command('engram')
    .description('engram: long-term memory for AI agents')
    .version('0.1.0')
    .option(
      '-c, --config <file>',
      'configuration file (YAML); default: $ENGRAM_CONFIG, else built-in defaults',
    )
    .option('--json', 'print JSON instead of human tables')
    .option('--space <name>', 'space to act in (default: the configured space, "default")')
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .exitOverride();
  registerWriteCommands(program);
  registerReadCommands(program);
  registerDataCommands(program);
  registerGraphCommands(program);
  registerLifecycleCommands(program);
  registerServiceCommands(program);
  registerDormantCommands(program);
  return program;
}

/**
 * The commands that write memories: remember, revise, forget, restore, pin, unpin, purge, move,
 * tag, importance, supersede and relate. Each calls one service method and prints a short line
 * or, with --json, the service's JSON.
 */
import type { Engram } from '../../app.js';
import { type Kind, KINDS, type Memory, type RememberResult } from '../../domain/types.js';
import type { Call, CommandSpec } from './command.js';
import { withEngram } from './context.js';
import { change, CHANGE_OPTIONS, type ChangeFlags, showMemory } from './memory-common.js';
import { printJson, println } from './output.js';
import { collect, int, num } from './parse.js';
import { readStdinText } from './stdin.js';

type RememberFlags = ChangeFlags & {
  kind: Kind;
  title?: string;
  area: string;
  tag?: string[];
  importance?: number;
  pin?: boolean;
  candidate?: boolean;
  agent?: string;
  session?: string;
  speaker?: string;
  related?: boolean;
};

function source(o: RememberFlags) {
  return o.agent || o.session || o.speaker
    ? { agent: o.agent, session: o.session, speaker: o.speaker }
    : undefined;
}

/** One applied option of a duplicate remember, with its new value. */
function appliedText(field: string, result: RememberResult): string {
  const m = result.memory;
  if (field === 'area') return `area ${m.area}`;
  if (field === 'importance') return `importance ${m.importance}`;
  if (field === 'tags') return `tags ${m.tags.join(', ')}`;
  return field;
}

/** The human answer of remember: the id, then the related memories or why they are missing. */
function rememberedLines(result: RememberResult): string[] {
  const lines = [
    `${result.created ? 'remembered' : 'already remembered (exact duplicate)'}: ${result.memory.id}`,
  ];
  if (result.applied?.length)
    lines.push(`applied to it: ${result.applied.map((f) => appliedText(f, result)).join(', ')}`);
  if (result.hint) lines.push(result.hint);
  for (const r of result.related_memories ?? [])
    lines.push(`  ${r.id}  ${r.relevance.toFixed(2)}  ${r.label}`);
  if (result.related_skipped === 'budget_exceeded')
    lines.push('related memories skipped: the search exceeded auto_recall.related_budget_ms');
  return lines;
}

const remember: CommandSpec<[string | undefined], RememberFlags> = {
  name: 'remember [body]',
  description: 'store a memory (body from the argument, or from stdin with "-" or no argument)',
  options: [
    ...CHANGE_OPTIONS,
    { flags: '--kind <kind>', description: 'memory kind', choices: KINDS, default: 'note' },
    { flags: '--title <title>', description: 'short title (skills: the skill name)' },
    {
      flags: '--area <area>',
      description: 'topic area, e.g. projects/billing',
      default: 'general',
    },
    { flags: '--tag <tag>', description: 'tag (repeatable, or comma-separated)', parse: collect },
    { flags: '--importance <0..1>', description: 'importance', parse: num },
    { flags: '--pin', description: 'pin the memory (never decays or is archived automatically)' },
    { flags: '--candidate', description: 'store as a candidate instead of active' },
    { flags: '--agent <id>', description: 'provenance: the writing agent' },
    { flags: '--session <id>', description: 'provenance: the session' },
    { flags: '--speaker <name>', description: 'provenance: who said or wrote it (a person)' },
    {
      flags: '--related',
      description:
        'also show related memories when auto-recall is in interactive mode (subtle: always)',
    },
  ],
  async run(call) {
    const [body] = call.args;
    const o = call.options;
    const text = body === undefined || body === '-' ? await readStdinText() : body;
    await withEngram(call.globals, 'writes', async (engram) => {
      // Loads auto-recall's analysis model before the timed write, only when it will be used.
      const related = Boolean(o.related);
      await engram.prepareAutoRecall({ space: call.globals.space, related }).catch(() => false);
      const result = await engram.remember({
        ...change(call),
        body: text,
        kind: o.kind,
        title: o.title,
        area: o.area,
        tags: o.tag ?? [],
        importance: o.importance,
        pinned: Boolean(o.pin),
        status: o.candidate ? 'candidate' : 'active',
        source: source(o),
        related: related || undefined,
      });
      if (call.globals.json) printJson(result);
      else println(rememberedLines(result).join('\n'));
    });
  },
};

type ReviseFlags = ChangeFlags & { title?: string; tags?: string; restoreVersion?: number };

const revise: CommandSpec<[string, string | undefined], ReviseFlags> = {
  name: 'revise <id> [body]',
  description: 'write a new version of a memory (body from the argument or stdin with "-")',
  options: [
    ...CHANGE_OPTIONS,
    { flags: '--title <title>', description: 'new title' },
    { flags: '--tags <tags>', description: 'replace all tags (comma-separated)' },
    {
      flags: '--restore-version <n>',
      description: 'restore the content of version n as a new version',
      parse: int,
    },
  ],
  async run(call) {
    const [id, body] = call.args;
    const o = call.options;
    const text = body === '-' ? await readStdinText() : body;
    await withEngram(call.globals, 'writes', async (engram) => {
      const memory =
        o.restoreVersion !== undefined
          ? await engram.restoreVersion(id, o.restoreVersion, change(call))
          : await engram.revise(id, {
              ...change(call),
              body: text,
              title: o.title,
              tags: o.tags === undefined ? undefined : collect(o.tags),
            });
      await showMemory(call.globals, memory, `revised: ${id} (version ${memory.version})`);
    });
  },
};

/**
 * A command acting on one memory id with one service call; prints what became of it (`DONE: ID`,
 * e.g. `forgotten: 01J...`) or the JSON.
 */
function idCommand(
  [name, done]: [string, string],
  description: string,
  act: (engram: Engram, id: string, call: Call<unknown[], ChangeFlags>) => Promise<Memory>,
): CommandSpec<[string], ChangeFlags> {
  return {
    name: `${name} <id>`,
    description,
    options: CHANGE_OPTIONS,
    async run(call) {
      const [id] = call.args;
      await withEngram(call.globals, false, async (engram) =>
        showMemory(call.globals, await act(engram, id, call), `${done}: ${id}`),
      );
    },
  };
}

const purge: CommandSpec<[string], ChangeFlags & { yes?: boolean }> = {
  name: 'purge <id>',
  description: 'irreversibly delete a memory: text, versions, vectors and index entries (audited)',
  options: [
    ...CHANGE_OPTIONS,
    { flags: '--yes', description: 'confirm the irreversible deletion' },
  ],
  async run(call) {
    const [id] = call.args;
    await withEngram(call.globals, false, async (engram) => {
      if (!call.options.yes) {
        process.stderr.write(
          'engram: purge is irreversible; add --yes to confirm (use forget for a reversible removal)\n',
        );
        return 2;
      }
      const result = await engram.purge(id, change(call));
      if (call.globals.json) printJson(result);
      else println(`purged: ${id}`);
      return 0;
    });
  },
};

const move: CommandSpec<[string, string], ChangeFlags> = {
  name: 'move <id> <area>',
  description: 'move a memory to another area',
  options: CHANGE_OPTIONS,
  async run(call) {
    const [id, area] = call.args;
    await withEngram(call.globals, false, async (engram) =>
      showMemory(
        call.globals,
        await engram.move(id, area, change(call)),
        `moved: ${id} -> ${area}`,
      ),
    );
  },
};

const tag: CommandSpec<[string], ChangeFlags & { add?: string[]; remove?: string[] }> = {
  name: 'tag <id>',
  description: 'add or remove tags',
  options: [
    ...CHANGE_OPTIONS,
    {
      flags: '--add <tag>',
      description: 'tag to add (repeatable, or comma-separated)',
      parse: collect,
    },
    {
      flags: '--remove <tag>',
      description: 'tag to remove (repeatable, or comma-separated)',
      parse: collect,
    },
  ],
  async run(call) {
    const [id] = call.args;
    const o = call.options;
    await withEngram(call.globals, false, async (engram) => {
      const memory = await engram.tag(
        id,
        { add: o.add ?? [], remove: o.remove ?? [] },
        change(call),
      );
      await showMemory(
        call.globals,
        memory,
        `tags of ${id}: ${memory.tags.join(', ') || '(none)'}`,
      );
    });
  },
};

const importance: CommandSpec<[string, string], ChangeFlags> = {
  name: 'importance <id> <value>',
  description: 'set importance (0..1)',
  options: CHANGE_OPTIONS,
  async run(call) {
    const [id, value] = call.args;
    await withEngram(call.globals, false, async (engram) =>
      showMemory(
        call.globals,
        await engram.setImportance(id, num(value), change(call)),
        `importance of ${id}: ${value}`,
      ),
    );
  },
};

const supersede: CommandSpec<[string], ChangeFlags & { by: string }> = {
  name: 'supersede <old>',
  description: 'record that a newer memory replaces an older one',
  options: [
    ...CHANGE_OPTIONS,
    { flags: '--by <new>', description: 'the memory that replaces it', required: true },
  ],
  async run(call) {
    const [old] = call.args;
    const { by } = call.options;
    await withEngram(call.globals, false, async (engram) => {
      const result = await engram.supersede(old, by, change(call));
      if (call.globals.json) printJson(result);
      else println(`${old} is superseded by ${by}`);
    });
  },
};

type RelateFlags = ChangeFlags & { type: 'related' | 'derived_from'; remove?: boolean };

const relate: CommandSpec<[string, string], RelateFlags> = {
  name: 'relate <from> <to>',
  description: 'relate two memories',
  options: [
    ...CHANGE_OPTIONS,
    {
      flags: '--type <type>',
      description: 'relation type',
      choices: ['related', 'derived_from'],
      default: 'related',
    },
    { flags: '--remove', description: 'invalidate the relation instead (kept in history)' },
  ],
  async run(call) {
    const [from, to] = call.args;
    const { type, remove } = call.options;
    await withEngram(call.globals, false, async (engram) => {
      if (remove) await engram.unrelate(from, to, { ...change(call), type });
      const relations = remove ? [] : await engram.relate(from, to, { ...change(call), type });
      if (call.globals.json) printJson(remove ? { invalidated: true } : relations);
      else println(remove ? `relation ${from} -> ${to} invalidated` : `${from} -[${type}]-> ${to}`);
    });
  },
};

/** The commands that write memories, in the order the help lists them. */
export const WRITE_COMMANDS: readonly CommandSpec[] = [
  remember,
  revise,
  idCommand(
    ['forget', 'forgotten'],
    'hide a memory from recall (reversible with restore)',
    (e, id, call) => e.forget(id, change(call)),
  ),
  idCommand(
    ['restore', 'restored'],
    'bring back a forgotten, archived, superseded or merged memory',
    (e, id, call) => e.restore(id, change(call)),
  ),
  idCommand(['pin', 'pinned'], 'pin a memory', (e, id, call) => e.pin(id, change(call))),
  idCommand(['unpin', 'unpinned'], 'unpin a memory', (e, id, call) => e.unpin(id, change(call))),
  purge,
  move,
  tag,
  importance,
  supersede,
  relate,
];

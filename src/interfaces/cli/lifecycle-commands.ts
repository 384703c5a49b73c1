/**
 * The commands of the lifecycle: `maintain [--dry-run]`, `review [ACTION ID [BODY]]` and
 * `observe IDS...`. Each calls one service method and prints a report or the service's JSON.
 */
import { EngramError } from '../../domain/errors.js';
import type { MaintenanceReport } from '../../lifecycle/maintain.js';
import { EXIT_CODES } from '../error-codes.js';
import type { CommandSpec } from './command.js';
import { withEngram } from './context.js';
import { FULL_OPTION } from './memory-common.js';
import { printJson, println, show } from './output.js';
import { collect, int } from './parse.js';
import { progress } from './progress.js';
import { readStdinText } from './stdin.js';

const views = () => import('./lifecycle-views.js');
const maintenanceText = async (r: MaintenanceReport) => (await views()).maintenanceText(r);

const maintain: CommandSpec<[], { dryRun?: boolean; limit: number }> = {
  name: 'maintain',
  description:
    'run the decay job: strengths, promotions, archiving; backs up first (--dry-run previews)',
  options: [
    {
      flags: '--dry-run',
      description: 'print transitions, a strength histogram and edge cases without writing',
    },
    {
      flags: '--limit <n>',
      description: 'transitions listed in --json output',
      parse: int,
      default: 1000,
    },
  ],
  async run({ options: o, globals: g }) {
    // A preview only reads: it needs an existing store, as the reading commands do.
    const opened = o.dryRun ? { ...g, existingStore: true } : g;
    await withEngram(opened, false, async (engram) => {
      const input = { space: g.space ?? null, dry_run: Boolean(o.dryRun), list_limit: o.limit };
      // A real run is a job run here (it joins a maintenance job already waiting); a preview is not.
      if (o.dryRun) return show(g, await engram.maintain(input), maintenanceText);
      const bar = g.json ? undefined : await progress('engram maintain');
      const { maintainHere } = await import('./job-run.js');
      const report = await maintainHere(engram, input, (done, total) =>
        bar?.update(done, total ?? done),
      );
      bar?.stop();
      await show(g, report, maintenanceText);
    });
  },
};

const ACTIONS = { reinforce: 'reinforce', revise: 'revise', 'let-go': 'let_go' } as const;

/** What each action did, for its answer (`reinforced: ID ...`). */
const DONE: Readonly<Record<keyof typeof ACTIONS, string>> = {
  reinforce: 'reinforced',
  revise: 'revised',
  'let-go': 'let go',
};

type ReviewArgs = [string | undefined, string | undefined, string | undefined];

const review: CommandSpec<ReviewArgs, { limit?: number; reason?: string; full?: boolean }> = {
  name: 'review [action] [id] [body]',
  description:
    'list memories fading toward the archive threshold by priority, or act on one: reinforce, revise (body from the argument or stdin with "-"), let-go',
  options: [
    { flags: '--limit <n>', description: 'how many to list', parse: int },
    { flags: '--reason <text>', description: 'why (recorded in history)' },
    FULL_OPTION,
  ],
  async run({ args: [action, id, body], options: o, globals: g }) {
    // Listing only reads (an existing store); an action writes.
    const opened = action === undefined ? { ...g, existingStore: true } : g;
    await withEngram(opened, action === 'revise' && 'writes', async (engram) => {
      if (action === undefined) {
        const list = await engram.review({ space: g.space, limit: o.limit });
        return show(g, list, async (l) => (await views()).reviewText(l, { full: o.full }));
      }
      const chosen = ACTIONS[action as keyof typeof ACTIONS];
      if (!chosen || !id)
        throw new EngramError(
          'INVALID_INPUT',
          `action: must be one of reinforce, revise, let-go, followed by a memory id`,
          { field: 'action', rule: 'reinforce | revise | let-go' },
        );
      const text = body === '-' ? await readStdinText() : body;
      const memory = await engram.reviewAction(id, chosen, {
        space: g.space,
        reason: o.reason,
        body: text,
      });
      if (g.json) printJson(memory);
      else
        println(
          `${DONE[action as keyof typeof ACTIONS]}: ${id} (status ${memory.status}, strength ${memory.strength.toFixed(3)})`,
        );
    });
  },
};

type ObserveFlags = { contextTag?: string[]; contextArea?: string; conversation?: string };

const observe: CommandSpec<[string[]], ObserveFlags> = {
  name: 'observe <ids...>',
  description: 'record that memories were used (reinforcement; not access): raises their strength',
  options: [
    {
      flags: '--context-tag <tag>',
      description: 'tag of the context they were used in (repeatable, or comma-separated)',
      parse: collect,
    },
    { flags: '--context-area <area>', description: 'area of the context they were used in' },
    { flags: '--conversation <id>', description: 'conversation the use happened in' },
  ],
  async run({ args: [ids], options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const result = await engram.observeMemoryUsage({
        space: g.space,
        memory_ids: ids,
        context_tags: o.contextTag ?? [],
        context_area: o.contextArea,
        conversation_id: o.conversation,
      });
      if (g.json) printJson(result);
      else
        for (const r of result.results)
          println(
            r.ok
              ? `${r.id}: used (${r.cross_domain ? 'cross-domain, ' : ''}strength ${r.strength_before.toFixed(3)} -> ${r.strength.toFixed(3)}, ${r.use_count} uses${r.linked.length ? `, related to ${r.linked.join(', ')}` : ''})`
              : `${r.id}: ${r.error.message}`,
          );
      return result.failed > 0 ? EXIT_CODES.PARTIAL : 0;
    });
  },
};

/** The lifecycle commands, in the order the help lists them. */
export const LIFECYCLE_COMMANDS: readonly CommandSpec[] = [maintain, review, observe];

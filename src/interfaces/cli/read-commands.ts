/**
 * The commands that read memories: get, list, search (hybrid recall) and history. Each calls one
 * service method and prints a table or, with --json, the service's JSON.
 */
import type { CommandSpec } from './command.js';
import { withEngram } from './context.js';
import {
  FILTER_OPTIONS,
  type FilterFlags,
  filters,
  FULL_OPTION,
  showMemory,
} from './memory-common.js';
import { printJson, println, show } from './output.js';
import { int, weight } from './parse.js';

const views = () => import('./memory-views.js');

const get: CommandSpec<[string]> = {
  name: 'get <id>',
  description: 'show one memory',
  readsOnly: true,
  async run({ args: [id], globals: g }) {
    await withEngram(g, false, async (engram) =>
      showMemory(g, await engram.get(id, { space: g.space })),
    );
  },
};

type ListFlags = FilterFlags & {
  limit: number;
  order: 'updated' | 'created';
  cursor?: string;
  full?: boolean;
};

const list: CommandSpec<[], ListFlags> = {
  name: 'list',
  description: 'list memories, most recently updated first',
  readsOnly: true,
  options: [
    ...FILTER_OPTIONS,
    { flags: '--limit <n>', description: 'page size', parse: int, default: 50 },
    {
      flags: '--order <order>',
      description: 'sort by',
      choices: ['updated', 'created'],
      default: 'updated',
    },
    { flags: '--cursor <cursor>', description: 'cursor printed by the previous page' },
    FULL_OPTION,
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const page = await engram.list({
        space: g.space,
        ...filters(o),
        limit: o.limit,
        order: o.order,
        cursor: o.cursor,
      });
      if (g.json) return printJson(page);
      const full = { full: o.full };
      println(page.items.length ? (await views()).memoryTable(page.items, full) : 'no memories');
      if (page.next_cursor) println(`more: engram list --cursor ${page.next_cursor}`);
    });
  },
};

type SearchFlags = FilterFlags & {
  k?: number;
  rerank?: boolean;
  decision?: 'on' | 'off';
  weight?: Record<string, number>;
  full?: boolean;
};

const search: CommandSpec<[string], SearchFlags> = {
  name: 'search <query>',
  description: 'hybrid recall: keyword, vector, graph and time channels, fused',
  readsOnly: true,
  options: [
    ...FILTER_OPTIONS,
    { flags: '-k, --k <n>', description: 'number of hits', parse: int },
    {
      flags: '--rerank',
      description: 'rerank the best candidates (default: recall.rerank.enabled)',
    },
    { flags: '--no-rerank', description: 'keep the fused order' },
    {
      flags: '--decision <on|off>',
      description:
        'decision recall for this search: judge the pool and order it by relevance (default: on when recall.decision.adapter is set)',
      choices: ['on', 'off'],
    },
    {
      flags: '--weight <channel=n>',
      description:
        'fusion weight of a channel for this search: keyword, vector, graph or time (repeatable; 0 turns it off)',
      parse: weight,
    },
    FULL_OPTION,
  ],
  async run({ args: [query], options: o, globals: g }) {
    await withEngram(g, true, async (engram) => {
      const result = await engram.recall({
        space: g.space,
        query,
        k: o.k,
        rerank: o.rerank,
        ...(o.decision ? { decision: o.decision } : {}),
        weights: o.weight,
        ...filters(o),
      });
      await show(g, result, async (r) => (await views()).recallTable(r, { full: o.full }));
    });
  },
};

const history: CommandSpec<[string]> = {
  name: 'history <id>',
  description: 'versions, status changes and relations of a memory',
  readsOnly: true,
  async run({ args: [id], globals: g }) {
    await withEngram(g, false, async (engram) => {
      const h = await engram.history(id, { space: g.space });
      if (g.json) return printJson(h);
      for (const line of (await views()).historyLines(h)) println(line);
    });
  },
};

/** The commands that read memories, in the order the help lists them. */
export const READ_COMMANDS: readonly CommandSpec[] = [get, list, search, history];

/**
 * The commands of the knowledge graph: `graph stats | neighbors ENTITY | entities | hubs |
 * rebuild`. Each calls one service method and prints a table or, with --json, the JSON.
 */
import { ENTITY_TYPES, type EntityType } from '../../domain/graph.js';
import type { CommandSpec } from './command.js';
import { withEngram } from './context.js';
import { printJson, println, show } from './output.js';
import { int } from './parse.js';
import { progress } from './progress.js';

const views = () => import('./graph-views.js');

const stats: CommandSpec<[]> = {
  name: 'stats',
  description: 'entity, mention and edge counts, stale items and hubs',
  readsOnly: true,
  async run({ globals: g }) {
    await withEngram(g, false, async (engram) => {
      const s = await engram.graphStats({ space: g.space });
      await show(g, s, async (x) => (await views()).statsText(x));
    });
  },
};

const neighbors: CommandSpec<[string], { depth: number; limit: number }> = {
  name: 'neighbors <entity>',
  alias: 'neighbours',
  description: 'an entity and its neighbours up to --depth edges away',
  readsOnly: true,
  options: [
    { flags: '--depth <n>', description: 'edges to follow (1 to 4)', parse: int, default: 1 },
    { flags: '--limit <n>', description: 'neighbours shown at most', parse: int, default: 50 },
  ],
  async run({ args: [entity], options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const r = await engram.graphNeighbors({
        space: g.space,
        entity,
        depth: o.depth,
        limit: o.limit,
      });
      if (g.json) return printJson(r);
      for (const line of (await views()).neighborLines(r)) println(line);
    });
  },
};

type EntitiesFlags = { top: number; by: 'mentions' | 'degree'; type?: EntityType };

const entities: CommandSpec<[], EntitiesFlags> = {
  name: 'entities',
  description: 'the most mentioned (or most connected) entities',
  readsOnly: true,
  options: [
    { flags: '--top <n>', description: 'how many', parse: int, default: 20 },
    {
      flags: '--by <order>',
      description: 'order',
      choices: ['mentions', 'degree'],
      default: 'mentions',
    },
    { flags: '--type <type>', description: 'only this entity type', choices: ENTITY_TYPES },
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const list = await engram.graphEntities({
        space: g.space,
        top: o.top,
        by: o.by,
        type: o.type,
      });
      await show(g, list, async (l) => (l.length ? (await views()).entityTable(l) : 'no entities'));
    });
  },
};

const hubs: CommandSpec<[], { limit: number }> = {
  name: 'hubs',
  description: 'hub report: congested entities, their cause, cluster suggestions (read-only)',
  readsOnly: true,
  options: [
    {
      flags: '--limit <n>',
      description: 'hubs reported at most (1 to 50)',
      parse: int,
      default: 10,
    },
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const r = await engram.graphHubs({ space: g.space, limit: o.limit });
      await show(g, r, async (x) => (await views()).hubsText(x));
    });
  },
};

const rebuild: CommandSpec<[], { staleOnly?: boolean }> = {
  name: 'rebuild',
  description:
    'recompute the graph of the space from scratch (as a background job run here; see engram jobs)',
  options: [
    {
      flags: '--stale-only',
      description: 'only extract items whose extraction is missing or outdated',
    },
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const bar = g.json ? undefined : await progress('engram graph rebuild');
      const total = (await engram.status({ space: g.space })).store.items_total;
      const update = (done: number) => bar?.update(Math.min(done, total), total);
      // A full rebuild is a job run here: checkpointed, and continued after a crash.
      const r = o.staleOnly
        ? await engram.graphRebuild({ space: g.space, stale_only: true }, (p) => update(p.done))
        : await (await import('./job-run.js')).rebuildGraphHere(engram, g.space, update);
      bar?.stop();
      if (g.json) printJson(r);
      else
        println(
          `graph of ${r.space}: ${r.items} items read, ${r.entities} entities, ${r.edges} edges (${r.ms} ms)`,
        );
    });
  },
};

/** `engram graph ...`. */
export const GRAPH_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'graph',
    description: 'knowledge graph: entities, neighbours, hubs (alone: its stats)',
    readsOnly: true,
    commands: [stats, neighbors, entities, hubs, rebuild],
    run: stats.run,
  },
];

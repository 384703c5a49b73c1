/**
 * CLI commands of the knowledge graph: `graph stats | neighbors ENTITY | entities | hubs |
 * rebuild`. Thin: each parses flags, calls one service method, prints a table or the JSON.
 */
import Table from 'cli-table3';
import { type Command, Option } from 'commander';

import { ENTITY_TYPES, type EntityInfo, type GraphStats } from '../../domain/graph.js';
import type { HubReport } from '../../graph/hubs.js';
import { progress, withEngram } from './context.js';
import { printJson, println } from './output.js';
import { globals, int } from './program.js';

function table(head: string[]): Table.Table {
  return new Table({ head, style: { head: [], border: [] }, wordWrap: false });
}

function short(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function entityTable(entities: readonly EntityInfo[]): string {
  const t = table(['entity', 'type', 'mentions', 'degree', 'aliases']);
  for (const e of entities)
    t.push([short(e.name, 40), e.type, e.mentions, e.degree, short(e.aliases.join(', '), 40)]);
  return t.toString();
}

function statsText(s: GraphStats & { enabled: boolean }): string {
  const lines = [
    `graph of space ${s.space}${s.enabled ? '' : ' (graph.enabled is false: not kept up to date)'}`,
    `${s.entities} entities, ${s.mentions} mentions, ${s.edges} edges, ${s.items_extracted} items extracted`,
    `entity types: ${
      Object.entries(s.by_type)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '-'
    }`,
    `edge types: ${
      Object.entries(s.edges_by_type)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '-'
    }`,
    `hub threshold: more than ${s.hub_threshold} mentions`,
  ];
  if (s.hubs.length)
    lines.push(`hubs: ${s.hubs.map((h) => `${h.name} (${h.mentions})`).join(', ')}`);
  if (s.items_stale > 0)
    lines.push(
      `${s.items_stale} items are not extracted yet: run engram graph rebuild --stale-only`,
    );
  return lines.join('\n');
}

function hubsText(r: HubReport): string {
  if (r.hubs.length === 0) return `no hubs in space ${r.space} (${r.items} items)`;
  const lines = [
    `hubs of space ${r.space} (${r.items} items; hub above ${r.hub_threshold} mentions)`,
  ];
  for (const h of r.hubs) {
    lines.push(
      '',
      `${h.entity.name} [${h.entity.type}]  ${h.entity.mentions} mentions (${Math.round(h.share * 100)}%), degree ${h.entity.degree}${h.congested ? ', congested' : ''}`,
      `  cause: ${h.diagnosis}${h.provenance.top_source ? ` (top source ${h.provenance.top_source}: ${Math.round(h.provenance.share * 100)}% of its items, ${Math.round(h.provenance.baseline_share * 100)}% of the space)` : ''}`,
    );
    for (const a of h.anchors) lines.push(`  anchor: ${a.kind} ${a.name} (${a.items} items)`);
    for (const c of h.clusters)
      lines.push(
        `  cluster: ${c.entities.slice(0, 6).join(', ')} (${c.items} items) -> ${c.suggested_area}`,
      );
    lines.push(`  suggestion: ${h.suggestion}`);
  }
  if (r.anchors.length)
    lines.push(
      '',
      `existing anchors: ${r.anchors.map((a) => `${a.kind} ${a.name} (${a.items})`).join(', ')}`,
    );
  return lines.join('\n');
}

/** Registers `engram graph ...`. */
export function registerGraphCommands(program: Command): void {
  const graph = program.command('graph').description('knowledge graph: entities, neighbours, hubs');

  graph
    .command('stats')
    .description('entity, mention and edge counts, stale items and hubs')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const s = await engram.graphStats({ space: g.space });
        if (g.json) printJson(s);
        else println(statsText(s));
      });
    });

  graph
    .command('neighbors <entity>')
    .alias('neighbours')
    .description('an entity and its neighbours up to --depth edges away')
    .option('--depth <n>', 'edges to follow (1 to 4)', int, 1)
    .option('--limit <n>', 'neighbours shown at most', int, 50)
    .action(async (entity: string, o: { depth: number; limit: number }, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const r = await engram.graphNeighbors({
          space: g.space,
          entity,
          depth: o.depth,
          limit: o.limit,
        });
        if (g.json) return printJson(r);
        println(
          `${r.entity.name} [${r.entity.type}]: ${r.entity.mentions} mentions, degree ${r.entity.degree}`,
        );
        if (r.entity.aliases.length) println(`aliases: ${r.entity.aliases.join(', ')}`);
        if (r.neighbors.length === 0) return println('no neighbours');
        const t = table(['#', 'entity', 'type', 'hops', 'edges', 'mentions', 'path']);
        r.neighbors.forEach((n, i) =>
          t.push([
            i + 1,
            short(n.entity.name, 30),
            n.entity.type,
            n.distance,
            n.edges.map((e) => `${e.type}×${e.weight}`).join(' '),
            n.entity.mentions,
            short(n.path.join(' → '), 50),
          ]),
        );
        println(t.toString());
      });
    });

  graph
    .command('entities')
    .description('the most mentioned (or most connected) entities')
    .option('--top <n>', 'how many', int, 20)
    .addOption(
      new Option('--by <order>', 'order').choices(['mentions', 'degree']).default('mentions'),
    )
    .addOption(new Option('--type <type>', 'only this entity type').choices(ENTITY_TYPES))
    .action(async (o: { top: number; by: 'mentions' | 'degree'; type?: never }, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const list = await engram.graphEntities({
          space: g.space,
          top: o.top,
          by: o.by,
          type: o.type,
        });
        if (g.json) printJson(list);
        else println(list.length ? entityTable(list) : 'no entities');
      });
    });

  graph
    .command('hubs')
    .description('hub report: congested entities, their cause, cluster suggestions (read-only)')
    .option('--limit <n>', 'hubs reported at most (1 to 50)', int, 10)
    .action(async (o: { limit: number }, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const r = await engram.graphHubs({ space: g.space, limit: o.limit });
        if (g.json) printJson(r);
        else println(hubsText(r));
      });
    });

  graph
    .command('rebuild')
    .description('recompute the graph of the space from scratch')
    .option('--stale-only', 'only extract items whose extraction is missing or outdated')
    .action(async (o: { staleOnly?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const bar = g.json ? undefined : progress('engram graph rebuild');
        const total = (await engram.status({ space: g.space })).store.items_total;
        const r = await engram.graphRebuild(
          { space: g.space, stale_only: Boolean(o.staleOnly) },
          (p) => bar?.update(Math.min(p.done, total), total),
        );
        bar?.stop();
        if (g.json) printJson(r);
        else
          println(
            `graph of ${r.space}: ${r.items} items read, ${r.entities} entities, ${r.edges} edges (${r.ms} ms)`,
          );
      });
    });
}

/** Human renderings of the knowledge graph: stats, entity tables, neighbours, the hub report. */
import type { EntityInfo, GraphStats } from '../../domain/graph.js';
import type { NeighborsResult } from '../../graph/graph-api.js';
import type { HubReport } from '../../graph/hubs.js';
import { printableLine } from './printable.js';
import { table } from './table.js';

function short(text: string, max: number): string {
  const safe = printableLine(text);
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

function counts(byKey: Record<string, number>): string {
  return (
    Object.entries(byKey)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || '-'
  );
}

/** The entities of `graph entities`. */
export function entityTable(entities: readonly EntityInfo[]): string {
  const t = table(['entity', 'type', 'mentions', 'degree', 'aliases'], { flex: 'aliases' });
  for (const e of entities)
    t.push([short(e.name, 40), e.type, e.mentions, e.degree, e.aliases.join(', ')]);
  return t.toString();
}

/** The text of `graph stats`. */
export function statsText(s: GraphStats & { enabled: boolean }): string {
  const lines = [
    `graph of space ${s.space}${s.enabled ? '' : ' (graph.enabled is false: not kept up to date)'}`,
    `${s.entities} entities, ${s.mentions} mentions, ${s.edges} edges, ${s.items_extracted} items extracted`,
    `entity types: ${counts(s.by_type)}`,
    `edge types: ${counts(s.edges_by_type)}`,
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

/** The lines of `graph neighbors`: the entity, its aliases, then its neighbours' table. */
export function neighborLines(r: NeighborsResult): string[] {
  const lines = [
    `${r.entity.name} [${r.entity.type}]: ${r.entity.mentions} mentions, degree ${r.entity.degree}`,
  ];
  if (r.entity.aliases.length) lines.push(`aliases: ${r.entity.aliases.join(', ')}`);
  if (r.neighbors.length === 0) return [...lines, 'no neighbours'];
  const t = table(['#', 'entity', 'type', 'hops', 'edges', 'mentions', 'path'], { flex: 'path' });
  r.neighbors.forEach((n, i) =>
    t.push([
      i + 1,
      short(n.entity.name, 30),
      n.entity.type,
      n.distance,
      n.edges.map((e) => `${e.type}×${e.weight}`).join(' '),
      n.entity.mentions,
      n.path.join(' → '),
    ]),
  );
  return [...lines, t.toString()];
}

/** The text of `graph hubs`. */
export function hubsText(r: HubReport): string {
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

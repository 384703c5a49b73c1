/** CLI output: human tables by default, exact JSON with --json; errors to stderr. */
import Table from 'cli-table3';

import type { Memory, RecallResponse } from '../../domain/types.js';

/** Writes a value as JSON (one document) to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes one line to stdout. */
export function println(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function width(): number {
  return Math.max(80, process.stdout.columns ?? 120);
}

/** A table of memories for `list`. */
export function memoryTable(items: readonly Memory[]): string {
  const bodyWidth = Math.max(20, width() - 70);
  const table = new Table({
    head: ['id', 'kind', 'area', 'status', 'updated', 'body'],
    style: { head: [], border: [] },
    wordWrap: false,
  });
  for (const m of items)
    table.push([
      m.id,
      m.kind,
      shorten(m.area, 20),
      m.status + (m.pinned ? ' 📌' : ''),
      m.updated_at.slice(0, 10),
      shorten(m.title ? `${m.title}: ${m.body}` : m.body, bodyWidth),
    ]);
  return table.toString();
}

/** The graph evidence of a hit: hops and the entity path, e.g. `2 Alice → Phoenix`. */
function graphCell(channels: RecallResponse['hits'][number]['channels']): string {
  if (channels.graph === undefined) return '-';
  const path = channels.graph_path?.length ? ` ${channels.graph_path.join(' → ')}` : '';
  return shorten(`${channels.graph}${path}`, 24);
}

/** A table of recall hits for `search`, with the per-channel ranks that explain each hit. */
export function recallTable(result: RecallResponse): string {
  // The graph column (hops and entity path) appears only when the graph explains some hit.
  // The time column likewise, only when the query named a date and the time channel found a hit.
  const graph = result.hits.some((h) => h.channels.graph !== undefined);
  const time = result.hits.some((h) => h.channels.time !== undefined);
  const bodyWidth = Math.max(20, width() - (graph ? 100 : 75) - (time ? 7 : 0));
  const table = new Table({
    head: [
      '#',
      'score',
      'keyword',
      'vector',
      ...(graph ? ['graph'] : []),
      ...(time ? ['time'] : []),
      'id',
      'kind',
      'body',
    ],
    style: { head: [], border: [] },
    wordWrap: false,
  });
  result.hits.forEach((h, i) =>
    table.push([
      String(i + 1),
      h.score.toFixed(4),
      h.channels.keyword ?? '-',
      h.channels.vector ?? '-',
      ...(graph ? [graphCell(h.channels)] : []),
      ...(time ? [h.channels.time ?? '-'] : []),
      h.id,
      h.kind,
      shorten(h.title ? `${h.title}: ${h.body}` : h.body, bodyWidth),
    ]),
  );
  const notes = result.degraded.map((d) => `degraded: ${d.channel} channel (${d.reason})`);
  return [
    result.hits.length ? table.toString() : 'no matching memories',
    ...notes,
    `(${result.timings_ms.total ?? 0} ms)`,
  ].join('\n');
}

/** A memory as `key: value` lines for `get`. */
export function memoryDetails(m: Memory): string {
  const rows: [string, string][] = [
    ['id', m.id],
    ['kind', m.kind],
    ['area', m.area],
    ['status', m.status],
    ['title', m.title ?? '-'],
    ['tags', m.tags.join(', ') || '-'],
    ['importance', String(m.importance)],
    ['pinned', m.pinned ? 'yes' : 'no'],
    ['strength', m.strength.toFixed(3)],
    ['version', String(m.version)],
    ['vector', m.vector],
    ['created', m.created_at],
    ['updated', m.updated_at],
    ['accessed', `${m.access_count}×${m.last_accessed_at ? `, last ${m.last_accessed_at}` : ''}`],
    ['source', m.source ? JSON.stringify(m.source) : '-'],
  ];
  return [...rows.map(([k, v]) => `${k.padEnd(11)} ${v}`), '', m.body].join('\n');
}

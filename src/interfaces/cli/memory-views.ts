/** Human renderings of memories: the `list` and `search` tables, one memory's details, history. */
import type { History, Memory, RecallResponse } from '../../domain/types.js';
import { shorten } from './output.js';
import { printable, printableLine } from './printable.js';
import { table } from './table.js';

/** How a table of memories shows bodies: cut to one line (default), or whole with `full`. */
export interface BodyOptions {
  full?: boolean;
}

/** A memory's text in a table: its title, then its body. */
const bodyText = (m: { title: string | null; body: string }): string =>
  m.title ? `${m.title}: ${m.body}` : m.body;

/** A table of memories for `list`. */
export function memoryTable(items: readonly Memory[], options: BodyOptions = {}): string {
  const t = table(['id', 'kind', 'area', 'status', 'updated', 'body'], {
    flex: 'body',
    full: options.full,
  });
  for (const m of items)
    t.push([
      m.id,
      m.kind,
      options.full ? m.area : shorten(m.area, 24),
      m.status + (m.pinned ? ' 📌' : ''),
      m.updated_at.slice(0, 10),
      bodyText(m),
    ]);
  return t.toString();
}

/** The graph evidence of a hit: hops and the entity path, e.g. `2 Alice → Phoenix`. */
function graphCell(channels: RecallResponse['hits'][number]['channels']): string {
  if (channels.graph === undefined) return '-';
  const path = channels.graph_path?.length ? ` ${channels.graph_path.join(' → ')}` : '';
  return shorten(`${channels.graph}${path}`, 24);
}

/**
 * A table of recall hits for `search`, with the per-channel ranks that explain each hit: `kw`
 * (keyword), `vec` (vector), and `graph` (hops and entity path) and `time` when they found one.
 */
export function recallTable(result: RecallResponse, options: BodyOptions = {}): string {
  // The graph column (hops and entity path) appears only when the graph explains some hit.
  // The time column likewise, only when the query named a date and the time channel found a hit.
  const graph = result.hits.some((h) => h.channels.graph !== undefined);
  const time = result.hits.some((h) => h.channels.time !== undefined);
  // The relevance column appears when the decision stage judged the hits.
  const relevance = result.hits.some((h) => h.relevance !== undefined);
  const head = [
    '#',
    ...(relevance ? ['relevance'] : []),
    'score',
    'kw',
    'vec',
    ...(graph ? ['graph'] : []),
    ...(time ? ['time'] : []),
    'id',
    'kind',
    'body',
  ];
  const t = table(head, { flex: 'body', full: options.full });
  result.hits.forEach((h, i) =>
    t.push([
      String(i + 1),
      ...(relevance ? [h.relevance?.toFixed(3) ?? '-'] : []),
      h.score.toFixed(4),
      h.channels.keyword ?? '-',
      h.channels.vector ?? '-',
      ...(graph ? [graphCell(h.channels)] : []),
      ...(time ? [h.channels.time ?? '-'] : []),
      h.id,
      h.kind,
      `${sourceLabel(h)}${bodyText(h)}`,
    ]),
  );
  const notes = result.degraded.map((d) => `degraded: ${d.channel} channel (${d.reason})`);
  const decision = decisionLine(result.decision);
  return [
    result.hits.length ? t.toString() : 'no matching memories',
    ...notes,
    ...(decision ? [decision] : []),
    `(${result.timings_ms.total ?? 0} ms)`,
  ].join('\n');
}

/** The label of a hit a decision source added: docs and sessions are not memories. */
function sourceLabel(h: RecallResponse['hits'][number]): string {
  switch (h.source?.type) {
    case undefined:
      return '';
    case 'graph':
      return '[graph source] ';
    case 'docs':
      return `[docs: ${h.source.pointer}] `;
    case 'session':
      return `[session ${h.source.session_id} turn ${h.source.turn_index}] `;
  }
}

/** What the decision stage did, in one line; nothing while it is off. */
export function decisionLine(d: RecallResponse['decision']): string | undefined {
  const rerank = d.rerank ? `; rerank skipped (${d.rerank.reason})` : '';
  const by = d.adapter ? ` by ${d.adapter}` : '';
  switch (d.state) {
    case 'off':
      return undefined;
    case 'applied':
      return `decision: applied${by}${d.low_confidence ? ' — low confidence: none of these may answer the query' : ''}${rerank}`;
    case 'fell_back':
      return `decision: fell back (${d.reason ?? 'unknown'}): ordinary hits${rerank}`;
    case 'skipped':
      return `decision: skipped (${d.reason ?? 'unknown'})${rerank}`;
  }
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
  // One line per field (a newline in a title is shown escaped); the body keeps its layout.
  const fields = rows.map(([k, v]) => `${k.padEnd(11)} ${printableLine(v)}`);
  return [...fields, '', printable(m.body)].join('\n');
}

/** The lines of `history`: versions, status changes, relations. */
export function historyLines(h: History): string[] {
  return [
    ...h.versions.map(
      (v) =>
        `${printableLine(`v${v.version}  ${v.created_at}  ${v.actor ?? '-'}  ${v.reason ?? ''}`)}\n    ${printable(v.body).replace(/\n/gu, '\n    ')}`,
    ),
    ...h.status_events.map((e) =>
      printableLine(`status  ${e.at}  ${e.from_status ?? '-'} -> ${e.to_status}  (${e.reason})`),
    ),
    ...h.relations.map((r) =>
      printableLine(
        `relation  ${r.created_at}  ${r.from_id} -[${r.type}]-> ${r.to_id}${r.invalidated_at ? `  invalidated ${r.invalidated_at} (${r.invalidated_reason})` : ''}`,
      ),
    ),
  ];
}

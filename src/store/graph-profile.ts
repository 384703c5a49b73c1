/**
 * Provenance, area and tag profiles of a sample of memories, for the hub report (hubs.ts): the
 * same counting for every backend, which only reads the sampled rows.
 */
import type { MentionProfile, NamedCount } from './graph-store.js';

/** One sampled memory: its source (parsed), area and tags. */
export interface ProfiledMemory {
  source: unknown;
  area: string;
  tags: readonly unknown[];
}

/** Provenance key of a stored source: session, import, url or agent, else ''. */
export function provenanceKey(source: unknown): string {
  if (!source || typeof source !== 'object') return '';
  const s = source as Record<string, unknown>;
  for (const field of ['session', 'import', 'url', 'agent'])
    if (typeof s[field] === 'string' && s[field] !== '') return `${field}:${s[field] as string}`;
  return '';
}

function ranked(counts: Map<string, number>, limit: number): NamedCount[] {
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit);
}

/** Counts provenance, areas and tags (each tag once per memory) over the sample. */
export function mentionProfile(rows: readonly ProfiledMemory[]): MentionProfile {
  const sources = new Map<string, number>();
  const areas = new Map<string, number>();
  const tags = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const row of rows) {
    bump(sources, provenanceKey(row.source));
    bump(areas, row.area);
    for (const t of new Set(row.tags)) if (typeof t === 'string') bump(tags, t);
  }
  return {
    sampled: rows.length,
    sources: ranked(sources, 20),
    areas: ranked(areas, 50),
    tags: ranked(tags, 50),
  };
}

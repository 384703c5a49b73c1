/** Shared helpers of the importer tests: fixtures, a store to import into, and its export read back. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';

import type { Engram } from '../src/app.js';
import { exportLines } from '../src/transfer/transfer.js';
import { tempDir, testEngram } from './helpers.js';

/** The importer fixtures (written for these tests). */
export const FIXTURES = join(import.meta.dirname, 'fixtures', 'import');

/** A fixture's path. */
export const fixture = (name: string) => join(FIXTURES, name);

/** An engram on a fresh store, without an embedder (the importers do not need vectors). */
export function importEngram(config: Record<string, unknown> = {}): Engram {
  return testEngram({ config: { embedder: { provider: 'none' }, ...config } });
}

/** A copy of the Markdown fixture folder in a temporary directory (tests that edit notes). */
export function markdownCopy(): string {
  const dir = join(tempDir(), 'notes');
  cpSync(fixture('markdown'), dir, { recursive: true });
  return dir;
}

/** An exported item, as the export line carries it. */
export interface ExportedItem {
  id: string;
  space: string;
  area: string;
  kind: string;
  title: string | null;
  body: string;
  tags: string[];
  status: string;
  version: number;
  created_at: string;
  source: { import?: string; url?: string; trust?: string; agent?: string; session?: string };
}

/** An exported relation. */
export interface ExportedRelation {
  from_id: string;
  to_id: string;
  type: string;
  reason: string | null;
  invalidated_at: string | null;
}

/** Everything an export of all spaces holds, by line type. */
export async function exported(
  engram: Engram,
): Promise<{ items: ExportedItem[]; relations: ExportedRelation[] }> {
  const items: ExportedItem[] = [];
  const relations: ExportedRelation[] = [];
  for await (const line of exportLines(engram, null)) {
    const value = JSON.parse(line) as {
      type: string;
      item?: ExportedItem;
      relation?: ExportedRelation;
    };
    if (value.type === 'item') items.push(value.item!);
    if (value.type === 'relation') relations.push(value.relation!);
  }
  return { items, relations };
}

/** The item whose original id (`source.url`) is `url`. */
export function byUrl(items: readonly ExportedItem[], url: string): ExportedItem {
  const found = items.find((i) => i.source?.url === url);
  if (!found) throw new Error(`no item with source.url ${url}`);
  return found;
}

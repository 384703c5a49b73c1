/**
 * Auto-recall on writes (§6): the memories a new memory is related to, as short handles and a
 * one-line hint, so an agent learns what it already knows about the same things. The same search
 * as process_message (analysis, keyword + semantic candidates, relevance threshold, max_results),
 * without the cooldown, access accounting or reinforcement: it is not a recall.
 */
import type { AutoRecallSettings } from '../config/autorecall-settings.js';
import type { ItemRecord } from '../domain/records.js';
import type { RelatedFields, RelatedMemory } from '../domain/types.js';
import { analyzeMessage } from './analyze.js';
import type { RelatedSearch } from './search.js';

/** The start of a memory analysed for its related memories: it says what the memory is about. */
export const RELATED_TEXT_CHARS = 1_000;

/** A short handle of a memory: its title, or the first eight words of its body. */
export function label(item: Pick<ItemRecord, 'title' | 'body'>): string {
  if (item.title) return item.title;
  const words = item.body.trim().split(/\s+/u);
  return words.length > 8 ? `${words.slice(0, 8).join(' ')}…` : words.join(' ');
}

/** One line naming the related memories, or undefined when there are none. */
export function relatedHint(related: readonly RelatedMemory[]): string | undefined {
  const n = related.length;
  if (n === 0) return undefined;
  return `${n} related ${n === 1 ? 'memory' : 'memories'}: ${related.map((r) => r.label).join('; ')}`;
}

/**
 * The related memories of a new memory's text (its first RELATED_TEXT_CHARS characters), never
 * the memory itself, with the hint.
 */
export async function relatedToText(
  search: RelatedSearch,
  space: string,
  text: string,
  excludeId: string,
  settings: AutoRecallSettings,
): Promise<RelatedFields> {
  const head = text.slice(0, RELATED_TEXT_CHARS);
  const analysis = analyzeMessage(head, []);
  const { found } = await search.find(space, head, analysis, settings, { exclude: excludeId });
  const related = found.map(({ item, relevance }) => ({
    id: item.id,
    label: label(item),
    relevance: Math.round(relevance * 10_000) / 10_000,
  }));
  const hint = relatedHint(related);
  return hint ? { related_memories: related, hint } : { related_memories: related };
}

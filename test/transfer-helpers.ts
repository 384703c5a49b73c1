/**
 * Helpers of the export/import tests: the lines of an export without its timestamped header,
 * lines of one type, and a store given lifecycle state through the public API (uses of every
 * source, settings in two spaces, auto-recall conversations, a maintenance run).
 */
import { expect } from 'vitest';

import type { Engram } from '../src/app.js';
import { exportLines } from '../src/transfer/transfer.js';

/** The export lines of a space (or all), without the header (it carries the export time). */
export async function exportedLines(
  engram: Engram,
  space: string | null = null,
): Promise<string[]> {
  const out: string[] = [];
  for await (const line of exportLines(engram, space)) out.push(line);
  return out.slice(1);
}

/** The parsed lines of one type. */
export function linesOf(lines: readonly string[], type: string): Record<string, unknown>[] {
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.type === type);
}

/** How many lines of each type. */
export function lineCounts(lines: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of lines) {
    const type = String((JSON.parse(l) as { type?: unknown }).type);
    counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

/**
 * Gives a store lifecycle state: explicit, cross-domain, review and auto-recall uses of the named
 * memories of the default space, auto-recall settings in `default` and `other`, two conversation
 * states, and one real maintenance run.
 */
export async function populateLifecycle(
  engram: Engram,
  ids: { used: string; reviewed: string },
  other = 'alice',
): Promise<void> {
  const explicit = await engram.observeMemoryUsage({
    memory_ids: [ids.used, ids.reviewed],
    context_tags: ['travel', 'packing'],
    conversation_id: 'chat-7',
    actor: 'planner',
  });
  expect(explicit.applied).toBe(2);
  await engram.observeMemoryUsage([ids.used]);
  await engram.reviewAction(ids.reviewed, 'reinforce');
  await engram.configureAutoRecall({ enabled: true, mode: 'silent', relevance_threshold: 0.05 });
  await engram.configureAutoRecall({ space: other, max_results: 5, min_interval_s: 60 });
  await engram.processMessage({
    message: 'How often should I descale the kettle, and with what?',
    conversation_id: 'chat-1',
  });
  await engram.processMessage({
    message: 'Tell me again about descaling the kettle with vinegar',
    conversation_id: 'chat-2',
    context_tags: ['kitchen'],
  });
  const report = await engram.maintain();
  expect(report.dry_run).toBe(false);
}

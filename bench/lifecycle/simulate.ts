/**
 * The success metrics of auto-recall (§6), measured: a simulated stretch of days (90 by default)
 * run twice over the same store contents and the same conversation stream, once with auto-recall
 * off and once on in silent mode (which reinforces what it finds through observe, and so makes the
 * cross-domain links of `lifecycle.cross_domain_links`). Every day starts with the nightly
 * maintenance; then a number of conversations, each in a project area (the context of its uses),
 * a few messages each, minutes apart, under the default cooldown and relevance threshold.
 * Reported per arm: important memories archived by decay, important memories at risk, their mean
 * strength, reinforcement events, cross-domain detections and the links created.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Engram } from '../../src/app.js';
import { CROSS_DOMAIN_ACTOR } from '../../src/lifecycle/links.js';
import { memories, messages, rng } from './corpus.js';
import type { OpenEngram } from './related.js';

const DAY = 86_400_000;
const MINUTE = 60_000;

/** The shape of one simulation. */
export interface SimulationOptions {
  items: number;
  days: number;
  conversationsPerDay: number;
  messagesPerConversation: number;
}

/** What one arm of the simulation ends with. */
export interface SimulationArm {
  auto_recall: boolean;
  important_items: number;
  important_archived: number;
  important_at_risk: number;
  mean_strength_important: number | null;
  /** Live items above the archive threshold that would be below it without their uses. */
  kept_by_reinforcement: number;
  reinforcement_events: number;
  cross_domain_detections: number;
  cross_domain_rate: number | null;
  links_created: number;
  messages: number;
  triggered: number;
  seconds: number;
}

/** The thresholds the simulation's measures use (from the configuration). */
export interface Thresholds {
  important_threshold: number;
  archive_threshold: number;
  at_risk_below: number;
}

/** The result of the simulation: both arms and the reduction auto-recall brought. */
export interface SimulationBench extends SimulationOptions, Thresholds {
  off: SimulationArm;
  on: SimulationArm;
  archived_reduction: number;
  archived_reduction_pct: number | null;
}

interface Conversation {
  day: number;
  id: string;
  area: string;
  messages: string[];
}

function round(x: number, digits = 2): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

/** The conversation stream: the same for both arms (seeded). */
function conversations(o: SimulationOptions, areas: readonly string[]): Conversation[] {
  const random = rng(21);
  const total = o.days * o.conversationsPerDay;
  const all = messages(total * o.messagesPerConversation, 17);
  return Array.from({ length: total }, (_, i) => ({
    day: 1 + Math.floor(i / o.conversationsPerDay),
    id: `conv-${i}`,
    area: areas[Math.floor(random() * areas.length)]!,
    messages: all.slice(i * o.messagesPerConversation, (i + 1) * o.messagesPerConversation),
  }));
}

async function talk(engram: Engram, c: Conversation, clock: { now: number }): Promise<number> {
  let triggered = 0;
  for (const [i, message] of c.messages.entries()) {
    const r = await engram.processMessage({
      message,
      history: c.messages.slice(Math.max(0, i - 2), i),
      conversation_id: c.id,
      context_area: c.area,
    });
    if (r.triggered) triggered++;
    clock.now += 2 * MINUTE;
  }
  return triggered;
}

async function linksCreated(engram: Engram): Promise<number> {
  let n = 0;
  for await (const r of engram.storeForTransfer.exportRelations('default'))
    if (r.actor === CROSS_DOMAIN_ACTOR && r.invalidated_at === null) n++;
  return n;
}

async function measure(engram: Engram, atRiskBelow: number) {
  const lifecycle = engram.storeForTransfer.lifecycle!;
  const important = (await lifecycle.decayFacts('default')).filter(
    (f) => f.importance >= engram.config.lifecycle.important_threshold && !f.pinned,
  );
  const stats = await engram.autoRecallStats();
  return {
    important_items: important.length,
    important_archived: important.filter((f) => f.status === 'archived').length,
    important_at_risk: important.filter((f) => f.status !== 'archived' && f.strength < atRiskBelow)
      .length,
    mean_strength_important: stats.mean_strength_important,
    kept_by_reinforcement: stats.items_kept_by_reinforcement,
    reinforcement_events: stats.reinforcement_events,
    cross_domain_detections: stats.cross_domain_detections,
    cross_domain_rate: stats.reinforcement_events
      ? round(stats.cross_domain_detections / stats.reinforcement_events, 4)
      : null,
    links_created: await linksCreated(engram),
  };
}

/** Loads the simulation's memories, created over the 30 days before `start`; their areas. */
async function load(engram: Engram, n: number, start: number): Promise<string[]> {
  const all = memories(n, start, 30, 5);
  for (let i = 0; i < all.length; i += 1000)
    await engram.rememberMany(all.slice(i, i + 1000), { strict: true, priority: 'background' });
  return [...new Set(all.map((m) => m.area))];
}

async function arm(
  open: OpenEngram,
  o: SimulationOptions,
  autoRecall: boolean,
): Promise<SimulationArm & { thresholds: Thresholds }> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-simulate-'));
  const start = Date.parse('2026-06-01T00:00:00Z');
  const clock = { now: start };
  const engram = open(dir, clock, { lifecycle: { backup: { enabled: false } } });
  const t = performance.now();
  try {
    await engram.prepareModels();
    const areas = await load(engram, o.items, start);
    await engram.backfill();
    await engram.configureAutoRecall({ enabled: autoRecall, mode: 'silent' });
    const stream = conversations(o, areas);
    let triggered = 0;
    for (let day = 1; day <= o.days; day++) {
      clock.now = start + day * DAY + 3.5 * 3_600_000;
      await engram.maintain();
      for (const [i, c] of stream.filter((x) => x.day === day).entries()) {
        clock.now = start + day * DAY + (9 + i) * 3_600_000;
        triggered += await talk(engram, c, clock);
      }
    }
    clock.now = start + (o.days + 1) * DAY + 3.5 * 3_600_000;
    await engram.maintain();
    const l = engram.config.lifecycle;
    return {
      auto_recall: autoRecall,
      ...(await measure(engram, l.review.window_high)),
      thresholds: {
        important_threshold: l.important_threshold,
        archive_threshold: l.archive_threshold,
        at_risk_below: l.review.window_high,
      },
      messages: stream.length * o.messagesPerConversation,
      triggered,
      seconds: round((performance.now() - t) / 1000, 1),
    };
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs both arms of the simulation. */
export async function benchSimulation(
  open: OpenEngram,
  o: SimulationOptions,
): Promise<SimulationBench> {
  const { thresholds, ...off } = await arm(open, o, false);
  const { thresholds: _, ...on } = await arm(open, o, true);
  const reduction = off.important_archived - on.important_archived;
  return {
    ...o,
    ...thresholds,
    off,
    on,
    archived_reduction: reduction,
    archived_reduction_pct: off.important_archived
      ? round((100 * reduction) / off.important_archived, 1)
      : null,
  };
}

/** The report section of the simulation. */
export function simulationMarkdown(s: SimulationBench): string {
  const row = (name: string, f: (a: SimulationArm) => unknown) =>
    `| ${name} | ${String(f(s.off))} | ${String(f(s.on))} |`;
  return `## auto-recall over ${s.days} simulated days (success metrics, §6)

${s.items} synthetic memories created over the 30 days before the start; each day the nightly maintenance, then ${s.conversationsPerDay} conversations of ${s.messagesPerConversation} messages, 2 minutes apart, each in a project area (its context), the same stream in both arms. Auto-recall in silent mode with the default threshold, result cap and cooldown; static GloVe embedder, SQLite. Important: importance ≥ ${s.important_threshold}, not pinned; at risk: live with strength < ${s.at_risk_below}; archived: strength fell below ${s.archive_threshold} (reason decay).

| measure | auto-recall off | auto-recall on (silent) |
|---|---|---|
${row('important memories', (a) => a.important_items)}
${row('important memories archived by decay', (a) => a.important_archived)}
${row(`important memories at risk (live, strength < ${s.at_risk_below})`, (a) => a.important_at_risk)}
${row('mean strength of important memories (live)', (a) => a.mean_strength_important)}
${row('memories kept above the archive threshold by their uses (all kinds)', (a) => a.kept_by_reinforcement)}
${row('messages / triggered searches', (a) => `${a.messages} / ${a.triggered}`)}
${row('reinforcement events', (a) => a.reinforcement_events)}
${row('cross-domain detections (rate per reinforcement)', (a) => `${a.cross_domain_detections} (${a.cross_domain_rate ?? '–'})`)}
${row('cross-domain links created (live related relations)', (a) => a.links_created)}
${row('run time, s', (a) => a.seconds)}

Reduction of important memories archived by decay: ${s.archived_reduction}${s.archived_reduction_pct === null ? '' : ` (${s.archived_reduction_pct}%)`}.

The links only change what observe (explicit, review or auto-recall reinforcement) is called on. The LoCoMo benchmark never calls observe, so the links cannot change its numbers; it was not rerun.
`;
}

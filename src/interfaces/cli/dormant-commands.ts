/**
 * The commands of dormant recall (§9.4): `dormant review [--limit N] | inspect EVENT_ID |
 * feedback EVENT_ID useful|irrelevant|dismissed | calibrate`. Each calls one service method and
 * prints a table or, with --json, the service's JSON.
 */
import { InvalidArgumentError } from 'commander';

import { DORMANT_FEEDBACK, type DormantFeedback } from '../../store/dormant-store.js';
import type { CommandSpec } from './command.js';
import { withEngram } from './context.js';
import { printJson, println, show } from './output.js';
import { int, repeat } from './parse.js';

const views = () => import('./dormant-views.js');

/** Events `dormant` given no subcommand shows. */
const STATUS_EVENTS = 5;

function category(value: string): DormantFeedback {
  if (!(DORMANT_FEEDBACK as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${DORMANT_FEEDBACK.join(', ')}`);
  return value as DormantFeedback;
}

const review: CommandSpec<[], { limit: number }> = {
  name: 'review',
  description: 'newest shadow evaluations: metadata only (ids, scores, counts, times)',
  readsOnly: true,
  options: [{ flags: '--limit <n>', description: 'number of events', parse: int, default: 20 }],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const r = await engram.dormantReview({ space: g.space, limit: o.limit });
      await show(g, r, async (x) => (await views()).reviewTable(x));
    });
  },
};

const inspect: CommandSpec<[string]> = {
  name: 'inspect <event_id>',
  description: "show an event's memory as it is now (marks it shown and pauses it)",
  async run({ args: [eventId], globals: g }) {
    await withEngram(g, false, async (engram) => {
      const r = await engram.dormantInspect({ space: g.space, event_id: eventId });
      await show(g, r, async (x) => (await views()).inspectText(x));
    });
  },
};

const feedback: CommandSpec<[string, string]> = {
  name: 'feedback <event_id> <category>',
  description: 'useful | irrelevant | dismissed: one category per event; pauses the memory',
  async run({ args: [eventId, value], globals: g }) {
    await withEngram(g, false, async (engram) => {
      const r = await engram.dormantFeedback({
        space: g.space,
        event_id: eventId,
        category: category(value),
      });
      if (g.json) return printJson(r);
      println(
        `${r.changed ? 'recorded' : 'already recorded'}: ${r.event.feedback} for ${r.event.id}` +
          (r.cooldown_until ? `; paused until ${r.cooldown_until}` : ''),
      );
    });
  },
};

const calibrate: CommandSpec<[], { query?: string[]; sample: number }> = {
  name: 'calibrate',
  description: 'score distributions on this store, to set min_relevance and min_rerank_score',
  readsOnly: true,
  options: [
    {
      flags: '--query <text>',
      description: 'a query to calibrate with (repeatable); default: sampled memories',
      parse: repeat,
    },
    {
      flags: '--sample <n>',
      description: 'memories to sample as queries when no --query is given',
      parse: int,
      default: 20,
    },
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, true, async (engram) => {
      const r = await engram.dormantCalibrate({
        space: g.space,
        queries: o.query,
        sample: o.sample,
      });
      await show(g, r, async (x) => (await views()).calibrateText(x));
    });
  },
};

/** `engram dormant ...`. */
export const DORMANT_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'dormant',
    description:
      'dormant recall (shadow experiment): review its log, inspect, give feedback (alone: its mode and newest events)',
    readsOnly: true,
    commands: [review, inspect, feedback, calibrate],
    async run({ globals: g }) {
      await withEngram(g, false, async (engram) => {
        const r = await engram.dormantReview({ space: g.space, limit: STATUS_EVENTS });
        await show(g, r, async (x) => (await views()).reviewTable(x));
      });
    },
  },
];

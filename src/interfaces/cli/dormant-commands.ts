/**
 * CLI commands of dormant recall (§9.4): `dormant review [--limit N] | inspect EVENT_ID |
 * feedback EVENT_ID useful|irrelevant|dismissed | calibrate`. Thin: each parses its arguments,
 * calls one service method and prints a table or, with --json, the service's JSON.
 */
import Table from 'cli-table3';
import { type Command, InvalidArgumentError } from 'commander';

import type { CalibrationReport, Distribution } from '../../dormant/calibrate.js';
import type { DormantInspection, DormantReview } from '../../dormant/views.js';
import { DORMANT_FEEDBACK, type DormantFeedback } from '../../store/dormant-store.js';
import { withEngram } from './context.js';
import { memoryDetails, printJson, println } from './output.js';
import { globals, int } from './program.js';

const num = (x: number | null, digits = 3) => (x === null ? '-' : x.toFixed(digits));

function reviewTable(r: DormantReview): string {
  if (r.events.length === 0)
    return `no dormant-recall events in space ${r.space} (mode: ${r.mode}${r.mode === 'off' ? '; set dormant_recall.mode: shadow to evaluate searches' : ''})`;
  const t = new Table({
    head: [
      'event',
      'time',
      'candidate',
      'n',
      'cosine',
      'check',
      'bonus',
      'days',
      'overlap',
      'shown',
      'feedback',
      'algorithm',
    ],
    style: { head: [], border: [] },
    wordWrap: false,
  });
  for (const e of r.events)
    t.push([
      e.id,
      e.at.slice(0, 19),
      e.candidate_id ?? (e.outcome === 'failed' ? `(failed: ${e.error_type ?? '?'})` : '(none)'),
      e.candidate_count,
      num(e.raw_relevance),
      num(e.relevance_score),
      num(e.bonus),
      e.dormant_days === null ? '-' : Math.floor(e.dormant_days),
      e.overlap_terms === null ? '-' : `${e.overlap_terms}/${e.query_terms ?? '?'}`,
      e.shown_at?.slice(0, 19) ?? '-',
      e.feedback ?? '-',
      e.algorithm,
    ]);
  return `${t.toString()}\n(mode: ${r.mode})`;
}

function inspectText(r: DormantInspection): string {
  const head = `event ${r.event.id} at ${r.event.at}: ${r.event.candidate_id ?? 'no candidate'}`;
  const lines = [head, r.evidence.summary];
  if (r.changed_since_selection)
    lines.push(
      'note: the memory was revised after it was scored; the scores describe the earlier version.',
    );
  if (!r.memory) lines.push(`no memory shown (${r.reason ?? 'not eligible'})`);
  else lines.push('', memoryDetails(r.memory));
  return lines.join('\n');
}

function distributionLine(name: string, d: Distribution): string {
  if (d.count === 0) return `${name}: no values`;
  return `${name}: n=${d.count} min ${num(d.min)} p10 ${num(d.p10)} p50 ${num(d.p50)} p90 ${num(d.p90)} p95 ${num(d.p95)} p99 ${num(d.p99)} max ${num(d.max)}`;
}

function calibrateText(r: CalibrationReport): string {
  const c = r.current;
  return [
    `space ${r.space}; model ${r.model ?? '-'}; scorer ${r.scorer ?? '-'}; ${r.queries} ${r.query_source} queries over ${r.eligible_scanned} eligible memories`,
    distributionLine('raw cosine (top candidates)', r.raw_cosine),
    distributionLine('best cosine per query', r.best_cosine),
    distributionLine('relevance check', r.relevance),
    `min_relevance ${c.min_relevance}: ${(100 * c.share_above_min_relevance).toFixed(1)}% of top candidates reach it`,
    `min_rerank_score ${c.min_rerank_score}: ${(100 * c.share_above_min_rerank_score).toFixed(1)}% of checked candidates reach it`,
    `queries with a candidate passing both floors: ${c.queries_with_survivor} of ${r.queries}`,
    ...r.notes.map((n) => `note: ${n}`),
  ].join('\n');
}

function category(value: string): DormantFeedback {
  if (!(DORMANT_FEEDBACK as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${DORMANT_FEEDBACK.join(', ')}`);
  return value as DormantFeedback;
}

/** Registers `engram dormant ...`. */
export function registerDormantCommands(program: Command): void {
  const dormant = program
    .command('dormant')
    .description('dormant recall (shadow experiment): review its log, inspect, give feedback');

  dormant
    .command('review')
    .description('newest shadow evaluations: metadata only (ids, scores, counts, times)')
    .option('--limit <n>', 'number of events', int, 20)
    .action(async (o: { limit: number }, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const r = await engram.dormantReview({ space: g.space, limit: o.limit });
        if (g.json) printJson(r);
        else println(reviewTable(r));
      });
    });

  dormant
    .command('inspect <event_id>')
    .description("show an event's memory as it is now (marks it shown and pauses it)")
    .action(async (eventId: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const r = await engram.dormantInspect({ space: g.space, event_id: eventId });
        if (g.json) printJson(r);
        else println(inspectText(r));
      });
    });

  dormant
    .command('feedback <event_id> <category>')
    .description('useful | irrelevant | dismissed: one category per event; pauses the memory')
    .action(async (eventId: string, value: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
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
    });

  dormant
    .command('calibrate')
    .description('score distributions on this store, to set min_relevance and min_rerank_score')
    .option(
      '--query <text>',
      'a query to calibrate with (repeatable); default: sampled memories',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--sample <n>', 'memories to sample as queries when no --query is given', int, 20)
    .action(async (o: { query?: string[]; sample: number }, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, true, async (engram) => {
        const r = await engram.dormantCalibrate({
          space: g.space,
          queries: o.query,
          sample: o.sample,
        });
        if (g.json) printJson(r);
        else println(calibrateText(r));
      });
    });
}

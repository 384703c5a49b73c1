/**
 * CLI commands of the lifecycle and auto-recall: `maintain [--dry-run]`, `review [ACTION ID]`,
 * `observe IDS...` and `auto-recall analyze|process|configure|stats`. Thin: each parses flags,
 * calls one service method, and prints a table or the service's JSON.
 */
import Table from 'cli-table3';
import type { Command } from 'commander';

import type { AutoRecallResult } from '../../autorecall/engine.js';
import { EngramError } from '../../domain/errors.js';
import type { ReviewList } from '../../lifecycle/lifecycle.js';
import type { MaintenanceReport } from '../../lifecycle/maintain.js';
import { EXIT_CODES } from '../error-codes.js';
import { progress, withEngram } from './context.js';
import { printJson, println } from './output.js';
import { collect, globals, int, num } from './program.js';
import { readStdin } from './stdin.js';

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function table(head: string[]): Table.Table {
  return new Table({ head, style: { head: [], border: [] }, wordWrap: false });
}

function histogramLines(report: MaintenanceReport): string[] {
  const max = Math.max(1, ...report.histogram.map((b) => b.count));
  return report.histogram.map(
    (b) =>
      `  ${b.from.toFixed(1)}-${b.to.toFixed(1)}  ${'█'.repeat(Math.ceil((30 * b.count) / max) * Number(b.count > 0)).padEnd(30)} ${b.count}`,
  );
}

function maintenanceText(r: MaintenanceReport): string {
  const lines = [
    `${r.dry_run ? 'maintenance preview (dry run: nothing written)' : 'maintenance done'} at ${r.at}${r.space ? ` in space ${r.space}` : ''}`,
    `${r.items_scanned} items scanned, ${r.strength_updates} strength updates, ${r.promoted} promoted, ${r.archived} archived`,
  ];
  if (r.backup)
    lines.push(
      `backup: ${r.backup.path}${r.backup.pruned.length ? ` (${r.backup.pruned.length} older removed)` : ''}`,
    );
  lines.push('strength histogram:', ...histogramLines(r));
  if (r.transitions.length) {
    const t = table(['id', 'kind', 'area', 'change', 'reason', 'strength', 'importance']);
    for (const x of r.transitions.slice(0, 50))
      t.push([
        x.id,
        x.kind,
        shorten(x.area, 20),
        `${x.from} -> ${x.to}`,
        x.reason,
        x.strength.toFixed(3),
        String(x.importance),
      ]);
    lines.push(
      `transitions (${Math.min(50, r.transitions.length)} of ${r.transitions_total}):`,
      t.toString(),
    );
  }
  const e = r.edge_cases;
  const edge = (label: string, list: { total: number; ids: string[] }) =>
    list.total
      ? [
          `  ${label}: ${list.total}  ${list.ids.slice(0, 5).join(' ')}${list.total > 5 ? ' …' : ''}`,
        ]
      : [];
  const edges = [
    ...edge('important items archived', e.important_archived),
    ...edge('near the archive threshold', e.near_archive),
    ...edge('near promotion', e.near_promotion),
    ...edge('held only by pinning', e.pinned_held),
  ];
  if (edges.length) lines.push('edge cases:', ...edges);
  lines.push(`(${r.timings_ms.total} ms)`);
  return lines.join('\n');
}

function registerMaintain(program: Command): void {
  program
    .command('maintain')
    .description(
      'run the decay job: strengths, promotions, archiving; backs up first (--dry-run previews)',
    )
    .option('--dry-run', 'print transitions, a strength histogram and edge cases without writing')
    .option('--limit <n>', 'transitions listed in --json output', int, 1000)
    .action(async (o: { dryRun?: boolean; limit: number }, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const bar = g.json || o.dryRun ? undefined : progress('engram maintain');
        const report = await engram.maintain(
          { space: g.space ?? null, dry_run: Boolean(o.dryRun), list_limit: o.limit },
          bar ? (done, total) => bar.update(done, total) : undefined,
        );
        bar?.stop();
        if (g.json) printJson(report);
        else println(maintenanceText(report));
      });
    });
}

function reviewText(list: ReviewList): string {
  if (!list.items.length)
    return `nothing to review (window ${list.window.low}-${list.window.high} in space ${list.space})`;
  const t = table([
    'id',
    'kind',
    'strength',
    'importance',
    'uses',
    'archive in',
    'priority',
    'memory',
  ]);
  for (const i of list.items)
    t.push([
      i.id,
      i.kind,
      i.strength.toFixed(3),
      String(i.importance),
      String(i.use_count),
      i.days_to_archive === null ? '-' : `${Math.round(i.days_to_archive)} d`,
      i.priority.toFixed(2),
      shorten(i.title ? `${i.title}: ${i.body}` : i.body, 50),
    ]);
  return [
    t.toString(),
    `${list.items.length} of ${list.total} in the review window; act with: engram review reinforce|revise|let-go ID`,
  ].join('\n');
}

const ACTIONS = { reinforce: 'reinforce', revise: 'revise', 'let-go': 'let_go' } as const;

function registerReview(program: Command): void {
  program
    .command('review [action] [id] [body]')
    .description(
      'list memories fading toward the archive threshold by priority, or act on one: reinforce, revise (body from the argument or stdin with "-"), let-go',
    )
    .option('--limit <n>', 'how many to list', int)
    .option('--reason <text>', 'why (recorded in history)')
    .action(
      async (
        action: string | undefined,
        id: string | undefined,
        body: string | undefined,
        o: { limit?: number; reason?: string },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        await withEngram(g, action === 'revise', async (engram) => {
          if (action === undefined) {
            const list = await engram.review({ space: g.space, limit: o.limit });
            return g.json ? printJson(list) : println(reviewText(list));
          }
          const chosen = ACTIONS[action as keyof typeof ACTIONS];
          if (!chosen || !id)
            throw new EngramError(
              'INVALID_INPUT',
              `action: must be one of reinforce, revise, let-go, followed by a memory id`,
              {
                field: 'action',
                rule: 'reinforce | revise | let-go',
              },
            );
          const text = body === '-' ? await readStdin() : body;
          const memory = await engram.reviewAction(id, chosen, {
            space: g.space,
            reason: o.reason,
            body: text,
          });
          if (g.json) printJson(memory);
          else
            println(
              `${action}: ${id} (status ${memory.status}, strength ${memory.strength.toFixed(3)})`,
            );
        });
      },
    );
}

function registerObserve(program: Command): void {
  program
    .command('observe <ids...>')
    .description(
      'record that memories were used (reinforcement; not access): raises their strength',
    )
    .option(
      '--context-tag <tag>',
      'tag of the context they were used in (repeatable, or comma-separated)',
      collect,
    )
    .option('--context-area <area>', 'area of the context they were used in')
    .option('--conversation <id>', 'conversation the use happened in')
    .action(
      async (
        ids: string[],
        o: { contextTag?: string[]; contextArea?: string; conversation?: string },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        await withEngram(g, false, async (engram) => {
          const result = await engram.observeMemoryUsage({
            space: g.space,
            memory_ids: ids,
            context_tags: o.contextTag ?? [],
            context_area: o.contextArea,
            conversation_id: o.conversation,
          });
          if (g.json) printJson(result);
          else
            for (const r of result.results)
              println(
                r.ok
                  ? `${r.id}: used (${r.cross_domain ? 'cross-domain, ' : ''}strength ${r.strength_before.toFixed(3)} -> ${r.strength.toFixed(3)}, ${r.use_count} uses)`
                  : `${r.id}: ${r.error.message}`,
              );
          return result.failed > 0 ? EXIT_CODES.PARTIAL : 0;
        });
      },
    );
}

function recallText(r: AutoRecallResult): string {
  const lines = [
    `${r.triggered ? 'recall ran' : 'no recall'} (${r.reason}: ${r.analysis.trigger.detail}${r.cooldown_remaining_s ? `, ${r.cooldown_remaining_s}s left` : ''}); mode ${r.mode}${r.enabled ? '' : ' (auto-recall is disabled: engram auto-recall configure --enable)'}`,
  ];
  for (const i of r.items)
    lines.push(`  ${i.relevance.toFixed(2)}  ${i.id}  ${shorten(i.body, 70)}`);
  if (r.summary) lines.push(r.summary, ...r.handles.map((h) => `  ${h.id}  ${h.label}`));
  if (r.mode === 'silent' && r.triggered) lines.push(`reinforced ${r.reinforced} related memories`);
  for (const d of r.degraded) lines.push(`degraded: ${d.channel} (${d.reason})`);
  return lines.join('\n');
}

async function messageArg(message: string): Promise<string> {
  return message === '-' ? readStdin() : message;
}

function registerAutoRecall(program: Command): void {
  const group = program
    .command('auto-recall')
    .description(
      'conversation-time recall: analyse messages, surface or reinforce related memories',
    );

  group
    .command('analyze <message>')
    .description('topics, entities, key phrases and whether to recall ("-" reads stdin)')
    .option(
      '--history <text>',
      'an earlier message of the conversation (repeatable, oldest first)',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--conversation <id>', 'use the recent topics recorded for this conversation')
    .action(
      async (message: string, o: { history?: string[]; conversation?: string }, cmd: Command) => {
        const g = globals(cmd);
        await withEngram(g, false, async (engram) => {
          const a = await engram.analyzeForRecall({
            space: g.space,
            message: await messageArg(message),
            history: o.history,
            conversation_id: o.conversation,
          });
          if (g.json) return printJson(a);
          println(
            `recall: ${a.trigger.should_recall ? 'yes' : 'no'} (${a.trigger.reason}: ${a.trigger.detail})`,
          );
          println(`topics: ${a.topics.join(', ') || '-'}`);
          println(`entities: ${a.entities.map((e) => `${e.text} [${e.type}]`).join(', ') || '-'}`);
          println(`key phrases: ${a.key_phrases.join(', ') || '-'}`);
        });
      },
    );

  group
    .command('process <message>')
    .description(
      'run auto-recall for one message: analyse, search, surface by mode, reinforce ("-" reads stdin)',
    )
    .option(
      '--history <text>',
      'an earlier message of the conversation (repeatable, oldest first)',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option(
      '--conversation <id>',
      'conversation id (recent topics and the cooldown are kept per conversation)',
    )
    .option('--mode <mode>', 'silent, subtle or interactive, for this call only')
    .option('--context-tag <tag>', 'tags of the conversation context (repeatable)', collect)
    .action(
      async (
        message: string,
        o: { history?: string[]; conversation?: string; mode?: string; contextTag?: string[] },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        await withEngram(g, true, async (engram) => {
          const r = await engram.processMessage({
            space: g.space,
            message: await messageArg(message),
            history: o.history,
            conversation_id: o.conversation,
            mode: o.mode as never,
            context_tags: o.contextTag,
          });
          if (g.json) printJson(r);
          else println(recallText(r));
        });
      },
    );

  group
    .command('configure')
    .description('change auto-recall settings (persisted in the store); prints the settings')
    .option('--enable', 'turn auto-recall on')
    .option('--disable', 'turn auto-recall off')
    .option('--mode <mode>', 'silent, subtle or interactive')
    .option('--threshold <0..1>', 'relevance threshold', num)
    .option('--max-results <n>', 'at most this many related memories', int)
    .option('--min-interval <seconds>', 'per-conversation cooldown between recalls', num)
    .action(
      async (
        o: {
          enable?: boolean;
          disable?: boolean;
          mode?: string;
          threshold?: number;
          maxResults?: number;
          minInterval?: number;
        },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        await withEngram(g, false, async (engram) => {
          if (o.enable && o.disable)
            throw new EngramError(
              'INVALID_INPUT',
              'enabled: give --enable or --disable, not both',
              { field: 'enabled', rule: 'one of --enable, --disable' },
            );
          const settings = await engram.configureAutoRecall({
            space: g.space,
            enabled: o.enable ? true : o.disable ? false : undefined,
            mode: o.mode as never,
            relevance_threshold: o.threshold,
            max_results: o.maxResults,
            min_interval_s: o.minInterval,
          });
          if (g.json) printJson(settings);
          else
            for (const [k, v] of Object.entries(settings)) println(`${k.padEnd(20)} ${String(v)}`);
        });
      },
    );

  group
    .command('stats')
    .description(
      'auto-recall and lifecycle metrics: items kept by reinforcement, reinforcements, cross-domain uses',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withEngram(g, false, async (engram) => {
        const s = await engram.autoRecallStats({ space: g.space });
        if (g.json) return printJson(s);
        const rows: [string, string][] = [
          ['space', s.space],
          [
            'auto-recall',
            `${s.settings.enabled ? 'on' : 'off'}, ${s.settings.mode}, threshold ${s.settings.relevance_threshold}, max ${s.settings.max_results}, cooldown ${s.settings.min_interval_s}s`,
          ],
          ['kept above archive by reinforcement', String(s.items_kept_by_reinforcement)],
          [
            'reinforcement events',
            `${s.reinforcement_events} ${JSON.stringify(s.reinforcement_by_source)}`,
          ],
          ['cross-domain detections', String(s.cross_domain_detections)],
          ['important items', String(s.important_items)],
          [
            'mean strength of important items',
            s.mean_strength_important === null ? '-' : s.mean_strength_important.toFixed(3),
          ],
        ];
        for (const [k, v] of rows) println(`${k.padEnd(36)} ${v}`);
      });
    });
}

/** Registers maintain, review, observe and auto-recall. */
export function registerLifecycleCommands(program: Command): void {
  registerMaintain(program);
  registerReview(program);
  registerObserve(program);
  registerAutoRecall(program);
}

/**
 * Writes a LoCoMo run as bench/results/locomo-<date>.md (tables, targets, data notes, the record
 * of levers tried) and .json (everything, machine facts included).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Config } from '../../src/config/schema.js';
import type { EvidenceNote } from '../lib/locomo-data.js';
import { type MachineFacts, machineMarkdown } from '../lib/machine.js';
import type { Protocol } from './engram-store.js';
import { categoryTable, SPLITS, splitTable, type Summary, type VariantResult } from './report.js';

/** Everything one run produced. */
export interface LocomoReport {
  machine: MachineFacts;
  /** How the turns were stored (engram-store.ts). */
  protocol: Protocol;
  config: Config['recall'];
  withGraph: boolean;
  conversations: number[];
  questions: number;
  noEvidence: number;
  notes: EvidenceNote[];
  ingest: { conversation: number; turns: number; items: number; ms: number }[];
  results: VariantResult[];
  /** Latency of the default configuration asked with the default k. */
  defaultLatency: Summary['latency_ms'] | null;
  seconds: number;
  /** The hand-kept record of levers tried (bench/locomo/levers.md). */
  levers: string;
}

/** Published and measured references, and the targets (all 1,986 questions). */
const REFERENCES = [
  { label: 'DRAGON (paper, Table 3, dialogue level)', r5: 56.7, r10: 66.2, r50: 82.7 },
  { label: 'BM25 with stemming (issue 3 measurement)', r5: 55.9, r10: 63.3, r50: 76.8 },
];
const TARGET = { r5: 65, r10: 75, r50: 90, p95: 25 };

function targetsTable(report: LocomoReport): string {
  const all = report.results.find((r) => r.id === 'default')?.splits.all;
  const lines = [
    '| | R@5 | R@10 | R@50 | recall p95 |',
    '|---|---:|---:|---:|---:|',
    ...REFERENCES.map((r) => `| ${r.label} | ${r.r5} | ${r.r10} | ${r.r50} | |`),
    `| **target: at least** | **${TARGET.r5}** | **${TARGET.r10}** | **${TARGET.r50}** | **≤ ${TARGET.p95} ms** |`,
  ];
  if (all) {
    const p95 = report.defaultLatency?.p95 ?? all.latency_ms.p95;
    const mark = (ok: boolean) => (ok ? ' ✓' : ' ✗');
    lines.push(
      `| engram default, measured | ${all.recall['@5']!.toFixed(1)}${mark(all.recall['@5']! >= TARGET.r5)} | ` +
        `${all.recall['@10']!.toFixed(1)}${mark(all.recall['@10']! >= TARGET.r10)} | ` +
        `${all.recall['@50']!.toFixed(1)}${mark(all.recall['@50']! >= TARGET.r50)} | ` +
        `${p95.toFixed(2)} ms${mark(p95 <= TARGET.p95)} |`,
    );
  }
  return lines.join('\n');
}

function notesSection(report: LocomoReport): string {
  const count = (action: EvidenceNote['action']) => report.notes.filter((n) => n.action === action);
  const list = (notes: EvidenceNote[]) =>
    notes.map((n) => `\`${n.raw}\` (${n.sampleId})`).join(', ') || 'none';
  return [
    `- questions: ${report.questions}, of which ${report.noEvidence} have no evidence (they score 1)`,
    `- evidence entries split into several ids: ${count('split').length} (${list(count('split'))})`,
    `- ids repaired: ${count('repaired').length} (${list(count('repaired'))})`,
    `- ids dropped as malformed: ${count('dropped_malformed').length} (${list(count('dropped_malformed'))})`,
    `- ids dropped for naming no turn: ${count('dropped_unknown_turn').length} (${list(count('dropped_unknown_turn'))})`,
  ].join('\n');
}

function defaultLatencyLine(report: LocomoReport): string {
  const l = report.defaultLatency;
  if (!l) return '';
  return (
    `\nDefault configuration asked with the default k (${report.config.k}): wall p50 ` +
    `${l.p50.toFixed(2)} ms, p95 ${l.p95.toFixed(2)} ms; CPU time p50 ${l.cpu_p50.toFixed(2)} ms, ` +
    `p95 ${l.cpu_p95.toFixed(2)} ms. The machine is shared (see the load average above): wall ` +
    'time includes waiting for a core, CPU time is the work one recall does.'
  );
}

/** The splits this run has questions for. */
/** What each storage protocol changes from the paper's protocol above. */
const PROTOCOL_NOTES: Record<Protocol, string> = {
  turn: 'Storage protocol `turn`: as described above.',
  'speaker-date':
    'Storage protocol `speaker-date`: each turn with its speaker and the session date, but no ' +
    '`source.session` or `source.turn`.',
  body: 'Storage protocol `body`: each turn as its text alone (`{body}`), through `rememberMany`.',
  mcp:
    "Storage protocol `mcp`: each turn as its text alone through engram's MCP `remember` tool " +
    '(the official SDK client, in process), one MCP connection per LoCoMo session, as an agent ' +
    'that sends only a body would; engram records the writes of one connection as one session.',
};

function present(report: LocomoReport) {
  return SPLITS.filter((s) => report.results.some((r) => r.splits[s.id] !== undefined));
}

function markdown(report: LocomoReport): string {
  const main = report.results.filter((r) => r.kind === 'main');
  const ablations = report.results.filter((r) => r.kind === 'ablation');
  const items = report.ingest.reduce((n, i) => n + i.items, 0);
  const turns = report.ingest.reduce((n, i) => n + i.turns, 0);
  const ingestMs = report.ingest.reduce((n, i) => n + i.ms, 0);
  const parts = [
    `# LoCoMo retrieval benchmark — ${report.machine.date.slice(0, 10)}`,
    '',
    'Protocol of the LoCoMo paper (Table 3), as ../shared/bench/README.md states it: one engram store per ' +
      'conversation, one `episode` item per dialogue turn with the text `<speaker> said, "<text>"` ' +
      '(plus ` and shared <caption>`), provenance `source.session` + `source.turn` + `source.speaker`, ' +
      "and the session's date as `created_at`; the raw question is " +
      `the query; recall@k is the fraction of a question's evidence turns in the top k; questions without ` +
      'evidence score 1; overall is the mean over all questions, adversarial included. Everything goes ' +
      'through `createEngram` + `rememberMany` + `recall`, each configuration on its own copy of the ' +
      `store, asked with k = 50 (the default pool of ${report.config.pool} is larger, so the ranking does ` +
      'not depend on k). Latency is the wall time of one `recall` call, access accounting included. ' +
      'Session-level figures count a hit when it comes from an evidence session: session hit@10 is ' +
      'the share of questions with at least one of their top 10 hits from an evidence session (what ' +
      'other memory projects publish as session-level Recall@10), session R@10 the share of a ' +
      "question's evidence sessions that its top 10 hits come from.",
    '',
    PROTOCOL_NOTES[report.protocol],
    '',
    '## Machine',
    machineMarkdown(report.machine),
    `- conversations ${report.conversations.join(', ')}: ${turns} turns stored as ${items} items in ` +
      `${(ingestMs / 1000).toFixed(1)} s (a turn repeating an earlier one of the same speaker word ` +
      `for word is an exact duplicate, stored once; a hit on it counts for both turns); whole run ` +
      `${report.seconds} s`,
    '',
    '## Targets (engram default, all conversations of this run)',
    targetsTable(report),
    defaultLatencyLine(report),
    '',
    ...present(report).flatMap((s) => [`## ${s.label}`, splitTable(main, s.id), '']),
    '## By category (all ten conversations)',
    categoryTable(main, 10),
    '',
    categoryTable(main, 50),
    '',
    '## Ablations of the default',
    ...present(report).flatMap((s) => [
      `### ${s.label}`,
      splitTable([...main.filter((m) => m.id === 'default'), ...ablations], s.id),
      '',
    ]),
    '## Data notes',
    notesSection(report),
    '',
    '## Default recall configuration',
    '```json',
    JSON.stringify(report.config, null, 2),
    '```',
    '',
    report.levers,
  ];
  return parts.join('\n');
}

/** Writes the markdown and JSON files; returns their paths. */
export function writeReport(dir: string, report: LocomoReport): string[] {
  const suffix = report.protocol === 'turn' ? '' : `-${report.protocol}`;
  const stem = join(dir, `locomo-${report.machine.date.slice(0, 10)}${suffix}`);
  writeFileSync(`${stem}.md`, markdown(report));
  const { levers: _levers, ...json } = report;
  writeFileSync(`${stem}.json`, `${JSON.stringify(json, null, 2)}\n`);
  return [`${stem}.md`, `${stem}.json`];
}

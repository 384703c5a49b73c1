/**
 * Writes a multilingual run as bench/results/multilingual-<date>[-session][-<kind>].md (the
 * targets, one table per language) and .json (everything, machine facts included).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type MachineFacts, machineMarkdown } from '../lib/machine.js';
import type { WriteProtocol } from './engram-runs.js';
import type { LanguageResult, RankingResult } from './report.js';

/** Everything one run produced. */
export interface MultilingualReport {
  machine: MachineFacts;
  /** How the memories were written. */
  protocol: WriteProtocol;
  k: number;
  seconds: number;
  results: LanguageResult[];
}

/** Keyword-channel R@10 may trail the bigram baseline by this much on the target languages. */
const MARGIN = 2;
/** The languages the R@10 target applies to. */
const TARGET_LANGUAGES = ['zh', 'ja'];

const mark = (ok: boolean) => (ok ? '✓' : '✗');

function ranking(result: LanguageResult, id: string): RankingResult | undefined {
  return result.rankings.find((r) => r.id === id);
}

function targetsTable(report: MultilingualReport): string {
  const lines = [
    '| language | bigram BM25 R@10 | keyword channel R@10 | within 2 points | zero-hit questions (keyword / default) |',
    '| --- | ---: | ---: | :---: | ---: |',
  ];
  for (const r of report.results) {
    const base = ranking(r, 'bigram_bm25')!;
    const keyword = ranking(r, 'keyword');
    const full = ranking(r, 'default');
    if (!keyword || !full) continue;
    const target = TARGET_LANGUAGES.includes(r.lang)
      ? mark(keyword.recall[10] >= base.recall[10] - MARGIN)
      : '(no target)';
    const zero = `${keyword.zero_hit} / ${full.zero_hit} ${mark(keyword.zero_hit + full.zero_hit === 0)}`;
    lines.push(
      `| ${r.label} (${r.lang}) | ${base.recall[10].toFixed(1)} | ${keyword.recall[10].toFixed(1)} | ${target} | ${zero} |`,
    );
  }
  return lines.join('\n');
}

function languageTable(r: LanguageResult): string {
  const lines = [
    `### ${r.label} (${r.lang}): ${r.memories} memories, ${r.questions} questions`,
    '',
    '| system | R@1 | R@5 | R@10 | R@10 person | R@10 value | zero-hit | degraded (questions) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const x of r.rankings) {
    const degraded =
      Object.entries(x.degraded)
        .map(([reason, n]) => `${reason} (${n})`)
        .join('; ') || '—';
    lines.push(
      `| ${x.label} | ${x.recall[1].toFixed(1)} | ${x.recall[5].toFixed(1)} | ${x.recall[10].toFixed(1)} | ` +
        `${x.recall10_by_sort.person.toFixed(1)} | ${x.recall10_by_sort.value.toFixed(1)} | ${x.zero_hit} | ${degraded} |`,
    );
  }
  return lines.join('\n');
}

/** How the memories were written, as the report says it. */
function writesText(protocol: WriteProtocol): string {
  const kind = protocol.kind === undefined ? '' : ` as kind \`${protocol.kind}\``;
  return protocol.writes === 'session'
    ? `${kind} through one session handle (\`writeSession\`, as one MCP connection writes: each memory its next turn)`
    : `${kind} through \`rememberMany\``;
}

function markdown(report: MultilingualReport): string {
  return [
    `# Multilingual recall benchmark — ${report.machine.date.slice(0, 10)}`,
    '',
    'The set of bench/multilingual (written for engram from templates: people, places, foods, jobs, pets, ' +
      'hobbies, allergies, trips, family news and drinks, memories of two people at once, and notes about no one; ' +
      '`set/<lang>.json`). One engram store per language, every memory stored with its body alone ' +
      writesText(report.protocol) +
      ', every question asked through `recall` with k = ' +
      `${report.k}` +
      ". Recall@k is the fraction of a question's answers in the first k (a question about a person has one " +
      'answer; a question naming a value has every memory holding it); a zero-hit question got no hit at all, ' +
      'although every question shares a word with its answers. The keyword channel runs alone (vector, graph ' +
      'and time weights 0, no rerank); the default recall runs every channel. The baseline is BM25 over ' +
      'character bigrams computed by the benchmark (bench/multilingual/bigram-bm25.ts).',
    '',
    '## Machine',
    machineMarkdown(report.machine),
    `- whole run ${report.seconds} s`,
    '',
    '## Targets',
    `Keyword-channel R@10 within ${MARGIN} points of the bigram baseline on Chinese and Japanese; no zero-hit question in any language.`,
    '',
    targetsTable(report),
    '',
    '## By language',
    '',
    report.results.map(languageTable).join('\n\n'),
    '',
  ].join('\n');
}

/** Writes the report files into `dir`; returns their paths. */
export function writeMultilingualReport(dir: string, report: MultilingualReport): string[] {
  const { writes, kind } = report.protocol;
  const suffix = `${writes === 'session' ? '-session' : ''}${kind === undefined ? '' : `-${kind}`}`;
  const stem = join(dir, `multilingual-${report.machine.date.slice(0, 10)}${suffix}`);
  writeFileSync(`${stem}.md`, markdown(report));
  writeFileSync(`${stem}.json`, `${JSON.stringify(report, null, 2)}\n`);
  return [`${stem}.md`, `${stem}.json`];
}

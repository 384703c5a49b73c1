/**
 * What writing access accounting behind recall saves (`npm run bench:access`): the LoCoMo
 * questions through two copies of each conversation's store, one writing each recall's accesses
 * before it returns (`recall.access.flush_ms: 0`, the default) and one writing them behind recall
 * (`flush_ms: 1000`), asked alternately question by question so the machine's load falls on both alike.
 * Reports wall and CPU p50/p95 of the recall call and the ratio. Writes
 * bench/results/access-latency-<date>.md and .json.
 *
 *   npx tsx bench/locomo/access-latency.ts [--conversations 1-10] [--out DIR]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { loadLocomo } from '../lib/locomo-data.js';
import { machineFacts, writeResults } from '../lib/machine.js';
import { percentile } from '../lib/metrics.js';
import { buildConversationStore, openCopy, rankedDiaIds } from './engram-store.js';

const VARIANTS = [
  {
    name: 'write-through (flush_ms: 0, the default)',
    config: { recall: { access: { flush_ms: 0 } } },
  },
  { name: 'write-behind (flush_ms: 1000)', config: { recall: { access: { flush_ms: 1_000 } } } },
] as const;

interface Times {
  wall: number[];
  cpu: number[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      conversations: { type: 'string', default: '1-10' },
      out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
    },
  });
  const [from, to] = values.conversations.split('-').map(Number);
  const machine = machineFacts();
  const conversations = loadLocomo().conversations.filter(
    (c) => c.index >= from! && c.index <= (to ?? from!),
  );
  const times: Times[] = VARIANTS.map(() => ({ wall: [], cpu: [] }));
  for (const conversation of conversations) {
    const template = await buildConversationStore(conversation);
    const copies = VARIANTS.map((v) => openCopy(template, v.config));
    for (const copy of copies) await copy.engram.recall({ query: 'warm up', k: 1 });
    for (const q of conversation.questions) {
      for (const [i, copy] of copies.entries()) {
        const answer = await rankedDiaIds(copy, { query: q.question, k: 10 });
        times[i]!.wall.push(answer.ms);
        times[i]!.cpu.push(answer.cpuMs);
      }
    }
    for (const copy of copies) await copy.close();
    template.remove();
    process.stderr.write(`${conversation.sampleId} done\n`);
  }
  const rows = VARIANTS.map((v, i) => ({
    name: v.name,
    wall_p50_ms: round(percentile(times[i]!.wall, 50)),
    wall_p95_ms: round(percentile(times[i]!.wall, 95)),
    cpu_p50_ms: round(percentile(times[i]!.cpu, 50)),
    cpu_p95_ms: round(percentile(times[i]!.cpu, 95)),
  }));
  const [through, behind] = rows as [(typeof rows)[0], (typeof rows)[0]];
  const ratio = {
    wall_p50: round(behind.wall_p50_ms / through.wall_p50_ms),
    wall_p95: round(behind.wall_p95_ms / through.wall_p95_ms),
  };
  const questions = times[0]!.wall.length;
  mkdirSync(values.out, { recursive: true });
  const stem = join(values.out, `access-latency-${machine.date.slice(0, 10)}`);
  const payload = {
    machine,
    conversations: conversations.map((c) => c.index),
    questions,
    rows,
    ratio,
  };
  writeResults(stem, machine, payload, [
    `# Access accounting behind recall — ${machine.date.slice(0, 10)}`,
    '',
    `LoCoMo conversations ${payload.conversations.join(', ')} (${questions} questions), each ` +
      'conversation stored once (the bench/locomo protocol) and copied for each variant; every ' +
      'question asked of both copies in turn, `recall` with k = 10 through the public API. Wall ' +
      'and CPU time of the call (CPU: this process, user + system).',
    '',
    '| variant | wall p50 ms | wall p95 ms | CPU p50 ms | CPU p95 ms |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.wall_p50_ms} | ${r.wall_p95_ms} | ${r.cpu_p50_ms} | ${r.cpu_p95_ms} |`,
    ),
    '',
    `Write-behind / write-through: wall p50 ${ratio.wall_p50}x, wall p95 ${ratio.wall_p95}x.`,
    '',
  ]);
  process.stderr.write(`wrote ${stem}.md and ${stem}.json\n`);
}

await main();

/**
 * Dormant-recall smoke run (issue 7): fresh `engram` CLI processes and a spawned `engram mcp`
 * process on disposable stores. It compares ordinary results with shadow off and on (two copies
 * of one store, byte for byte on hits/degraded/decision), exercises review / inspect / feedback
 * through both interfaces, checks that access fields never move and cooldowns hold, and scans the
 * shadow tables for the query's words. Writes bench/results/dormant-smoke-<date>.md.
 *
 *   npx tsx bench/dormant/smoke.ts   (needs dist/: npm run build)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';

/** Parsed JSON output of the CLI and MCP (checked field by field below). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'bin', 'engram.js');
const CACHE =
  process.env.ENGRAM_TEST_CACHE_DIR ?? join(ROOT, 'node_modules', '.cache', 'engram-test');
const DAY = 86_400_000;
const QUERY = 'how to restart the staging database server after a crash';
const log: string[] = [];
let failures = 0;

function check(ok: boolean, what: string): void {
  if (!ok) failures++;
  log.push(`- ${ok ? 'PASS' : 'FAIL'}: ${what}`);
}

function engram(config: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, '--config', config, '--json', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env },
  });
  const out = r.stdout.trim();
  return { code: r.status ?? -1, json: parseOut(out), stderr: r.stderr };
}

/** One JSON document, or the last line of a JSON-lines output (import streams results). */
function parseOut(out: string): Loose {
  if (!out) return null;
  try {
    return JSON.parse(out);
  } catch {
    return JSON.parse(out.split('\n').at(-1)!);
  }
}

function writeConfig(dir: string, mode: 'shadow' | 'off'): string {
  const file = join(dir, 'engram.yaml');
  writeFileSync(
    file,
    stringify({
      store: { path: join(dir, 'engram.db') },
      embedder: { cache_dir: CACHE },
      dormant_recall: { mode },
    }),
  );
  return file;
}

function seed(dir: string): void {
  const old = new Date(Date.now() - 90 * DAY).toISOString();
  const lines = [
    {
      kind: 'fact',
      body: 'To restart the staging database server after a crash, run the recover-db script on the bastion host.',
      created_at: old,
    },
    {
      kind: 'note',
      body: 'After a crash, restart the staging database server before anything else.',
      created_at: old,
    },
    { kind: 'preference', body: 'Alice prefers green tea in the afternoon.', created_at: old },
    // For the MCP part: its own topic, two dormant memories and a fresh one.
    {
      kind: 'procedure',
      body: 'To rotate the TLS certificates of the payment gateway, run certbot renew on the gateway hosts.',
      created_at: old,
    },
    {
      kind: 'note',
      body: 'Rotate the payment gateway TLS certificates before they expire in March.',
      created_at: old,
    },
    {
      kind: 'fact',
      body: 'How to rotate the payment gateway TLS certificates: see the security runbook.',
    },
    {
      kind: 'episode',
      body: 'We restarted the staging database server after the crash last spring.',
      created_at: old,
    },
    {
      kind: 'fact',
      body: 'How to restart the staging database server after a crash: follow the recovery runbook.',
    },
  ];
  writeFileSync(join(dir, 'seed.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

const ordinary = (r: Loose) =>
  JSON.stringify({ hits: r.hits, degraded: r.degraded, decision: r.decision });

function table(path: string, name: string): Record<string, unknown>[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(`SELECT * FROM ${name}`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

async function mcpPart(config: string, expectId: string): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--config', config, 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'dormant-smoke', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    return { error: r.isError === true, json: JSON.parse(r.content[0]!.text) as Loose };
  };
  const tools = (await client.listTools()).tools.map((t) => t.name);
  check(
    ['dormant_review', 'dormant_inspect', 'dormant_feedback'].every((t) => tools.includes(t)),
    'MCP lists dormant_review, dormant_inspect, dormant_feedback',
  );
  const before = (await call('dormant_review', { limit: 1000 })).json.events.length;
  const recall = await call('recall', {
    query: 'how do I rotate the payment gateway TLS certificates',
    k: 1,
  });
  check(
    !recall.error && !JSON.stringify(recall.json).includes('dormant'),
    'MCP recall result carries nothing dormant',
  );
  // The evaluation runs after the recall answered: poll (bounded) until its event is logged.
  let review = await call('dormant_review', { limit: 1000 });
  for (let i = 0; i < 100 && review.json.events.length <= before; i++) {
    await new Promise((r) => setTimeout(r, 100));
    review = await call('dormant_review', { limit: 1000 });
  }
  const event = review.json.events[0];
  log.push(
    `  MCP review newest event: outcome ${event?.outcome}, candidate ${event?.candidate_id}`,
  );
  check(
    review.json.events.length === before + 1,
    'MCP dormant_review shows the evaluation of the MCP recall',
  );
  const selected = review.json.events.find(
    (e: Loose) => e.candidate_id !== null && e.feedback === null,
  );
  if (selected) {
    const inspect = await call('dormant_inspect', { event_id: selected.id });
    check(
      !inspect.error && inspect.json.event.shown_at !== null,
      'MCP dormant_inspect marks shown_at',
    );
    const fb = await call('dormant_feedback', { event_id: selected.id, category: 'dismissed' });
    check(!fb.error && fb.json.changed === true, 'MCP dormant_feedback records dismissed');
    const conflict = await call('dormant_feedback', { event_id: selected.id, category: 'useful' });
    check(
      conflict.error && JSON.stringify(conflict.json).includes('CONFLICT'),
      'MCP refuses a second category (CONFLICT)',
    );
  } else check(expectId === '', 'MCP found a selected event to inspect');
  await client.close();
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'engram-dormant-smoke-'));
  const started = Date.now();
  try {
    const base = join(root, 'base');
    mkdirSync(base);
    const baseConfig = writeConfig(base, 'off');
    seed(base);
    const imported = engram(baseConfig, ['import', join(base, 'seed.jsonl')]);
    check(imported.code === 0, `import of the seed store (exit ${imported.code})`);
    const ids = engram(baseConfig, ['list', '--limit', '10']).json.items as {
      id: string;
      body: string;
      kind: string;
    }[];
    const target = ids.find((m) => m.body.startsWith('To restart'))!.id;
    const fresh = ids.find((m) => m.body.startsWith('How to restart'))!.id;
    const episode = ids.find((m) => m.kind === 'episode')!.id;
    // Two byte-identical copies: one run with shadow off (by environment), one with shadow on.
    const dirs = { off: join(root, 'off'), on: join(root, 'on') };
    for (const d of Object.values(dirs)) {
      mkdirSync(d);
      copyFileSync(join(base, 'engram.db'), join(d, 'engram.db'));
    }
    const offConfig = writeConfig(dirs.off, 'shadow');
    const onConfig = writeConfig(dirs.on, 'shadow');
    const env = { ENGRAM_DORMANT_RECALL_MODE: 'off' };
    const queries = [QUERY, 'green tea', 'staging database', 'recovery runbook'];
    let identical = 0;
    for (const q of queries) {
      const a = engram(offConfig, ['search', q, '-k', '1'], env);
      const b = engram(onConfig, ['search', q, '-k', '1']);
      if (a.code === 0 && b.code === 0 && ordinary(a.json) === ordinary(b.json)) identical++;
      log.push(
        `  search "${q}": off ids ${a.json?.hits.map((h: Loose) => h.id).join(',')} | shadow ids ${b.json?.hits.map((h: Loose) => h.id).join(',')}`,
      );
    }
    check(
      identical === queries.length,
      `ordinary hits/degraded/decision byte-identical, shadow off vs on (${identical}/${queries.length} queries)`,
    );
    const offTables = table(join(dirs.off, 'engram.db'), 'sqlite_master').filter((r) =>
      String(r.name).startsWith('dormant'),
    );
    check(
      offTables.length === 0,
      'ENGRAM_DORMANT_RECALL_MODE=off over a shadow file: no dormant tables created',
    );
    const review = engram(onConfig, ['dormant', 'review', '--limit', '10']).json;
    check(
      review.events.length === queries.length,
      `one event per search (${review.events.length} for ${queries.length})`,
    );
    const chosen = review.events
      .filter((e: Loose) => e.candidate_id)
      .map((e: Loose) => e.candidate_id);
    check(
      chosen.length >= 1 && !chosen.includes(fresh) && !chosen.includes(episode),
      `selected only dormant profile memories (${chosen.join(', ')})`,
    );
    check(new Set(chosen).size === chosen.length, 'no memory selected twice while cooling down');
    const first = review.events.filter((e: Loose) => e.candidate_id).at(-1);
    for (const id of chosen) {
      const m = engram(onConfig, ['get', id]).json;
      check(
        m.access_count === 0 && m.last_accessed_at === null,
        `selected ${id}: access_count 0, last_accessed_at null`,
      );
    }
    const inspect = engram(onConfig, ['dormant', 'inspect', first.id]);
    check(
      inspect.code === 0 && inspect.json.memory?.id === first.candidate_id,
      'CLI inspect shows the current memory',
    );
    const fb = engram(onConfig, ['dormant', 'feedback', first.id, 'useful']);
    const until = Date.parse(fb.json?.cooldown_until ?? '');
    check(
      fb.code === 0 && Math.abs(until - (Date.now() + 30 * DAY)) < 60_000,
      `CLI feedback useful pauses it 30 days (until ${fb.json?.cooldown_until})`,
    );
    const again = engram(onConfig, ['dormant', 'feedback', first.id, 'useful']);
    check(again.code === 0 && again.json.changed === false, 'same category again: idempotent');
    const other = engram(onConfig, ['dormant', 'feedback', first.id, 'irrelevant']);
    check(other.code === 4, `another category refused with exit 4 (CONFLICT) (got ${other.code})`);
    const state = table(join(dirs.on, 'engram.db'), 'dormant_recall_state');
    const row = state.find((s) => s.item_id === first.candidate_id)!;
    check(
      row.used_at !== null && row.shown_at !== null && Number(row.cooldown_until) >= until - 1,
      'state row: retrieved_at, shown_at, used_at and cooldown recorded',
    );
    const m = engram(onConfig, ['get', first.candidate_id]).json;
    check(
      m.access_count === 0 && m.last_accessed_at === null && m.importance === 0.5,
      'after inspect + feedback: access fields and importance unchanged',
    );
    engram(onConfig, ['search', QUERY, '-k', '1']);
    const after = engram(onConfig, ['dormant', 'review', '--limit', '1']).json.events[0];
    check(
      after.candidate_id !== first.candidate_id,
      'a later search does not select the paused memory',
    );
    const cells = ['dormant_recall_events', 'dormant_recall_state'].flatMap((t) =>
      table(join(dirs.on, 'engram.db'), t).flatMap((r) => Object.values(r).map(String)),
    );
    const words = QUERY.split(' ').filter((w) => w.length > 3);
    check(
      cells.every((c) => words.every((w) => !c.toLowerCase().includes(w))),
      `shadow tables hold none of the query's words (${cells.length} cells scanned)`,
    );
    log.push('', 'MCP (spawned `engram mcp`, SDK stdio client):');
    await mcpPart(onConfig, target);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const date = new Date().toISOString().slice(0, 10);
  const text = [
    `# Dormant recall smoke run, ${date}`,
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, ${process.platform}. Duration ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    'Fresh `engram` CLI processes (`node dist/bin/engram.js`) and one `engram mcp` process on disposable SQLite stores; seed memories imported with a creation time 90 days back.',
    '',
    ...log,
    '',
    `${failures === 0 ? 'All checks passed' : `${failures} checks FAILED`}.`,
  ].join('\n');
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `dormant-smoke-${date}.md`), `${text}\n`);
  process.stdout.write(`${text}\n`);
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();

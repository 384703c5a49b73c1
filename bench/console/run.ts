/**
 * Web console benchmark (§13 targets), in Debian's headless Chromium against a real `engram serve`
 * on a 10k-item SQLite store (the synthetic corpus of bench/hygiene):
 * - first load of the search page: navigation start to the query box being usable, cold cache,
 *   median and p95 of `--loads` loads (target <= 1 s), and its cumulative layout shift;
 * - JavaScript and CSS transferred by that load (bytes on the wire, gzip; target <= 300 KB);
 * - a search round trip shown: submit to the hits of that query on screen, `--searches` queries,
 *   median and p95 (target p95 <= 150 ms).
 * Writes bench/results/console-<date>.md and .json. Needs `npm run build` first (dist/web).
 *
 *   npx tsx bench/console/run.ts [--items 10000] [--loads 10] [--searches 40] [--out DIR]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { type Browser, chromium, type Page } from 'playwright-core';

import { createEngram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import { consoleDir } from '../../src/interfaces/http/console.js';
import { startHttpService } from '../../src/interfaces/http/service.js';
import { corpusRecord, generateCorpus } from '../hygiene/corpus.js';
import { machineFacts, machineMarkdown } from '../lib/machine.js';
import { benchCacheDir } from '../locomo/engram-store.js';

const log = (message: string) => process.stderr.write(`${message}\n`);
const CHROMIUM = process.env.ENGRAM_TEST_CHROMIUM ?? '/usr/bin/chromium';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    loads: { type: 'string', default: '10' },
    searches: { type: 'string', default: '40' },
    out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
  },
});

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** A store of `n` synthetic memories with their vectors; returns its path and some queries. */
async function seedStore(dir: string, n: number): Promise<{ path: string; queries: string[] }> {
  const path = join(dir, 'engram.db');
  const corpus = generateCorpus({ n });
  const engram = createEngram({
    config: { store: { path }, embedder: { cache_dir: benchCacheDir() } },
    env: {},
    logger: silentLogger,
    background: false,
  });
  const records = corpus.items.map(corpusRecord);
  for (let i = 0; i < records.length; i += 1_000)
    await engram.storeForTransfer.importItems(records.slice(i, i + 1_000));
  await engram.backfill();
  await engram.close();
  const step = Math.floor(corpus.items.length / Number(values.searches));
  const queries = corpus.items
    .filter((_, i) => i % step === 0)
    .map((c) => c.body.split(/\s+/u).slice(0, 6).join(' ').replace(/[.,]$/u, ''))
    .slice(0, Number(values.searches));
  return { path, queries };
}

/** Cold first loads: time to a usable query box, and the JS+CSS bytes on the wire. */
async function firstLoads(browser: Browser, url: string, loads: number) {
  const times: number[] = [];
  const bytes: number[] = [];
  const shifts: number[] = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const types = new Map<string, string>();
    let wire = 0;
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
    cdp.on('Network.loadingFinished', (e) => {
      const type = types.get(e.requestId);
      if (type === 'Script' || type === 'Stylesheet') wire += e.encodedDataLength;
    });
    await page.goto(url);
    await page.getByRole('searchbox', { name: 'Query' }).waitFor({ state: 'visible' });
    times.push(await page.evaluate(() => performance.now()));
    bytes.push(wire);
    shifts.push(await layoutShift(page));
    await context.close();
  }
  return { times, bytes, shifts };
}

/** Cumulative layout shift of the load so far (the browser's buffered layout-shift entries). */
async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        type Shift = { value: number; hadRecentInput: boolean };
        // 'layout-shift' is a browser entry type that Node's typings do not list.
        new PerformanceObserver((list, observer) => {
          observer.disconnect();
          const entries = list.getEntries() as unknown as Shift[];
          resolve(entries.filter((e) => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0));
        }).observe({ type: 'layout-shift' as 'mark', buffered: true });
        // No entry at all means no shift: the observer then never calls back.
        setTimeout(() => resolve(0), 500);
      }),
  );
}

/** Search round trips on one loaded page: submit to the hits of that query on screen. */
async function searches(browser: Browser, url: string, queries: readonly string[]) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  const box = page.getByRole('searchbox', { name: 'Query' });
  await box.waitFor();
  const times: number[] = [];
  for (const [i, query] of queries.entries()) {
    await box.fill(query);
    const started = performance.now();
    await box.press('Enter');
    // In the page: the results container names the query whose hits it shows once they are drawn.
    await page.waitForFunction((q) => {
      type Doc = { querySelector(s: string): { dataset: Record<string, string> } | null };
      const doc = (globalThis as unknown as { document: Doc }).document;
      return doc.querySelector('[data-results-for]')?.dataset.resultsFor === q;
    }, query);
    if (i > 0) times.push(performance.now() - started); // the first warms the embedder and caches
  }
  await context.close();
  return times;
}

async function main(): Promise<void> {
  if (consoleDir() === null) throw new Error('dist/web is missing: run npm run build first');
  const dir = mkdtempSync(join(tmpdir(), 'engram-console-bench-'));
  try {
    log(`seeding ${values.items} memories...`);
    const { path, queries } = await seedStore(dir, Number(values.items));
    const service = await startHttpService({
      config: { store: { path }, embedder: { cache_dir: benchCacheDir() }, server: { port: 0 } },
      env: {},
      log: silentLogger,
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      log('first loads...');
      const load = await firstLoads(browser, service.url, Number(values.loads));
      log('searches...');
      const search = await searches(browser, service.url, queries);
      report({ load, search, items: Number(values.items) });
    } finally {
      await browser.close();
      await service.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(r: {
  load: { times: number[]; bytes: number[]; shifts: number[] };
  search: number[];
  items: number;
}) {
  const machine = machineFacts();
  const date = new Date().toISOString().slice(0, 10);
  const ms = (x: number) => `${Math.round(x)} ms`;
  const result = {
    date,
    machine,
    items: r.items,
    first_load_ms: {
      p50: percentile(r.load.times, 0.5),
      p95: percentile(r.load.times, 0.95),
      runs: r.load.times,
    },
    layout_shift: { max: Math.max(...r.load.shifts) },
    js_css_bytes: { p50: percentile(r.load.bytes, 0.5), max: Math.max(...r.load.bytes) },
    search_ms: {
      p50: percentile(r.search, 0.5),
      p95: percentile(r.search, 0.95),
      runs: r.search.length,
    },
  };
  mkdirSync(values.out!, { recursive: true });
  writeFileSync(join(values.out!, `console-${date}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    `# Web console, ${date}`,
    '',
    machineMarkdown(machine),
    '',
    `Headless Chromium (Debian), engram serve on a ${r.items}-item SQLite store (built-in embedder).`,
    '',
    '| measure | median | p95 / max | target |',
    '|---|---|---|---|',
    `| first load of the search page to a usable query box (cold cache, ${r.load.times.length} loads) | ${ms(result.first_load_ms.p50)} | ${ms(result.first_load_ms.p95)} | <= 1 s |`,
    `| JavaScript + CSS transferred by that load | ${(result.js_css_bytes.p50 / 1024).toFixed(1)} KB | ${(result.js_css_bytes.max / 1024).toFixed(1)} KB | <= 300 KB gzip |`,
    `| cumulative layout shift of that load | | ${result.layout_shift.max.toFixed(3)} | 0 (no shift) |`,
    `| search round trip shown (${r.search.length} queries) | ${ms(result.search_ms.p50)} | ${ms(result.search_ms.p95)} | p95 <= 150 ms |`,
    '',
  ].join('\n');
  writeFileSync(join(values.out!, `console-${date}.md`), md);
  console.log(md);
}

await main();

/**
 * The package as users install it: `npm pack` of this checkout (built first), installed into an
 * empty folder with nothing else, then run from there as a user would, with a fresh HOME:
 * `npx engram --version` and `--help`, `remember` and `search` on the default store, `engram mcp`
 * answered by the official MCP SDK client over stdio (the SDK as installed with engram), `engram
 * serve` answering /v1/health and the typed client (`engram/client`) on 127.0.0.1, and the library
 * imported by its package name.
 *
 * Usage: node scripts/ci/pack-install.mjs [TARBALL] (after `npm ci` and `npm run build`; without
 * TARBALL it packs this checkout first). .ci/run packs before the tests (whose setup rebuilds
 * dist/) and runs this beside them.
 * Installing compiles the native addons (better-sqlite3, hnswlib-node) from source, as a user's
 * install does: a few minutes. Exits 1 naming the step that failed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'engram-pack-'));
const app = join(work, 'app');
const home = join(work, 'home');
mkdirSync(app);
mkdirSync(home);
/** engram runs with a fresh HOME; npm installs with the machine's (its npm settings and cache). */
const env = { PATH: process.env.PATH ?? '', HOME: home };

function step(name, fn) {
  const started = Date.now();
  try {
    const out = fn();
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return out;
  } catch (err) {
    console.error(`FAIL ${name}: ${err.stderr ?? ''}${err.message}`);
    process.exit(1);
  }
}

async function stepAsync(name, fn) {
  const started = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    console.error(`FAIL ${name}: ${err.message}`);
    process.exit(1);
  }
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: app, env, encoding: 'utf8', ...options });
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

const tarball = step('npm pack', () => {
  let file = process.argv[2] ? resolve(process.argv[2]) : undefined;
  if (!file) {
    run('npm', ['pack', '--pack-destination', work, ROOT], { cwd: ROOT });
    file = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? 'none.tgz');
  }
  const listed = run('tar', ['tzf', file]);
  for (const needed of ['package/dist/bin/engram.js', 'package/dist/index.js', 'package/README.md'])
    expect(listed.includes(needed), `the tarball lacks ${needed}`);
  for (const needed of ['package/LICENSE', 'package/CHANGELOG.md'])
    expect(listed.includes(needed), `the tarball lacks ${needed}`);
  expect(!/\.test\.(js|ts)/.test(listed), 'the tarball holds test files');
  return file;
});

step('npm install of the tarball into an empty folder', () => {
  // What the project's own .npmrc says about install scripts, for the same dependencies.
  writeFileSync(join(app, '.npmrc'), readFileSync(join(ROOT, '.npmrc')));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], {
    stdio: 'pipe',
    env: process.env,
  });
});

step('npx engram --version and --help', () => {
  expect(run('npx', ['engram', '--version']).trim() === version, 'the version is not ' + version);
  expect(run('npx', ['engram', '--help']).includes('Usage: engram'), '--help shows no usage');
});

step('remember and search on the default store', () => {
  run('npx', ['engram', 'remember', 'Ada prefers green tea in the morning']);
  const found = run('npx', ['engram', 'search', 'what does Ada drink', '--json']);
  expect(found.includes('Ada prefers green tea'), `search did not find the memory: ${found}`);
});

await stepAsync('engram mcp answers the MCP SDK client over stdio', async () => {
  const client = join(app, 'mcp-client.mjs');
  writeFileSync(
    client,
    `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const transport = new StdioClientTransport({ command: 'node_modules/.bin/engram', args: ['mcp'], env: process.env });
const client = new Client({ name: 'pack-check', version: '1' });
await client.connect(transport);
const { tools } = await client.listTools();
const recalled = await client.callTool({ name: 'recall', arguments: { query: 'what does Ada drink' } });
await client.close();
console.log(JSON.stringify({ tools: tools.map((t) => t.name), recalled }));
`,
  );
  const out = JSON.parse(run('node', [client], { timeout: 120_000 }));
  expect(out.tools.includes('remember') && out.tools.includes('recall'), 'tools missing');
  expect(JSON.stringify(out.recalled).includes('green tea'), 'recall over MCP found nothing');
});

await stepAsync('engram serve answers /v1/health and engram/client on 127.0.0.1', async () => {
  const server = spawn(join(app, 'node_modules', '.bin', 'engram'), ['serve', '--port', '0'], {
    cwd: app,
    env,
  });
  try {
    const url = await new Promise((done, fail) => {
      let text = '';
      const read = (chunk) => {
        text += chunk;
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(text);
        if (match) done(match[1]);
      };
      server.stdout.on('data', read);
      server.stderr.on('data', read);
      server.once('exit', (code) => fail(new Error(`serve exited ${code}: ${text}`)));
    });
    const health = await fetch(`${url}/v1/health`);
    expect(health.ok, `health answered ${health.status}`);
    // The typed client, imported by its package subpath, against the same server.
    const client = join(app, 'http-client.mjs');
    writeFileSync(
      client,
      `import { EngramClient } from 'engram/client';
const engram = new EngramClient({ baseUrl: process.argv[2] });
await engram.remember({ body: 'The night bus leaves from platform 4' });
const { hits } = await engram.recall({ query: 'where does the night bus leave' });
console.log(hits[0]?.body ?? '');
`,
    );
    expect(run('node', [client, url]).includes('platform 4'), 'the client recalled nothing');
  } finally {
    server.kill('SIGTERM');
  }
});

step('the library imports by its package name', () => {
  const script = join(app, 'library.mjs');
  writeFileSync(
    script,
    `import { createEngram } from 'engram';
const engram = createEngram({ config: { store: { path: ':memory:' } } });
await engram.remember({ body: 'The release train leaves on Tuesdays' });
const { hits } = await engram.recall({ query: 'when does the release train leave' });
await engram.close();
console.log(hits[0]?.body ?? '');
`,
  );
  expect(run('node', [script]).includes('Tuesdays'), 'the library recalled nothing');
});

rmSync(work, { recursive: true, force: true });
console.log('the packed tarball installs and runs');

/**
 * Graceful shutdown of the service: in-flight requests finish, new connections are refused, the
 * worker stops and the store closes; a request that outlives the grace period is cut off without
 * partial writes; SIGTERM/SIGINT on the spawned `engram serve` and `npm start` entry stop it
 * cleanly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { createEngram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import { testCacheDir } from './cache-dir.js';
import { tempDir, testConfig } from './helpers.js';
import { jsonLines, startTestService } from './http-helpers.js';

const DIST = resolve(import.meta.dirname, '..', 'dist');
const encoder = new TextEncoder();

/** A request body the test feeds line by line. */
function feed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    body,
    push: (line: string) => controller.enqueue(encoder.encode(`${line}\n`)),
    end: () => controller.close(),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function reopen(dir: string) {
  return createEngram({
    config: testConfig(dir),
    env: {},
    logger: silentLogger,
    background: false,
    embedder: null,
  });
}

describe('graceful shutdown (in process)', () => {
  it('lets an in-flight import finish, refuses new connections, then closes the store', async () => {
    const s = await startTestService();
    const input = feed();
    const inflight = fetch(`${s.url}/v1/spaces/default/import`, {
      method: 'POST',
      body: input.body,
      duplex: 'half',
    } as RequestInit);
    input.push(JSON.stringify({ body: 'Line one arrives before shutdown.' }));
    await sleep(200);
    const closing = s.service.close();
    await sleep(100);
    await expect(fetch(`${s.url}/v1/health`)).rejects.toThrow();
    input.push(JSON.stringify({ body: 'Line two arrives during shutdown.' }));
    input.end();
    const res = await inflight;
    expect(res.status).toBe(200);
    const results = jsonLines(await res.text());
    expect(results.at(-1)).toMatchObject({ summary: { created: 2 } });
    await closing;
    expect(s.service.worker.state().status).toBe('stopped');
    const again = reopen(s.dir);
    expect((await again.list()).items.map((m) => m.body).sort()).toEqual([
      'Line one arrives before shutdown.',
      'Line two arrives during shutdown.',
    ]);
    await again.close();
  });

  it('cuts off a request that outlives the grace period, without partial writes', async () => {
    const s = await startTestService({ server: { shutdown_grace_ms: 300 } });
    const input = feed();
    const stuck = fetch(`${s.url}/v1/spaces/default/import`, {
      method: 'POST',
      body: input.body,
      duplex: 'half',
    } as RequestInit)
      .then((r) => r.text())
      .catch((err: unknown) => err);
    input.push(JSON.stringify({ body: 'Sent, but its batch never completes.' }));
    await sleep(200);
    const started = Date.now();
    await s.service.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await stuck;
    const again = reopen(s.dir);
    expect((await again.list()).items).toHaveLength(0);
    await again.close();
  });
});

function startProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolvePromise, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out)?.[1];
      if (url) resolvePromise({ child, url, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${err}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => child.once('exit', (code) => r(code)));
}

function writeConfig(dir: string): string {
  const file = join(dir, 'engram.yaml');
  writeFileSync(
    file,
    stringify({
      store: { path: join(dir, 'engram.db') },
      embedder: { cache_dir: testCacheDir() },
      server: { port: 0 },
    }),
  );
  return file;
}

describe('graceful shutdown (spawned service)', () => {
  it('engram serve stops on SIGTERM with exit code 0 after finishing its work', async () => {
    const dir = tempDir();
    const { child, url, stderr } = await startProcess(
      [join(DIST, 'bin', 'engram.js'), '--config', writeConfig(dir), 'serve'],
      { HOME: dir },
    );
    const res = await fetch(`${url}/v1/spaces/default/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Written just before SIGTERM.' }),
    });
    expect(res.status).toBe(201);
    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr()).toMatch(/SIGTERM: finishing in-flight requests[\s\S]*stopped/);
    const again = reopen(dir);
    expect((await again.list()).items.map((m) => m.body)).toEqual(['Written just before SIGTERM.']);
    await again.close();
  });

  it('the npm start entry (dist/server.js) prints its URL, serves and stops on SIGINT', async () => {
    const dir = tempDir();
    const { child, url } = await startProcess([join(DIST, 'server.js')], {
      HOME: dir,
      ENGRAM_CONFIG: writeConfig(dir),
    });
    const health = await fetch(`${url}/v1/health`);
    expect(health.status).toBe(200);
    const exited = exitOf(child);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});

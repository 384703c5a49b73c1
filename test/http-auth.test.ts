/**
 * Security of the HTTP API on a real server: bearer tokens (hashed in config), space and role
 * scopes, no leak of other spaces, loopback-only without tokens, CORS off unless configured, and
 * the token helpers of `engram serve`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { EngramError } from '../src/domain/errors.js';
import { hashToken, isLoopback, TokenVerifier } from '../src/interfaces/http/auth.js';
import { startHttpService } from '../src/interfaces/http/service.js';
import { tempDir, testConfig } from './helpers.js';
import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');

async function withTokens() {
  const s = await startTestService({ server: { tokens: TOKEN_CONFIG } });
  const b = await s.service.engram.remember({
    body: 'Team B launch code is 4242.',
    space: 'team-b',
  });
  return { s, secretId: b.memory.id };
}

describe('HTTP authentication', () => {
  it('rejects missing, malformed and unknown tokens with 401 and never echoes them', async () => {
    const { s } = await withTokens();
    const none = await s.request('GET', '/v1/spaces/team-a/memories');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const basic = await s.request('GET', '/v1/spaces/team-a/memories', {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.status).toBe(401);
    const wrong = await s.request('GET', '/v1/spaces/team-a/memories', {
      token: 'not-a-real-token-xyz',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('not-a-real-token-xyz');
    const ok = await s.request('GET', '/v1/spaces/team-a/memories', { token: TOKENS.readerA });
    expect(ok.status).toBe(200);
  });

  it('serves health and the OpenAPI document without a token', async () => {
    const { s } = await withTokens();
    expect((await s.request('GET', '/v1/health')).body).toMatchObject({
      status: expect.any(String),
      auth: true,
    });
    expect((await s.request('GET', '/v1/openapi.json')).status).toBe(200);
  });

  it('enforces roles: read cannot write, write cannot purge, admin can', async () => {
    const { s } = await withTokens();
    const write = await s.request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.readerA,
      json: { body: 'x' },
    });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toMatch(/needs the write role/);
    const recall = await s.request('POST', '/v1/spaces/team-a/recall', {
      token: TOKENS.readerA,
      json: { query: 'x' },
    });
    expect(recall.status).toBe(200);
    const created = await s.request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.writerA,
      json: { body: 'Team A standup is at 9:30.' },
    });
    expect(created.status).toBe(201);
    const id = created.body.memory.id as string;
    const purge = await s.request('POST', `/v1/spaces/team-a/memories/${id}/purge`, {
      token: TOKENS.writerA,
    });
    expect(purge.status).toBe(403);
    const adminPurge = await s.request('POST', `/v1/spaces/team-a/memories/${id}/purge`, {
      token: TOKENS.admin,
    });
    expect(adminPurge.status).toBe(200);
  });

  it('records the token name as the actor of a change when none is given', async () => {
    const { s } = await withTokens();
    const created = await s.request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.writerA,
      json: { body: 'Who wrote me?' },
    });
    const history = await s.service.engram.history(created.body.memory.id, { space: 'team-a' });
    expect(history.versions[0]!.actor).toBe('writer-a');
  });
});

describe('HTTP space isolation', () => {
  it('a token for space A gets the same 403 for space B whether B exists or not', async () => {
    const { s, secretId } = await withTokens();
    const routes: [string, string, unknown?][] = [
      ['GET', '/memories'],
      ['POST', '/recall', { query: 'launch code' }],
      ['POST', '/memories', { body: 'planted in B' }],
      ['GET', `/memories/${secretId}`],
      ['DELETE', `/memories/${secretId}`],
      ['GET', '/export'],
      ['GET', '/status'],
    ];
    for (const [method, path, json] of routes) {
      const existing = await s.request(method, `/v1/spaces/team-b${path}`, {
        token: TOKENS.writerA,
        json,
      });
      const missing = await s.request(method, `/v1/spaces/team-zz${path}`, {
        token: TOKENS.writerA,
        json,
      });
      expect(existing.status, `${method} ${path}`).toBe(403);
      expect(missing.status).toBe(403);
      expect(existing.text.replaceAll('team-b', 'SPACE')).toBe(
        missing.text.replaceAll('team-zz', 'SPACE'),
      );
      expect(existing.text).not.toContain('4242');
    }
    const imported = await s.request('POST', '/v1/spaces/team-b/import', {
      token: TOKENS.writerA,
      body: '{"body":"planted"}\n',
    });
    expect(imported.status).toBe(403);
    expect((await s.service.engram.list({ space: 'team-b' })).items.map((m) => m.body)).toEqual([
      'Team B launch code is 4242.',
    ]);
  });

  it('status shows a scoped token its own space only; store-wide facts only to an admin of every space', async () => {
    const { s } = await withTokens();
    const scoped = await s.request('GET', '/v1/spaces/team-a/status', { token: TOKENS.writerA });
    expect(scoped.status).toBe(200);
    expect(scoped.body.store.items_total).toBe(0);
    for (const hidden of ['location', 'size_bytes', 'vector_index'])
      expect(scoped.body.store, hidden).not.toHaveProperty(hidden);
    expect(scoped.body.embedder).not.toHaveProperty('queue');
    expect(scoped.text).not.toContain(s.dir);
    const admin = await s.request('GET', '/v1/spaces/team-a/status', { token: TOKENS.admin });
    expect(admin.body.store.location).toContain(s.dir);
    expect(admin.body.store).toHaveProperty('size_bytes');
  });

  it('an id of space B read through space A is the same 404 as an id that does not exist', async () => {
    const { s, secretId } = await withTokens();
    const foreign = await s.request('GET', `/v1/spaces/team-a/memories/${secretId}`, {
      token: TOKENS.writerA,
    });
    const missing = await s.request(
      'GET',
      '/v1/spaces/team-a/memories/01ARZ3NDEKTSV4RRFFQ69G5FAV',
      { token: TOKENS.writerA },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.text.replaceAll(secretId, 'ID')).toBe(
      missing.text.replaceAll('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'ID'),
    );
    for (const [method, path, json] of [
      ['POST', `/memories/${secretId}/pin`, undefined],
      ['PATCH', `/memories/${secretId}`, { body: 'overwritten' }],
      ['GET', `/memories/${secretId}/history`, undefined],
    ] as const) {
      const res = await s.request(method, `/v1/spaces/team-a${path}`, {
        token: TOKENS.writerA,
        json,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const mine = await s.request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.writerA,
      json: { body: 'Team A note.' },
    });
    const relate = await s.request(
      'POST',
      `/v1/spaces/team-a/memories/${mine.body.memory.id}/relations`,
      {
        token: TOKENS.writerA,
        json: { to_id: secretId },
      },
    );
    expect(relate.status).toBe(404);
    const supersede = await s.request('POST', `/v1/spaces/team-a/memories/${secretId}/supersede`, {
      token: TOKENS.writerA,
      json: { by: mine.body.memory.id },
    });
    expect(supersede.status).toBe(404);
    const recall = await s.request('POST', '/v1/spaces/team-a/recall', {
      token: TOKENS.writerA,
      json: { query: 'launch code 4242' },
    });
    expect(recall.body.hits.map((h: { id: string }) => h.id)).not.toContain(secretId);
    expect(recall.text).not.toContain('4242');
    expect((await s.service.engram.get(secretId, { space: 'team-b' })).body).toBe(
      'Team B launch code is 4242.',
    );
  });

  it('a token for every space ("*") reaches any space', async () => {
    const { s, secretId } = await withTokens();
    const res = await s.request('GET', `/v1/spaces/team-b/memories/${secretId}`, {
      token: TOKENS.admin,
    });
    expect(res.status).toBe(200);
  });
});

describe('HTTP bind address and CORS', () => {
  it('refuses a non-loopback bind without tokens, before listening', async () => {
    const dir = tempDir();
    const start = startHttpService({
      config: testConfig(dir, { server: { host: '0.0.0.0', port: 0 } }),
      env: {},
    });
    await expect(start).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/not a loopback address/),
    });
    expect(existsSync(join(dir, 'engram.db'))).toBe(false);
    expect(isLoopback('127.0.0.1') && isLoopback('::1') && isLoopback('localhost')).toBe(true);
    expect(isLoopback('0.0.0.0') || isLoopback('192.168.1.10') || isLoopback('::')).toBe(false);
  });

  it('sends no CORS headers unless origins are configured', async () => {
    const s = await startTestService();
    const res = await s.request('GET', '/v1/health', {
      headers: { origin: 'https://evil.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const allowed = await startTestService({
      server: { cors: { origins: ['https://app.example'] } },
    });
    const pre = await allowed.request('OPTIONS', '/v1/spaces/default/recall', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await allowed.request('GET', '/v1/health', {
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('token helpers', () => {
  it('TokenVerifier accepts exactly the configured tokens', () => {
    const verifier = new TokenVerifier(TOKEN_CONFIG);
    expect(verifier.verify(`Bearer ${TOKENS.writerB}`)).toEqual({
      name: 'writer-b',
      role: 'write',
      spaces: ['team-b'],
    });
    expect(verifier.verify(`bearer ${TOKENS.admin}`)).toMatchObject({ name: 'admin', spaces: '*' });
    expect(() => verifier.verify(`Bearer ${TOKENS.writerB}x`)).toThrow(EngramError);
    expect(new TokenVerifier([]).verify(undefined)).toEqual({
      name: null,
      role: 'admin',
      spaces: '*',
    });
  });

  it('engram serve --hash-token and --new-token print hashes the server accepts', () => {
    const hash = execFileSync(process.execPath, [CLI, 'serve', '--hash-token'], {
      input: `${TOKENS.readerA}\n`,
    })
      .toString()
      .trim();
    expect(hash).toBe(hashToken(TOKENS.readerA));
    const created = JSON.parse(
      execFileSync(process.execPath, [CLI, '--json', 'serve', '--new-token']).toString(),
    );
    expect(created.hash).toBe(hashToken(created.token));
    expect(created.token).toMatch(/^engram_[A-Za-z0-9_-]{43}$/);
    const human = execFileSync(process.execPath, [CLI, 'serve', '--new-token']).toString();
    expect(human).toMatch(/hash: sha256:[0-9a-f]{64}/);
  });
});

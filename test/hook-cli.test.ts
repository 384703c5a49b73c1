/**
 * `engram hook` through the built CLI with recorded hook events (Claude Code's shapes, written
 * for this test): a user prompt answered with the memories auto-recall surfaces as added
 * context, nothing (and a hint) when auto-recall is off, a session log stored as a session at the
 * session's end (re-run: the same session, not a second one), and failures that never block the
 * agent (exit 1, never 2). With `--server` (or $ENGRAM_URL) the hooks ask a real `engram serve` on
 * 127.0.0.1 instead of opening a store, with its bearer token from $ENGRAM_TOKEN, and fall back to
 * their own process when nothing answers there.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { testCacheDir } from './cache-dir.js';
import { tempDir } from './helpers.js';
import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');

function engram(dir: string, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, '--config', join(dir, 'engram.yaml'), ...args], {
    input,
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    encoding: 'utf8',
    // A hook that never ends (a thread holding the process open) fails the test, not the run.
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The CLI run without blocking this process's event loop (the server under test answers in it),
 * with extra environment variables.
 */
function engramAsync(
  dir: string,
  args: string[],
  input: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, '--config', join(dir, 'engram.yaml'), ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A 127.0.0.1 port nothing listens on (one just closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

function store(autoRecall: Record<string, unknown>): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'engram.yaml'),
    stringify({
      store: { path: join(dir, 'engram.db') },
      embedder: { cache_dir: testCacheDir() },
      auto_recall: autoRecall,
    }),
  );
  return dir;
}

const prompt = (text: string) =>
  JSON.stringify({
    session_id: 'sess-hook-1',
    transcript_path: '/nonexistent/log.jsonl',
    cwd: '/work/app',
    hook_event_name: 'UserPromptSubmit',
    prompt: text,
  });

describe('engram hook (recorded Claude Code hook events)', () => {
  it('user-prompt answers the memories auto-recall surfaces as added context', () => {
    const dir = store({ enabled: true, relevance_threshold: 0.3 });
    for (const body of [
      'The staging database is PostgreSQL 15 on db-staging.internal',
      'Ada prefers green tea in the morning',
    ])
      expect(engram(dir, ['remember', body]).code).toBe(0);
    const r = engram(dir, ['hook', 'user-prompt'], prompt('which database does staging run?'));
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(answer.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    const context = answer.hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^Memories engram recalled/);
    expect(context).toContain('PostgreSQL 15 on db-staging.internal');
    expect(context).not.toContain('green tea');
  });

  it('user-prompt adds nothing when auto-recall is off, and says why on stderr', () => {
    const dir = store({ enabled: false });
    engram(dir, ['remember', 'The staging database is PostgreSQL 15']);
    const r = engram(dir, ['hook', 'user-prompt'], prompt('which database does staging run?'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/auto-recall is off/);
  });

  it('a bad event fails without blocking the agent (exit 1, the field named)', () => {
    const dir = store({ enabled: true });
    const r = engram(dir, ['hook', 'user-prompt'], 'not json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/stdin/);
    const url = engram(dir, ['hook', 'user-prompt', '--server', 'localhost:8765'], prompt('hi?'));
    expect(url.code).toBe(1);
    expect(url.stderr).toMatch(/--server: must be an http\(s\) URL/);
    const end = engram(dir, ['hook', 'session-end'], JSON.stringify({ session_id: 's' }));
    expect(end.code).toBe(1);
    expect(end.stderr).toMatch(/transcript_path/);
  });

  it('session-end stores the session log as one session, once, and no memory', () => {
    const dir = store({ enabled: false });
    const log = join(dir, 'session.jsonl');
    const line = (uuid: string, role: 'user' | 'assistant', text: string, at: string) =>
      JSON.stringify({
        type: role,
        sessionId: 'sess-hook-2',
        uuid,
        cwd: '/work/app',
        timestamp: at,
        message: { role, content: role === 'user' ? text : [{ type: 'text', text }] },
      });
    writeFileSync(
      log,
      [
        line('u1', 'user', 'Where do the nightly backups go?', '2026-03-01T10:00:00.000Z'),
        line('u2', 'assistant', 'They go to the cold-storage bucket.', '2026-03-01T10:00:02.000Z'),
      ].join('\n'),
    );
    const event = JSON.stringify({
      session_id: 'sess-hook-2',
      transcript_path: log,
      cwd: '/work/app',
      hook_event_name: 'SessionEnd',
      reason: 'exit',
    });
    for (const _ of [1, 2]) {
      const r = engram(dir, ['hook', 'session-end'], event);
      expect(r.code, r.stderr).toBe(0);
    }
    const sessions = JSON.parse(engram(dir, ['--json', 'sessions', 'list']).stdout) as {
      sessions: { id: string }[];
    };
    expect(sessions.sessions.map((s) => s.id)).toEqual(['sess-hook-2']);
    const found = engram(dir, ['--json', 'sessions', 'search', 'cold-storage bucket']).stdout;
    expect(found).toContain('cold-storage bucket');
    const items = JSON.parse(engram(dir, ['--json', 'list']).stdout) as { items: unknown[] };
    expect(items.items).toEqual([]);
  });

  describe('asking a running engram serve (--server, $ENGRAM_URL)', () => {
    /** A server holding one memory about staging, auto-recall on, tokens required. */
    async function server() {
      const s = await startTestService({
        auto_recall: { enabled: true, relevance_threshold: 0.3 },
        server: { tokens: TOKEN_CONFIG },
      });
      await s.service.engram.remember({
        body: 'The staging database is PostgreSQL 15 on db-staging.internal',
      });
      // The hook's own configuration names an empty store: what it answers came from the server.
      return { url: s.url, dir: store({ enabled: false }), s };
    }

    it('user-prompt answers from the server, with $ENGRAM_TOKEN, and opens no store itself', async () => {
      const { url, dir } = await server();
      const event = prompt('which database does staging run?');
      const flag = await engramAsync(dir, ['hook', 'user-prompt', '--server', url], event, {
        ENGRAM_TOKEN: TOKENS.admin,
      });
      expect(flag.code, flag.stderr).toBe(0);
      expect(flag.stderr).toBe('');
      const context = (
        JSON.parse(flag.stdout) as { hookSpecificOutput: { additionalContext: string } }
      ).hookSpecificOutput.additionalContext;
      expect(context).toContain('PostgreSQL 15 on db-staging.internal');
      // The same through $ENGRAM_URL, in another conversation (the first is in its cooldown).
      const viaEnv = await engramAsync(
        dir,
        ['hook', 'user-prompt'],
        prompt('which database does staging run?').replace('sess-hook-1', 'sess-hook-env'),
        { ENGRAM_URL: url, ENGRAM_TOKEN: TOKENS.admin },
      );
      expect(viaEnv.code, viaEnv.stderr).toBe(0);
      expect(viaEnv.stdout).toContain('db-staging.internal');
      expect(existsSync(join(dir, 'engram.db'))).toBe(false);
    });

    it("a server's refusal fails without blocking (exit 1, the server's message), with no fallback", async () => {
      const { url, dir } = await server();
      const event = prompt('which database does staging run?');
      const none = await engramAsync(dir, ['hook', 'user-prompt', '--server', url], event);
      expect(none.code).toBe(1);
      expect(none.stdout).toBe('');
      expect(none.stderr).toMatch(/^engram: .*token/imu);
      expect(none.stderr).not.toMatch(/running in this process/);
      const other = await engramAsync(
        dir,
        ['--space', 'team-a', 'hook', 'user-prompt', '--server', url],
        event,
        { ENGRAM_TOKEN: TOKENS.writerB },
      );
      expect(other.code).toBe(1);
      expect(other.stderr).toMatch(/team-a/);
    });

    it('falls back to its own process, saying so, when nothing answers at the address', async () => {
      const dir = store({ enabled: true, relevance_threshold: 0.3 });
      expect(engram(dir, ['remember', 'The staging database is PostgreSQL 15']).code).toBe(0);
      const url = `http://127.0.0.1:${await closedPort()}`;
      const r = await engramAsync(
        dir,
        ['hook', 'user-prompt', '--server', url],
        prompt('which database does staging run?'),
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/no answer from .*ECONNREFUSED.*running in this process instead/u);
      expect(r.stdout).toContain('PostgreSQL 15');
    });

    it("session-end stores the log in the server's store", async () => {
      const { url, dir, s } = await server();
      const log = join(dir, 'session.jsonl');
      writeFileSync(
        log,
        JSON.stringify({
          type: 'user',
          sessionId: 'sess-hook-3',
          uuid: 'u1',
          timestamp: '2026-03-01T10:00:00.000Z',
          message: { role: 'user', content: 'Where do the nightly backups go?' },
        }),
      );
      const event = JSON.stringify({
        session_id: 'sess-hook-3',
        transcript_path: log,
        hook_event_name: 'SessionEnd',
      });
      const r = await engramAsync(dir, ['hook', 'session-end', '--server', url], event, {
        ENGRAM_TOKEN: TOKENS.admin,
      });
      expect(r.code, r.stderr).toBe(0);
      expect((await s.service.engram.getSession('sess-hook-3')).turns).toHaveLength(1);
      // The hook's own store was never opened, so never created.
      expect(existsSync(join(dir, 'engram.db'))).toBe(false);
    });
  });
});

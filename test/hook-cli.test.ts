/**
 * `engram hook` through the built CLI with recorded hook events (Claude Code's shapes, written
 * for this test): a user prompt answered with the memories auto-recall surfaces as added
 * context, nothing (and a hint) when auto-recall is off, a session log stored as a session at the
 * session's end (re-run: the same session, not a second one), and failures that never block the
 * agent (exit 1, never 2).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { testCacheDir } from './cache-dir.js';
import { tempDir } from './helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');

function engram(dir: string, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, '--config', join(dir, 'engram.yaml'), ...args], {
    input,
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
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
});

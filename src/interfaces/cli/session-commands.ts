/**
 * The commands of sessions (§1.4): `sessions import FILE` (engram JSONL, a JSON array of chat
 * messages, a Claude Code session log, or a ChatGPT or Claude.ai data export; idempotent,
 * --dry-run checks only), `sessions list`,
 * `sessions show ID`, `sessions search QUERY` (turns of past conversations, never memories) and
 * `sessions purge ID --yes` (irreversible, audited).
 */
import { constants } from 'node:buffer';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

import type { Engram } from '../../app.js';
import { EngramError } from '../../domain/errors.js';
import {
  type ParsedTranscript,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
} from '../../transfer/transcripts.js';
import { EXIT_CODES } from '../error-codes.js';
import type { CommandSpec } from './command.js';
import { type GlobalOptions, reportError, withEngram } from './context.js';
import { change, CHANGE_OPTIONS, type ChangeFlags } from './memory-common.js';
import { printJson, println, show } from './output.js';
import { int } from './parse.js';
import type { ImportedSession } from './session-views.js';

const views = () => import('./session-views.js');

/** Sessions `sessions` given no subcommand lists. */
const STATUS_SESSIONS = 10;

/** Sessions sent to the service per call (a batch is validated record by record). */
const BATCH = 100;

type ImportFlags = { format: TranscriptFormat; agent?: string; dryRun?: boolean; tools: boolean };

/** Reads a transcript file ("-": stdin) as strict UTF-8. */
async function readTranscript(file: string): Promise<string> {
  const { decodeUtf8, invalidUtf8Offset } = await import('./utf8.js');
  let bytes: Buffer;
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    bytes = Buffer.concat(chunks);
  } else {
    if (!existsSync(file) || !statSync(file).isFile())
      throw new EngramError('INVALID_INPUT', `file ${file} does not exist or is not a file`, {
        field: 'file',
        rule: 'existing file',
      });
    bytes = readFileSync(file);
  }
  const decoded = decodeUtf8(bytes);
  if (decoded.ok) return decoded.text;
  // Valid UTF-8 that does not decode: more text than one string can hold (about 512 MiB).
  if (bytes.length > constants.MAX_STRING_LENGTH && invalidUtf8Offset(bytes) === -1)
    throw new EngramError(
      'PAYLOAD_TOO_LARGE',
      `file: too large to read at once (at most ${constants.MAX_STRING_LENGTH} characters)`,
      { field: 'file', rule: `at most ${constants.MAX_STRING_LENGTH} characters` },
    );
  throw new EngramError(
    'INVALID_INPUT',
    `not valid UTF-8: invalid byte at offset ${decoded.offset}`,
    {
      field: 'file',
      rule: 'UTF-8',
      offset: decoded.offset,
    },
  );
}

/** The first line number a ref names (`line 3`, `lines 2-9`), for file order. */
const lineOf = (ref: string) => Number(/\d+/u.exec(ref)?.[0] ?? 0);

/** Stores (or, dry, checks) the sessions read, in batches; every record gets a result. */
async function importParsed(
  engram: Engram,
  parsed: ParsedTranscript,
  o: ImportFlags,
  g: GlobalOptions,
): Promise<ImportedSession[]> {
  const out: ImportedSession[] = parsed.errors.map(({ code, message, field, ref }) => ({
    ref,
    ok: false,
    error: { code, message, field },
  }));
  for (let at = 0; at < parsed.records.length; at += BATCH) {
    const batch = parsed.records.slice(at, at + BATCH);
    const results = await engram.importSessions(
      batch.map((r) => r.value),
      { space: g.space, agent: o.agent, dry_run: o.dryRun ?? false },
    );
    for (const r of results) {
      const { index, ...rest } = r;
      out.push({ ref: batch[index]!.ref, ...rest });
    }
  }
  return out.sort((a, b) => lineOf(a.ref) - lineOf(b.ref));
}

const importCommand: CommandSpec<[string], ImportFlags> = {
  name: 'import <file>',
  description:
    'import past conversations ("-" for stdin): engram JSONL, a JSON array of chat messages, a Claude Code session log, or a ChatGPT or Claude.ai export (conversations.json); idempotent',
  options: [
    {
      flags: '--format <format>',
      description: 'transcript format (auto: tell from the file)',
      choices: TRANSCRIPT_FORMATS,
      default: 'auto',
    },
    {
      flags: '--agent <name>',
      description:
        'agent of sessions that name none (default for Claude Code logs: claude-code; ChatGPT and Claude.ai exports: chatgpt, claude)',
    },
    { flags: '--dry-run', description: 'read and check every session; store nothing' },
    {
      flags: '--no-tools',
      description: 'leave tool calls and results out (default: short "tool" turns)',
    },
  ],
  async run({ args: [file], options: o, globals: g }) {
    let text: string;
    try {
      text = await readTranscript(file);
    } catch (err) {
      process.exitCode = reportError(err, g.json ?? false);
      return;
    }
    await withEngram(g, false, async (engram) => {
      const { parseTranscript } = await import('../../transfer/transcripts.js');
      const parsed = parseTranscript(text, {
        format: o.format,
        agent: o.agent,
        file: file === '-' ? undefined : resolve(file),
        tools: o.tools,
      });
      const results = await importParsed(engram, parsed, o, g);
      const v = await views();
      const summary = v.importSummary(parsed.format, o.dryRun ?? false, results);
      if (g.json) printJson({ summary, results });
      else {
        for (const r of results)
          if (!r.ok) process.stderr.write(`engram: ${v.importErrorText(r)}\n`);
        println(v.importText(summary));
      }
      return summary.error > 0 ? EXIT_CODES.PARTIAL : 0;
    });
  },
};

const list: CommandSpec<[], { agent?: string; limit?: number; cursor?: string }> = {
  name: 'list',
  description: 'stored sessions, newest first (without their turns)',
  readsOnly: true,
  options: [
    { flags: '--agent <name>', description: 'only sessions of this agent' },
    { flags: '--limit <n>', description: 'sessions listed at most (default 50)', parse: int },
    { flags: '--cursor <cursor>', description: 'continue a previous listing' },
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const page = await engram.listSessions({ space: g.space, ...o });
      await show(g, page, async (p) => (await views()).listText(p));
    });
  },
};

const showCommand: CommandSpec<[string]> = {
  name: 'show <id>',
  description: 'one session with all its turns',
  readsOnly: true,
  async run({ args: [id], globals: g }) {
    await withEngram(g, false, async (engram) => {
      const session = await engram.getSession(id, { space: g.space });
      await show(g, session, async (s) => (await views()).sessionText(s));
    });
  },
};

const search: CommandSpec<[string[]], { agent?: string; limit?: number }> = {
  name: 'search <query...>',
  description: 'full-text search of past conversations, turn by turn (never memories)',
  readsOnly: true,
  options: [
    { flags: '--agent <name>', description: 'only sessions of this agent' },
    { flags: '-k, --limit <n>', description: 'turns returned at most (default 10)', parse: int },
  ],
  async run({ args: [words], options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const query = words.join(' ');
      const result = await engram.searchSessions({ query, space: g.space, ...o });
      await show(g, result, async (r) => (await views()).searchText(r));
    });
  },
};

const purge: CommandSpec<[string], ChangeFlags & { yes?: boolean }> = {
  name: 'purge <id>',
  description: 'irreversibly delete a session and its turns (an audit row is kept)',
  options: [
    ...CHANGE_OPTIONS,
    { flags: '--yes', description: 'confirm the irreversible deletion' },
  ],
  async run(call) {
    const [id] = call.args;
    if (!call.options.yes) {
      // Refused before the store opens: nothing is read or written without the confirmation.
      const refusal = new EngramError(
        'INVALID_INPUT',
        'purge is irreversible; add --yes to confirm',
        {
          field: 'yes',
          rule: '--yes',
        },
      );
      process.exitCode = reportError(refusal, call.globals.json ?? false);
      return;
    }
    await withEngram(call.globals, false, async (engram) => {
      const result = await engram.purgeSession(id, change(call));
      await show(call.globals, result, async (r) => (await views()).purgeText(r));
      return 0;
    });
  },
};

/** The session commands, in the order the help lists them. */
export const SESSION_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'sessions',
    description:
      'past conversations: import transcripts, list, show, search, purge (alone: the newest sessions)',
    readsOnly: true,
    commands: [importCommand, list, showCommand, search, purge],
    async run({ globals: g }) {
      await withEngram(g, false, async (engram) => {
        const page = await engram.listSessions({ space: g.space, limit: STATUS_SESSIONS });
        await show(g, page, async (p) => (await views()).listText(p));
      });
    },
  },
];

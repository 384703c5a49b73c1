/**
 * `engram hook`: commands an agent harness runs on its events, reading the event's JSON on stdin
 * (Claude Code's hook events, hook-payload.ts). `user-prompt` runs auto-recall (§6) for the
 * prompt and answers with the memories it surfaces as added context; `session-end` stores the
 * session's transcript as a session (§1.4), never as memories. A hook never blocks the agent:
 * a failure is reported on stderr with a non-blocking exit code (never 2, which a harness reads
 * as "block").
 *
 * With `--server URL` (or `$ENGRAM_URL`) a hook asks a running `engram serve` over HTTP instead of
 * opening the store itself: the process then loads neither the store, the embedder nor the
 * language model, which is most of a hook's time. When nothing answers at that address, the hook
 * says so on stderr and runs in its own process as without the option.
 */
import { readFileSync } from 'node:fs';

import type { EngramClient } from '../../client/index.js';
import { EngramError } from '../../domain/errors.js';
import { autoRecallStatus } from './autorecall-commands.js';
import type { CommandSpec, OptionSpec } from './command.js';
import { type GlobalOptions, reportError, withEngram } from './context.js';
import {
  type ContextItem,
  contextText,
  type HookEvent,
  parseHookEvent,
  userPromptAnswer,
} from './hook-payload.js';
import { printJson } from './output.js';
import { int } from './parse.js';
import { readStdin } from './stdin.js';

/** The exit code a harness reads as "block the prompt"; a hook's failure becomes 1 instead. */
const BLOCKING = 2;

function nonBlocking(): void {
  if (process.exitCode === BLOCKING) process.exitCode = 1;
}

/** Session inputs as the client types them. */
type ClientSessionRecords = Parameters<EngramClient['importSessions']>[0];

/** How long a hook waits for the server's answer before it gives up (and adds nothing). */
const SERVER_TIMEOUT_MS = 10_000;

const serverOption: OptionSpec = {
  flags: '--server <url>',
  description:
    'ask this running `engram serve` (http://HOST:PORT) instead of opening the store here (default: $ENGRAM_URL; its token from $ENGRAM_TOKEN)',
};

/** The hook's event from stdin, or undefined after reporting why it could not be read. */
async function readEvent(g: GlobalOptions): Promise<HookEvent | undefined> {
  try {
    return parseHookEvent(await readStdin());
  } catch (err) {
    process.exitCode = reportError(err, g.json ?? false);
    return undefined;
  }
}

/**
 * Runs a hook's action against the server at `url`. Returns false, having said so on stderr,
 * when nothing answered there (the caller then runs the hook in this process); true once the
 * action ran or failed with the server's answer, its exit code set.
 */
async function viaServer(
  g: GlobalOptions,
  url: string,
  action: (client: EngramClient) => Promise<number>,
): Promise<boolean> {
  if (!/^https?:\/\/[^/]/iu.test(url)) {
    const err = new EngramError(
      'INVALID_INPUT',
      `--server: must be an http(s) URL such as http://127.0.0.1:8765, got ${JSON.stringify(url)}`,
      { field: '--server', rule: 'an http(s) URL' },
    );
    process.exitCode = reportError(err, g.json ?? false);
    return true;
  }
  const { EngramClient, isEngramClientError } = await import('../../client/index.js');
  const { nodeFetch } = await import('./node-fetch.js');
  try {
    const client = new EngramClient({
      baseUrl: url,
      token: process.env.ENGRAM_TOKEN || undefined,
      space: g.space,
      fetch: nodeFetch,
      timeoutMs: SERVER_TIMEOUT_MS,
      retry: { attempts: 1 },
    });
    process.exitCode = await action(client);
    return true;
  } catch (err) {
    if (!isEngramClientError(err)) throw err;
    if (err.code === 'UNAVAILABLE' && err.status === 0) {
      process.stderr.write(`engram hook: ${err.message}; running in this process instead\n`);
      return false;
    }
    if (g.json) process.stderr.write(`${JSON.stringify({ error: err.toJSON() })}\n`);
    else process.stderr.write(`engram: ${err.message}\n`);
    process.exitCode = 1;
    return true;
  }
}

/** The server a hook asks: the option, else $ENGRAM_URL, else none. */
function serverOf(o: { server?: string }): string | undefined {
  return o.server ?? (process.env.ENGRAM_URL || undefined);
}

/** The sessions in the transcript a session-end event names, and what could not be read. */
async function readTranscript(
  event: HookEvent,
): Promise<{ records: Record<string, unknown>[]; problems: readonly unknown[] }> {
  if (!event.transcript)
    throw new EngramError('INVALID_INPUT', 'transcript_path: missing from the hook event', {
      field: 'transcript_path',
      rule: 'the path of the session log',
    });
  const { parseTranscript } = await import('../../transfer/transcripts.js');
  const parsed = parseTranscript(readFileSync(event.transcript, 'utf8'), {
    format: 'claude-code',
    file: event.transcript,
  });
  return { records: parsed.records.map((r) => r.value), problems: parsed.errors };
}

/** What a user-prompt hook answers for an auto-recall result; its exit code. */
function answerPrompt(
  result: { enabled: boolean; items: readonly ContextItem[] },
  maxChars: number,
): number {
  if (!result.enabled)
    process.stderr.write(
      'engram hook: auto-recall is off in this space (engram auto-recall configure --enable)\n',
    );
  const answer = userPromptAnswer(contextText(result.items, maxChars));
  if (answer) printJson(answer);
  return 0;
}

const userPrompt: CommandSpec<[], { maxChars: number; server?: string }> = {
  name: 'user-prompt',
  description:
    'on a user prompt (event JSON on stdin): auto-recall for it, answering the memories found as added context',
  options: [
    {
      flags: '--max-chars <n>',
      description: 'the most characters of context added (whole memories)',
      parse: int,
      default: 2_000,
    },
    serverOption,
  ],
  async run({ options: o, globals: g }) {
    const event = await readEvent(g);
    if (!event) return nonBlocking();
    const prompt = event.prompt?.trim() ? event.prompt : null;
    if (!prompt) return;
    const input = {
      message: prompt,
      ...(event.session && { conversation_id: event.session }),
      mode: 'subtle' as const,
    };
    const server = serverOf(o);
    const done =
      server !== undefined &&
      (await viaServer(g, server, async (client) =>
        answerPrompt(await client.processMessage(input), o.maxChars),
      ));
    if (!done) {
      // The model loads in a thread of its own while this one opens the store (the entry may
      // have started that thread already, see launch.ts).
      const { parseAhead } = await import('../../autorecall/parse-ahead.js');
      const parsed = parseAhead(prompt);
      await withEngram(g, true, async (engram) => {
        const ahead = await parsed;
        if (ahead) (await import('../../autorecall/nlp.js')).adoptParse(prompt, ahead);
        return answerPrompt(await engram.processMessage({ ...input, space: g.space }), o.maxChars);
      });
    }
    nonBlocking();
  },
};

const sessionEnd: CommandSpec<[], { server?: string }> = {
  name: 'session-end',
  description:
    'at the end of a session (event JSON on stdin): store its transcript (a Claude Code session log) as a session, never as memories',
  options: [serverOption],
  async run({ options: o, globals: g }) {
    const event = await readEvent(g);
    if (!event) return nonBlocking();
    let records: Record<string, unknown>[];
    let problems: readonly unknown[];
    try {
      ({ records, problems } = await readTranscript(event));
    } catch (err) {
      process.exitCode = reportError(err, g.json ?? false);
      return nonBlocking();
    }
    const report = (results: readonly { ok: boolean }[]): number => {
      const failed = [...problems, ...results.filter((r) => !r.ok)];
      for (const f of failed) process.stderr.write(`engram hook: ${JSON.stringify(f)}\n`);
      if (g.json) printJson({ results, errors: problems });
      return failed.length > 0 ? 1 : 0;
    };
    const server = serverOf(o);
    const done =
      server !== undefined &&
      (await viaServer(g, server, async (client) =>
        // The server checks each record, as the library does.
        report(await client.importSessions(records as unknown as ClientSessionRecords)),
      ));
    if (!done)
      await withEngram(g, false, async (engram) =>
        report(await engram.importSessions(records, { space: g.space })),
      );
    nonBlocking();
  },
};

/** `engram hook user-prompt | session-end`. */
export const HOOK_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'hook',
    description:
      "commands an agent harness runs on its events (Claude Code hooks; see docs/hooks.md; alone: auto-recall's stats and settings, which user-prompt follows)",
    readsOnly: true,
    commands: [userPrompt, sessionEnd],
    run: autoRecallStatus,
  },
];

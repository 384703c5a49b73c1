/**
 * `engram hook`: commands an agent harness runs on its events, reading the event's JSON on stdin
 * (Claude Code's hook events, hook-payload.ts). `user-prompt` runs auto-recall (§6) for the
 * prompt and answers with the memories it surfaces as added context; `session-end` stores the
 * session's transcript as a session (§1.4), never as memories. A hook never blocks the agent:
 * a failure is reported on stderr with a non-blocking exit code (never 2, which a harness reads
 * as "block").
 */
import { readFileSync } from 'node:fs';

import { EngramError } from '../../domain/errors.js';
import { autoRecallStatus } from './autorecall-commands.js';
import type { CommandSpec } from './command.js';
import { withEngram } from './context.js';
import { contextText, parseHookEvent, userPromptAnswer } from './hook-payload.js';
import { printJson } from './output.js';
import { int } from './parse.js';
import { readStdin } from './stdin.js';

/** The exit code a harness reads as "block the prompt"; a hook's failure becomes 1 instead. */
const BLOCKING = 2;

function nonBlocking(): void {
  if (process.exitCode === BLOCKING) process.exitCode = 1;
}

const userPrompt: CommandSpec<[], { maxChars: number }> = {
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
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, true, async (engram) => {
      const event = parseHookEvent(await readStdin());
      if (!event.prompt?.trim()) return 0;
      const r = await engram.processMessage({
        space: g.space,
        message: event.prompt,
        ...(event.session && { conversation_id: event.session }),
        mode: 'subtle',
      });
      if (!r.enabled)
        process.stderr.write(
          'engram hook: auto-recall is off in this space (engram auto-recall configure --enable)\n',
        );
      const answer = userPromptAnswer(contextText(r.items, o.maxChars));
      if (answer) printJson(answer);
      return 0;
    });
    nonBlocking();
  },
};

const sessionEnd: CommandSpec = {
  name: 'session-end',
  description:
    'at the end of a session (event JSON on stdin): store its transcript (a Claude Code session log) as a session, never as memories',
  async run({ globals: g }) {
    await withEngram(g, false, async (engram) => {
      const event = parseHookEvent(await readStdin());
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
      const results = await engram.importSessions(
        parsed.records.map((r) => r.value),
        { space: g.space },
      );
      const failed = [...parsed.errors, ...results.filter((r) => !r.ok)];
      for (const f of failed) process.stderr.write(`engram hook: ${JSON.stringify(f)}\n`);
      if (g.json) printJson({ results, errors: parsed.errors });
      return failed.length > 0 ? 1 : 0;
    });
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

/**
 * The commands of auto-recall: `auto-recall analyze|process MESSAGE`, `configure` and `stats`.
 * Each calls one service method and prints the result or the service's JSON.
 */
import { EngramError } from '../../domain/errors.js';
import type { CommandSpec } from './command.js';
import { withEngram } from './context.js';
import { printJson, println, show } from './output.js';
import { collect, int, num, repeat } from './parse.js';
import { readStdinText } from './stdin.js';

const views = () => import('./autorecall-views.js');

async function messageArg(message: string): Promise<string> {
  return message === '-' ? readStdinText() : message;
}

/** Prints lines, or the value's JSON with --json. */
async function printLines<T>(
  json: boolean | undefined,
  value: T,
  lines: (value: T) => Promise<string[]>,
): Promise<void> {
  if (json) return printJson(value);
  for (const line of await lines(value)) println(line);
}

const HISTORY_OPTION = {
  flags: '--history <text>',
  description: 'an earlier message of the conversation (repeatable, oldest first)',
  parse: repeat,
};

const analyze: CommandSpec<[string], { history?: string[]; conversation?: string }> = {
  name: 'analyze <message>',
  description: 'topics, entities, key phrases and whether to recall ("-" reads stdin)',
  readsOnly: true,
  options: [
    HISTORY_OPTION,
    {
      flags: '--conversation <id>',
      description: 'use the recent topics recorded for this conversation',
    },
  ],
  async run({ args: [message], options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const a = await engram.analyzeForRecall({
        space: g.space,
        message: await messageArg(message),
        history: o.history,
        conversation_id: o.conversation,
      });
      await printLines(g.json, a, async (x) => (await views()).analysisLines(x));
    });
  },
};

type ProcessFlags = {
  history?: string[];
  conversation?: string;
  mode?: string;
  contextTag?: string[];
};

const processCommand: CommandSpec<[string], ProcessFlags> = {
  name: 'process <message>',
  description:
    'run auto-recall for one message: analyse, search, surface by mode, reinforce ("-" reads stdin)',
  options: [
    HISTORY_OPTION,
    {
      flags: '--conversation <id>',
      description: 'conversation id (recent topics and the cooldown are kept per conversation)',
    },
    { flags: '--mode <mode>', description: 'silent, subtle or interactive, for this call only' },
    {
      flags: '--context-tag <tag>',
      description: 'tags of the conversation context (repeatable)',
      parse: collect,
    },
  ],
  async run({ args: [message], options: o, globals: g }) {
    await withEngram(g, true, async (engram) => {
      const r = await engram.processMessage({
        space: g.space,
        message: await messageArg(message),
        history: o.history,
        conversation_id: o.conversation,
        mode: o.mode as never,
        context_tags: o.contextTag,
      });
      await show(g, r, async (x) => (await views()).recallText(x));
    });
  },
};

type ConfigureFlags = {
  enable?: boolean;
  disable?: boolean;
  mode?: string;
  threshold?: number;
  maxResults?: number;
  minInterval?: number;
};

const configure: CommandSpec<[], ConfigureFlags> = {
  name: 'configure',
  description: 'change auto-recall settings (persisted in the store); prints the settings',
  options: [
    { flags: '--enable', description: 'turn auto-recall on' },
    { flags: '--disable', description: 'turn auto-recall off' },
    { flags: '--mode <mode>', description: 'silent, subtle or interactive' },
    { flags: '--threshold <0..1>', description: 'relevance threshold', parse: num },
    { flags: '--max-results <n>', description: 'at most this many related memories', parse: int },
    {
      flags: '--min-interval <seconds>',
      description: 'per-conversation cooldown between recalls',
      parse: num,
    },
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      if (o.enable && o.disable)
        throw new EngramError('INVALID_INPUT', 'enabled: give --enable or --disable, not both', {
          field: 'enabled',
          rule: 'one of --enable, --disable',
        });
      const settings = await engram.configureAutoRecall({
        space: g.space,
        enabled: o.enable ? true : o.disable ? false : undefined,
        mode: o.mode as never,
        relevance_threshold: o.threshold,
        max_results: o.maxResults,
        min_interval_s: o.minInterval,
      });
      await printLines(g.json, settings, async (s) => (await views()).settingsLines(s));
    });
  },
};

const stats: CommandSpec<[]> = {
  name: 'stats',
  description:
    'auto-recall and lifecycle metrics: items kept by reinforcement, reinforcements, cross-domain uses',
  readsOnly: true,
  async run({ globals: g }) {
    await withEngram(g, false, async (engram) => {
      const s = await engram.autoRecallStats({ space: g.space });
      await printLines(g.json, s, async (x) => (await views()).statsLines(x));
    });
  },
};

/** Prints auto-recall's stats and settings: the status of `auto-recall` and of `hook`. */
export const autoRecallStatus = stats.run!;

/** `engram auto-recall ...`. */
export const AUTORECALL_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'auto-recall',
    description:
      'conversation-time recall: analyse messages, surface or reinforce related memories (alone: its stats)',
    readsOnly: true,
    commands: [analyze, processCommand, configure, stats],
    run: stats.run,
  },
];

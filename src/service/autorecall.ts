/**
 * Facade for auto-recall (§6): analyse a message, recall for it by mode, and its settings; and
 * auto-recall on writes: the related memories a single `remember` returns, within
 * `auto_recall.related_budget_ms`. The engine module loads only when a space's settings ask for
 * it, so a write with auto-recall off reads one setting and loads nothing.
 */
import type { HistoryMessage, RecallAnalysis } from '../autorecall/analyze.js';
import type { AutoRecall, AutoRecallResult, AutoRecallStats } from '../autorecall/engine.js';
import type { AnalyzeInput, ProcessMessageInput } from '../autorecall/input.js';
import {
  type AutoRecallSettings,
  type ConfigureAutoRecallInput,
  effectiveSettings,
  SETTINGS_KEY,
} from '../config/autorecall-settings.js';
import { embeddingText } from '../domain/text.js';
import type { Memory, RelatedFields } from '../domain/types.js';
import {
  objectArg,
  optionalArrayArg,
  optionalStringArg,
  optionsArg,
  stringOrObjectArg,
} from './args.js';
import type { ServiceContext } from './context.js';

/** The auto-recall facade. */
export interface AutoRecallFacade {
  /** Analyses a message for auto-recall: topics, entities, key phrases, trigger decision (§6). */
  analyzeForRecall(
    input: AnalyzeInput | string,
    history?: HistoryMessage[],
  ): Promise<RecallAnalysis>;
  /** Auto-recall for one conversation message (§6): analyse, search, surface by mode, reinforce. */
  processMessage(
    input: ProcessMessageInput | string,
    history?: HistoryMessage[],
    conversationId?: string,
  ): Promise<AutoRecallResult>;
  /** Changes auto-recall settings at run time; persisted in the store per space. */
  configureAutoRecall(input: ConfigureAutoRecallInput): Promise<AutoRecallSettings>;
  /** The effective auto-recall settings of a space. */
  autoRecallSettings(options?: { space?: string }): Promise<AutoRecallSettings>;
  /** Auto-recall and lifecycle metrics (§6): rescued items, reinforcements, cross-domain uses. */
  autoRecallStats(options?: { space?: string }): Promise<AutoRecallStats>;
  /**
   * Loads auto-recall and its analysis model when a `remember` in the space (with `related` as
   * given) returns related memories, so the first one fits its budget; false, loading nothing,
   * when it does not. A process that writes once (the CLI) calls it before writing.
   */
  prepareAutoRecall(options?: { space?: string; related?: boolean }): Promise<boolean>;
}

/** The auto-recall facade over the auto-recall engine, which it gets on first use. */
export function autoRecallFacade(
  ctx: ServiceContext,
  engine: () => Promise<AutoRecall>,
): AutoRecallFacade {
  return {
    async analyzeForRecall(input, history) {
      checkMessage(input, history);
      return (await engine()).analyze(
        typeof input === 'string' ? { message: input, history } : input,
      );
    },
    async processMessage(input, history, conversationId) {
      checkMessage(input, history);
      optionalStringArg(conversationId, 'conversation_id');
      return (await engine()).process(
        typeof input === 'string'
          ? { message: input, history, conversation_id: conversationId }
          : input,
      );
    },
    configureAutoRecall: async (input) => (await engine()).configure(objectArg(input, 'input')),
    autoRecallSettings: async (options) => (await engine()).settings(optionsArg(options).space),
    autoRecallStats: async (options) => (await engine()).stats(optionsArg(options).space),
    async prepareAutoRecall(given) {
      const options = optionsArg(given);
      const space = ctx.space(options.space);
      if (!relatedApplies(await readSettings(ctx, space), options.related ?? false)) return false;
      await (await engine()).prepare(space);
      return true;
    },
  };
}

/** The shapes of a message argument (a string or the full input) and its history. */
function checkMessage(input: unknown, history: readonly HistoryMessage[] | undefined): void {
  stringOrObjectArg(input, 'input');
  optionalArrayArg(history, 'history');
}

/**
 * What a single write asks of auto-recall: called with the write's space and its `related` flag
 * before the write (the settings are read beside it), it returns what adds the related fields to
 * the stored memory.
 */
export type WriteRelated = (
  space: string,
  asked: boolean,
) => (memory: Memory) => Promise<RelatedFields>;

/** The effective settings of a space, read without loading the auto-recall engine. */
async function readSettings(ctx: ServiceContext, space: string): Promise<AutoRecallSettings> {
  return effectiveSettings(ctx.config, await ctx.store.lifecycle?.getSetting(space, SETTINGS_KEY));
}

/** Related memories come with a write in subtle mode, and in interactive mode when asked. */
function relatedApplies(settings: AutoRecallSettings, asked: boolean): boolean {
  if (!settings.enabled) return false;
  return settings.mode === 'subtle' || (settings.mode === 'interactive' && asked);
}

/** Waits for work at most `ms`; null when the time ran out first. */
async function within<T>(work: Promise<T>, ms: number): Promise<{ value: T } | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([work.then((value) => ({ value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Auto-recall on writes: the related memories of a written memory within the space's budget.
 * Past the budget the write returns `related_skipped: 'budget_exceeded'` and the search finishes
 * unseen; a failed search is logged and leaves the write's answer as it was.
 */
export function writeRelated(ctx: ServiceContext, engine: () => Promise<AutoRecall>): WriteRelated {
  return (space, asked) => {
    const settings = readSettings(ctx, space).catch((err: unknown) => {
      ctx.log.warn('auto-recall settings unreadable; write returned without related memories', {
        error: String(err),
      });
      return null;
    });
    return async (memory) => {
      const s = await settings;
      if (!s || !relatedApplies(s, asked)) return {};
      const budget = ctx.config.auto_recall.related_budget_ms;
      if (budget === 0) return { related_skipped: 'budget_exceeded' };
      const started = performance.now();
      const work = engine()
        .then((e) => e.relatedToWrite(space, embeddingText(memory), memory.id, { settings: s }))
        .catch((err: unknown) => {
          ctx.log.warn('related memories of a write failed', { error: String(err) });
          return {} as RelatedFields;
        });
      const done = await within(work, budget);
      if (!done?.value || performance.now() - started > budget)
        return { related_skipped: 'budget_exceeded' };
      return done.value;
    };
  };
}

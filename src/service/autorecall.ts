/** Facade for auto-recall (§6): analyse a message, recall for it by mode, and its settings. */
import type { HistoryMessage, RecallAnalysis } from '../autorecall/analyze.js';
import type { AutoRecall, AutoRecallResult, AutoRecallStats } from '../autorecall/engine.js';
import type { AnalyzeInput, ProcessMessageInput } from '../autorecall/input.js';
import type {
  AutoRecallSettings,
  ConfigureAutoRecallInput,
} from '../config/autorecall-settings.js';

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
}

/** The auto-recall facade over the auto-recall engine, which it gets on first use. */
export function autoRecallFacade(engine: () => Promise<AutoRecall>): AutoRecallFacade {
  return {
    analyzeForRecall: async (input, history) =>
      (await engine()).analyze(typeof input === 'string' ? { message: input, history } : input),
    processMessage: async (input, history, conversationId) =>
      (await engine()).process(
        typeof input === 'string'
          ? { message: input, history, conversation_id: conversationId }
          : input,
      ),
    configureAutoRecall: async (input) => (await engine()).configure(input),
    autoRecallSettings: async (options = {}) => (await engine()).settings(options.space),
    autoRecallStats: async (options = {}) => (await engine()).stats(options.space),
  };
}

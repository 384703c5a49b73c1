/**
 * The auto-recall engine (§6): analyse a conversation message, decide whether to look, search
 * memory (keyword + semantic, no access accounting: nothing here is an ordinary recall), keep the
 * items above the relevance threshold, surface them by mode, and in silent mode reinforce them as
 * use events. A per-conversation cooldown keeps it from searching on every turn.
 */
import {
  type AutoRecallMode,
  type AutoRecallSettings,
  type ConfigureAutoRecallInput,
  configureInputSchema,
  effectiveSettings,
  SETTINGS_KEY,
} from '../config/autorecall-settings.js';
import type { Config } from '../config/schema.js';
import type { Degradation, Kind, RelatedFields, Status } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import type { QueryEmbedding } from '../embed/embedder.js';
import type { Lifecycle, LifecycleMetrics } from '../lifecycle/lifecycle.js';
import { type ConversationState, requireLifecycle } from '../store/lifecycle-store.js';
import type { Store } from '../store/store.js';
import { analyzeMessage, type HistoryMessage, type RecallAnalysis, topicStems } from './analyze.js';
import {
  type AnalyzeInput,
  type AutoRecallSchemas,
  autoRecallSchemas,
  type ProcessMessageInput,
} from './input.js';
import { loadNlp, nlpLoaded } from './nlp.js';
import { label, relatedToText } from './related.js';
import { type Found, RelatedSearch } from './search.js';

/** What the engine is wired with. */
export interface AutoRecallDeps {
  config: Config;
  store: Store;
  vectors: QueryEmbedding;
  lifecycle: Lifecycle;
  now: () => number;
  space: (space: string | undefined) => string;
}

/** A memory surfaced in subtle mode. */
export interface AutoRecallItem {
  id: string;
  kind: Kind;
  area: string;
  title: string | null;
  body: string;
  relevance: number;
  status: Status;
  importance: number;
  updated_at: string;
}

/** A short handle of a memory in interactive mode: fetch it with `get` when the user asks. */
export interface AutoRecallHandle {
  id: string;
  label: string;
  relevance: number;
}

/** Why no search ran, beyond the analysis' own reasons. */
export type SkipReason = 'disabled' | 'cooldown';

/** The result of process_message. */
export interface AutoRecallResult {
  enabled: boolean;
  mode: AutoRecallMode;
  triggered: boolean;
  reason: RecallAnalysis['trigger']['reason'] | SkipReason;
  analysis: RecallAnalysis;
  /** Seconds left of the conversation's cooldown, when that is why nothing ran. */
  cooldown_remaining_s?: number;
  /** Candidates judged for relevance. */
  considered: number;
  /** subtle: the related items; silent and interactive: empty. */
  items: AutoRecallItem[];
  /** interactive: the number found and their handles; subtle: the number; silent: 0. */
  count: number;
  handles: AutoRecallHandle[];
  /** A sentence the agent may say (interactive: "I found 3 related memories"). */
  summary: string | null;
  /** silent: how many items were reinforced. */
  reinforced: number;
  degraded: Degradation[];
  timings_ms: Record<string, number>;
}

/** What `auto-recall stats` shows. */
export interface AutoRecallStats extends LifecycleMetrics {
  space: string;
  settings: AutoRecallSettings;
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function historyText(h: HistoryMessage): string {
  return typeof h === 'string' ? h : h.text;
}

/** The text of the search `prepare` runs to bring a space's indexes into memory. */
const WARM_UP = 'what do we know about this project';

/** Auto-recall over one service. */
export class AutoRecall {
  private readonly schemas: AutoRecallSchemas;
  private readonly related: RelatedSearch;
  private warming = false;

  constructor(private readonly deps: AutoRecallDeps) {
    this.schemas = autoRecallSchemas(deps.config);
    this.related = new RelatedSearch(deps);
  }

  private get lifecycleStore() {
    return requireLifecycle(this.deps.store);
  }

  /** The effective settings of a space (configuration defaults + persisted changes). */
  async settings(space?: string): Promise<AutoRecallSettings> {
    const s = this.deps.space(space);
    return effectiveSettings(
      this.deps.config,
      await this.lifecycleStore.getSetting(s, SETTINGS_KEY),
    );
  }

  /** Changes the settings of a space and persists them; returns the effective settings. */
  async configure(input: ConfigureAutoRecallInput): Promise<AutoRecallSettings> {
    const { space: raw, ...patch } = parseWith(configureInputSchema, input);
    const space = this.deps.space(raw);
    const stored = ((await this.lifecycleStore.getSetting(space, SETTINGS_KEY)) ?? {}) as object;
    const next = {
      ...stored,
      ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    };
    await this.lifecycleStore.putSetting(space, SETTINGS_KEY, next, this.deps.now());
    return effectiveSettings(this.deps.config, next);
  }

  private async historyTopics(
    space: string,
    history: readonly HistoryMessage[] | undefined,
    conversationId: string | undefined,
  ): Promise<{ topics: string[][]; state: ConversationState | undefined }> {
    const state = conversationId
      ? await this.lifecycleStore.conversation(space, conversationId)
      : undefined;
    const window = this.deps.config.auto_recall.history_window;
    if (history)
      return {
        topics: window ? history.slice(-window).map((h) => topicStems(historyText(h))) : [],
        state,
      };
    return { topics: (state?.topics ?? []).slice(-window), state };
  }

  /** Analyses a message (`analyze_for_recall`): topics, entities, key phrases, trigger decision. */
  async analyze(input: AnalyzeInput): Promise<RecallAnalysis> {
    const req = parseWith(this.schemas.analyze, input);
    const space = this.deps.space(req.space);
    const { topics } = await this.historyTopics(space, req.history, req.conversation_id);
    return analyzeMessage(req.message, topics);
  }

  /** Runs the whole auto-recall pipeline for one message (`process_message`). */
  async process(input: ProcessMessageInput): Promise<AutoRecallResult> {
    const started = performance.now();
    const req = parseWith(this.schemas.process, input);
    const space = this.deps.space(req.space);
    const settings = await this.settings(space);
    const mode = req.mode ?? settings.mode;
    const { topics, state } = await this.historyTopics(space, req.history, req.conversation_id);
    const analysis = analyzeMessage(req.message, topics);
    const timings: Record<string, number> = { analyze: round(performance.now() - started) };
    const result = this.emptyResult(settings.enabled, mode, analysis, timings);
    if (!settings.enabled) return this.finish({ ...result, reason: 'disabled' }, started);
    const now = this.deps.now();
    const remember = (recalled: boolean) =>
      this.saveConversation(space, req.conversation_id, state, analysis, recalled ? now : null);
    if (!analysis.trigger.should_recall) {
      await remember(false);
      return this.finish(result, started);
    }
    const remaining = this.cooldownLeft(state, settings, now);
    if (remaining > 0) {
      await remember(false);
      return this.finish(
        { ...result, reason: 'cooldown', cooldown_remaining_s: round(remaining, 1) },
        started,
      );
    }
    const t = performance.now();
    const { found, considered, degraded } = await this.related.find(
      space,
      req.message,
      analysis,
      settings,
    );
    timings.search = round(performance.now() - t);
    const surfaced = await this.surface(mode, found, {
      space,
      conversation_id: req.conversation_id,
      context_tags: req.context_tags ?? analysis.topics.slice(0, 5),
      context_area: req.context_area,
    });
    await remember(found.length > 0);
    return this.finish({ ...result, ...surfaced, triggered: true, considered, degraded }, started);
  }

  private emptyResult(
    enabled: boolean,
    mode: AutoRecallMode,
    analysis: RecallAnalysis,
    timings: Record<string, number>,
  ): AutoRecallResult {
    return {
      enabled,
      mode,
      triggered: false,
      reason: analysis.trigger.reason,
      analysis,
      considered: 0,
      items: [],
      count: 0,
      handles: [],
      summary: null,
      reinforced: 0,
      degraded: [],
      timings_ms: timings,
    };
  }

  private finish(result: AutoRecallResult, started: number): AutoRecallResult {
    result.timings_ms.total = round(performance.now() - started);
    return result;
  }

  private cooldownLeft(
    state: ConversationState | undefined,
    settings: AutoRecallSettings,
    now: number,
  ): number {
    if (!state || state.last_recall_at === null) return 0;
    return settings.min_interval_s - (now - state.last_recall_at) / 1000;
  }

  private async saveConversation(
    space: string,
    conversationId: string | undefined,
    state: ConversationState | undefined,
    analysis: RecallAnalysis,
    recalledAt: number | null,
  ): Promise<void> {
    if (!conversationId) return;
    const window = Math.max(1, this.deps.config.auto_recall.history_window);
    await this.lifecycleStore.putConversation({
      space,
      conversation_id: conversationId,
      topics: [...(state?.topics ?? []), analysis.topic_stems].slice(-window),
      last_recall_at: recalledAt ?? state?.last_recall_at ?? null,
      updated_at: this.deps.now(),
    });
  }

  private async surface(
    mode: AutoRecallMode,
    found: readonly Found[],
    context: {
      space: string;
      conversation_id?: string;
      context_tags: string[];
      context_area?: string;
    },
  ): Promise<Pick<AutoRecallResult, 'items' | 'count' | 'handles' | 'summary' | 'reinforced'>> {
    const n = found.length;
    if (mode === 'subtle')
      return {
        items: found.map(({ item, relevance }) => ({
          id: item.id,
          kind: item.kind,
          area: item.area,
          title: item.title,
          body: item.body,
          relevance: round(relevance, 4),
          status: item.status,
          importance: item.importance,
          updated_at: new Date(item.updated_at).toISOString(),
        })),
        count: n,
        handles: [],
        summary: null,
        reinforced: 0,
      };
    if (mode === 'interactive')
      return {
        items: [],
        count: n,
        handles: found.map(({ item, relevance }) => ({
          id: item.id,
          label: label(item),
          relevance: round(relevance, 4),
        })),
        summary: n ? `I found ${n} related ${n === 1 ? 'memory' : 'memories'}` : null,
        reinforced: 0,
      };
    const reinforced = n
      ? (
          await this.deps.lifecycle.observe(
            {
              space: context.space,
              memory_ids: found.map((f) => f.item.id),
              context_tags: context.context_tags,
              context_area: context.context_area,
              conversation_id: context.conversation_id,
            },
            'auto_recall',
          )
        ).applied
      : 0;
    return { items: [], count: 0, handles: [], summary: null, reinforced };
  }

  /**
   * The memories a write's text is related to (§6 on writes), without `excludeId` (the written
   * memory): handles and a hint. No cooldown, access accounting or reinforcement. Null while the
   * analysis model is not loaded: loading it takes longer than a write may wait, so it loads
   * after this write instead (see `prepare`).
   */
  async relatedToWrite(
    space: string | undefined,
    text: string,
    excludeId: string,
    options: { settings?: AutoRecallSettings } = {},
  ): Promise<RelatedFields | null> {
    const s = this.deps.space(space);
    if (!nlpLoaded()) {
      this.prepareLater(s);
      return null;
    }
    const settings = options.settings ?? (await this.settings(s));
    return relatedToText(this.related, s, text, excludeId, settings);
  }

  /**
   * Loads the analysis model (once per process) and runs one search in the space, so its indexes
   * are in memory: the next message or write pays no cold start.
   */
  async prepare(space?: string): Promise<void> {
    loadNlp();
    const s = this.deps.space(space);
    await this.related.find(s, WARM_UP, analyzeMessage(WARM_UP, []), await this.settings(s));
  }

  private prepareLater(space: string): void {
    if (this.warming) return;
    this.warming = true;
    setTimeout(() => void this.prepare(space).catch(() => undefined), 0).unref();
  }

  /** Auto-recall and lifecycle metrics of a space. */
  async stats(space?: string): Promise<AutoRecallStats> {
    const s = this.deps.space(space);
    return {
      space: s,
      settings: await this.settings(s),
      ...(await this.deps.lifecycle.metrics(s)),
    };
  }
}

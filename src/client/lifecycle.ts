/**
 * Lifecycle, auto-recall and dormant recall over HTTP, with the library's method names and
 * answers: maintenance, the review list and its actions, usage reports; auto-recall for a message,
 * its analysis, settings and stats; the dormant-recall review log; a space's settings and insights.
 */
import { type Calls, fields, seg } from './calls.js';
import type { BodyOf, ChangeOptions, Schemas, SpaceOptions } from './types.js';

type Space = '/v1/spaces/{space}';
/** A message of a conversation's history: its text, or its role and text. */
export type HistoryMessage = string | { role?: string; text: string };
/** An auto-recall request for one message (`POST /auto-recall`). */
export type ProcessMessageInput = BodyOf<`${Space}/auto-recall`, 'post'> & SpaceOptions;
/** An analysis request for one message (`POST /auto-recall/analyze`). */
export type AnalyzeInput = BodyOf<`${Space}/auto-recall/analyze`, 'post'> & SpaceOptions;
/** A change of auto-recall settings (`PATCH /auto-recall/settings`). */
export type ConfigureAutoRecallInput = BodyOf<`${Space}/auto-recall/settings`, 'patch'> &
  SpaceOptions;
/** A usage report (`POST /observe`): the memories used, and the context they were used in. */
export type ObserveInput = BodyOf<`${Space}/observe`, 'post'> & SpaceOptions;
/** Options of a maintenance run (`POST /maintain`): `dry_run`, `list_limit`. */
export type MaintainInput = NonNullable<BodyOf<`${Space}/maintain`, 'post'>> & SpaceOptions;
/** A review action: reinforce (a use), revise (a new version) or let go (archived). */
export type ReviewAction = BodyOf<`${Space}/review/{id}`, 'post'>['action'];
/** Feedback on a dormant-recall event. */
export type DormantFeedbackInput = { event_id: string } & BodyOf<
  `${Space}/dormant/events/{event_id}/feedback`,
  'post'
> &
  SpaceOptions;

/** The lifecycle, auto-recall, dormant, settings and insights methods of EngramClient. */
export interface LifecycleMethods {
  /** Runs the decay job of the space (admin role); with `dry_run` a preview that writes nothing. */
  maintain(options?: MaintainInput): Promise<Schemas['MaintenanceReport']>;
  /** Memories in the review window, highest priority first. */
  review(options?: { limit?: number } & SpaceOptions): Promise<Schemas['ReviewList']>;
  /** A review action on one memory. */
  reviewAction(
    id: string,
    action: ReviewAction,
    options?: ChangeOptions & { body?: string; title?: string },
  ): Promise<Schemas['Memory']>;
  /** Records that memories were used (reinforcement); unknown ids fail alone. */
  observeMemoryUsage(
    input: ObserveInput | readonly string[],
    contextTags?: readonly string[],
  ): Promise<Schemas['ObserveResult']>;
  /** Auto-recall for one conversation message: analyse, search, surface by mode, reinforce. */
  processMessage(
    input: ProcessMessageInput | string,
    history?: HistoryMessage[],
    conversationId?: string,
  ): Promise<Schemas['AutoRecallResult']>;
  /** Topics, entities, key phrases and the recall decision for a message. */
  analyzeForRecall(
    input: AnalyzeInput | string,
    history?: HistoryMessage[],
  ): Promise<Schemas['RecallAnalysis']>;
  /** Changes auto-recall settings of the space (persisted); answers the effective settings. */
  configureAutoRecall(input: ConfigureAutoRecallInput): Promise<Schemas['AutoRecallSettings']>;
  /** The effective auto-recall settings of a space. */
  autoRecallSettings(options?: SpaceOptions): Promise<Schemas['AutoRecallSettings']>;
  /** Auto-recall and lifecycle metrics of a space. */
  autoRecallStats(options?: SpaceOptions): Promise<Schemas['AutoRecallStats']>;
  /** Newest dormant-recall review-log events of a space: metadata only. */
  dormantReview(input?: { limit?: number } & SpaceOptions): Promise<Schemas['DormantReview']>;
  /** An event's memory as it is now, with its evidence; marks it shown. */
  dormantInspect(
    input: ({ event_id: string } & SpaceOptions) | string,
  ): Promise<Schemas['DormantInspection']>;
  /** Feedback on a dormant event: useful, irrelevant or dismissed. */
  dormantFeedback(input: DormantFeedbackInput): Promise<Schemas['DormantFeedbackResult']>;
  /** The settings of a space, each with its source and whether it can change at run time. */
  settings(options?: SpaceOptions): Promise<Schemas['SettingsView']>;
  /** Changes runtime settings of a space (`null` resets a key; admin role). */
  changeSettings(
    change: Schemas['SettingsChange'],
    options?: SpaceOptions,
  ): Promise<Schemas['SettingsView']>;
  /** Counts of a space over the last `days` UTC days, strengths, and recall latency. */
  insights(options?: { days?: number } & SpaceOptions): Promise<Schemas['Insights']>;
}

/** The lifecycle, auto-recall, dormant, settings and insights methods over the given calls. */
export function lifecycleMethods(calls: Calls): LifecycleMethods {
  const post = <T>(path: string, input: SpaceOptions | undefined, body: object) =>
    calls.inSpace<T>(input, { method: 'POST', path, body });
  const get = <T>(path: string, options: SpaceOptions | undefined) =>
    calls.inSpace<T>(options, { method: 'GET', path, query: fields(options) });
  return {
    maintain: (options) => post('/maintain', options, fields(options)),
    review: (options) => get('/review', options),
    reviewAction: (id, action, options) =>
      post(`/review/${seg(id)}`, options, { ...fields(options), action }),
    observeMemoryUsage: (input, contextTags) =>
      isList(input)
        ? post('/observe', undefined, { memory_ids: input, context_tags: contextTags })
        : post('/observe', input, fields(input)),
    processMessage: (input, history, conversationId) =>
      typeof input === 'string'
        ? post('/auto-recall', undefined, {
            message: input,
            history,
            conversation_id: conversationId,
          })
        : post('/auto-recall', input, fields(input)),
    analyzeForRecall: (input, history) =>
      typeof input === 'string'
        ? post('/auto-recall/analyze', undefined, { message: input, history })
        : post('/auto-recall/analyze', input, fields(input)),
    configureAutoRecall: (input) =>
      calls.inSpace(input, { method: 'PATCH', path: '/auto-recall/settings', body: fields(input) }),
    autoRecallSettings: (options) => get('/auto-recall/settings', options),
    autoRecallStats: (options) => get('/auto-recall/stats', options),
    dormantReview: (input) => get('/dormant/events', input),
    dormantInspect: (input) => {
      const given = typeof input === 'string' ? { event_id: input } : input;
      return calls.inSpace(given, {
        method: 'POST',
        path: `/dormant/events/${seg(given.event_id)}/inspect`,
      });
    },
    dormantFeedback: (input) => {
      const { event_id, ...body } = fields(input);
      return post(`/dormant/events/${seg(event_id)}/feedback`, input, body);
    },
    settings: (options) => get('/settings', options),
    changeSettings: (change, options) =>
      calls.inSpace(options, { method: 'PATCH', path: '/settings', body: change }),
    insights: (options) => get('/insights', options),
  };
}

function isList(input: ObserveInput | readonly string[]): input is readonly string[] {
  return Array.isArray(input);
}

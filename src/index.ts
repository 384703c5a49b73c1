/** engram's public API: createEngram and the types callers use. Explicit exports only. */
export {
  assembleEngram,
  createEngram,
  type CreateEngramOptions,
  type Engram,
  type EngramParts,
  /** The engram service under its earlier name. */
  type Engram as MemoryService,
} from './app.js';
export {
  defaultCacheDir,
  defaultDataDir,
  loadConfig,
  type LoadConfigOptions,
} from './config/load.js';
export { type Config, type ConfigInput, configSchema } from './config/schema.js';
export { EngramError, type ErrorCode, isEngramError } from './domain/errors.js';
export {
  EDGE_TYPES,
  type EdgeType,
  ENTITY_TYPES,
  type EntityInfo,
  type EntityType,
  type GraphStats,
  type NeighborInfo,
} from './domain/graph.js';
export type { ListRequest, RecallRequest, RememberInput, ReviseInput } from './domain/input.js';
export { type Logger, silentLogger, stderrLogger } from './domain/log.js';
export {
  type Session,
  type SessionHit,
  type SessionImportResult,
  type SessionInput,
  type SessionListRequest,
  type SessionPage,
  type SessionPurge,
  type SessionSearchRequest,
  type SessionSource,
  type SessionSummary,
  type Turn,
  TURN_ROLES,
  type TurnRole,
} from './domain/sessions.js';
export type {
  BatchResult,
  ChannelName,
  Decision,
  Degradation,
  History,
  HitChannels,
  Kind,
  Memory,
  RecallHit,
  RecallResponse,
  Relation,
  RelationType,
  RememberResult,
  Source,
  Status,
  StatusEvent,
  Version,
} from './domain/types.js';
export { CHANNELS, KINDS, RELATION_TYPES, STATUSES } from './domain/types.js';
export type { CalibrationReport, Distribution } from './dormant/calibrate.js';
export type {
  DormantCalibrateInput,
  DormantFeedbackInput,
  DormantInspectInput,
  DormantReviewInput,
} from './dormant/input.js';
export type {
  DormantEvent,
  DormantFeedbackResult,
  DormantInspection,
  DormantReview,
} from './dormant/views.js';
export type { Embedder, EmbedderState } from './embed/embedder.js';
export type {
  EntitiesRequest,
  HubsRequest,
  NeighborsRequest,
  NeighborsResult,
  RebuildRequest,
} from './graph/graph-api.js';
export type { Anchor, ClusterSuggestion, HubEntry, HubReport } from './graph/hubs.js';
export type { RebuildReport } from './graph/maintainer.js';
export {
  IMPORT_FORMATS,
  type ImportFormat,
  MARKDOWN_SPLITS,
  type MarkdownSplit,
  USER_MAPPINGS,
  type UserMapping,
} from './importers/importer.js';
export {
  checkImport,
  importFrom,
  type ImportOutcome,
  type ImportRequest,
  type ImportResult,
  type ImportSummary,
  type ImportTarget,
  type RelationTotals,
} from './importers/run.js';
export type { ChangeOptions } from './service/context.js';
export type { ServiceHealth, ServiceStatus } from './service/models.js';
export type { SessionImportOptions, SessionSearchResult } from './service/sessions.js';
export type { WriteSession, WriteSessionOptions } from './service/write-sessions.js';
export { DORMANT_KINDS } from './store/dormant/profile.js';
export {
  DORMANT_FEEDBACK,
  type DormantFeedback,
  type DormantStore,
} from './store/dormant-store.js';
export {
  type ParsedTranscript,
  parseTranscript,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
  type TranscriptOptions,
} from './transfer/transcripts.js';
export {
  exportLines,
  importLines,
  type ImportOptions,
  type ImportReport,
  type LineResult,
} from './transfer/transfer.js';

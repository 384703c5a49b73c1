/**
 * The interface every importer of another memory tool's data implements (`engram import --from
 * FORMAT`): it reads its input and yields engram inputs in chunks — memory drafts for
 * remember-style writes, each with a stable key (the original id, kept in `source.url`), links
 * between drafts that become memory relations, and per-record problems naming the record and the
 * field. Importers never write: the runner (run.ts) validates, writes and reports.
 */
import type { InputLimits } from '../domain/input.js';

/** The formats of other memory tools that become memories (sessions formats are routed apart). */
export const IMPORT_FORMATS = ['mcp-memory', 'mem0', 'markdown'] as const;
/** One memory import format. */
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** How mem0's user and agent ids land: as spaces, or as areas of one space. */
export const USER_MAPPINGS = ['area', 'space'] as const;
/** One user-id mapping. */
export type UserMapping = (typeof USER_MAPPINGS)[number];

/** How a Markdown folder is cut into memories: one per note, or one per heading section. */
export const MARKDOWN_SPLITS = ['note', 'section'] as const;
/** One Markdown split. */
export type MarkdownSplit = (typeof MARKDOWN_SPLITS)[number];

/** A problem with one record, as every result reports it. */
export interface RecordError {
  code: string;
  message: string;
  field?: string;
}

/** One memory an importer read, not yet validated or written. */
export interface ImportDraft {
  /** Where it came from, for messages: `line 3 observations[1]`, `entry 4`, `notes/a.md#setup`. */
  record: string;
  /** The original id as a URI: stable across runs, stored as `source.url`, the re-run key. */
  key: string;
  /** A `remember` input (the runner adds `source.import`, `source.url` and `source.trust`). */
  input: Record<string, unknown>;
  /** The original field each engram field came from (`body` -> `memory`), for error messages. */
  fields?: Readonly<Record<string, string>>;
  /** What was read but could not be kept as given (dropped metadata, a clipped tag...). */
  warnings?: string[];
}

/** A link between two drafts (by key): a memory relation `related` from one to the other. */
export interface ImportLink {
  /** The record the link was read from. */
  record: string;
  from: string;
  /** The target's key; null when the link matches no record of the input (counted, not written). */
  to: string | null;
  /** Why, kept as the relation's reason: `link [[Setup]] in notes/a.md`. */
  reason: string;
}

/** A record that could not be read at all. */
export interface ImportProblem {
  record: string;
  error: RecordError;
}

/** A record read that holds nothing to import (an empty note), with why. */
export interface ImportSkip {
  record: string;
  reason: string;
}

/** What an importer yields at a time; `done` of `total` units (bytes, entries, files) read. */
export interface ImportChunk {
  drafts: ImportDraft[];
  links: ImportLink[];
  problems: ImportProblem[];
  skipped?: ImportSkip[];
  done: number;
  total: number;
}

/** What an importer is told. */
export interface ImportReadOptions {
  /** The space of records whose format names none (the command's space). */
  space: string;
  /** Base area: records land in it (or below it) unless they name their own. */
  area?: string;
  /** mem0: user and agent ids as spaces or as areas (default: areas). */
  mapUser?: UserMapping;
  /** markdown: one memory per note (default) or per heading section. */
  split?: MarkdownSplit;
  /** The input limits, so an importer can fit what it reads (tags, titles, bodies). */
  limits: InputLimits;
}

/** A reader of one format. */
export interface Importer {
  readonly format: ImportFormat;
  /**
   * Reads `path` (a file, or a folder for Markdown), yielding chunks in input order. A path that
   * cannot be read at all (missing, not UTF-8 JSON as a whole) throws INVALID_INPUT naming `path`.
   */
  read(path: string, options: ImportReadOptions): AsyncIterable<ImportChunk>;
}

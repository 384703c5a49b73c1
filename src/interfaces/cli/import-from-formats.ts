/**
 * Conversation exports `engram import --from` takes as sessions (§1.4), never as memories: the
 * sessions transcript import reads them (`engram sessions import --format FORMAT`). Declared
 * apart so the command table names them without loading the importer.
 */
export const SESSION_IMPORT_FORMATS = ['chatgpt', 'claude'] as const;
/** One conversation export format. */
export type SessionImportFormat = (typeof SESSION_IMPORT_FORMATS)[number];

/** engram's package version, announced by the MCP server and the HTTP API. */
import { createRequire } from 'node:module';

/** The version of the engram package (from package.json, in src/ and in dist/ alike). */
export const ENGRAM_VERSION: string = (
  createRequire(import.meta.url)('../../../package.json') as { version: string }
).version;

/**
 * The shape of an engram MCP tool and of a tool group. A tool is a row in a table: name, title,
 * description, a zod input schema (validated at the edge, advertised as JSON Schema), the zod
 * schema of its result (shared with the HTTP API, ../responses/) and a `run` that calls the
 * service. Groups are functions of the configuration's input schemas, so a tool's limits (body
 * size, k) are the service's own.
 *
 * The result schema is not advertised as the tool's `outputSchema`: engram's tool errors carry
 * `{error}` as structured content too, and the SDK's client checks any structured content against
 * the advertised schema, errors included, so it would reject them.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import type { Engram } from '../../app.js';
import type { InputSchemas } from '../../domain/input.js';
import type { Logger } from '../../domain/log.js';
import type { WriteSession } from '../../service/write-sessions.js';
import type { Principal, Role } from '../access.js';

/** What a tool's `run` gets besides its arguments. */
export interface ToolContext {
  engram: Engram;
  log: Logger;
  /**
   * This connection's conversation: memories remembered through it without a session of their
   * own become its turns, in order (opened on the first remember).
   */
  session: () => Promise<WriteSession>;
  /**
   * Who calls: the token that opened the MCP session over HTTP, everyone over stdio. The server
   * checks its space and role before `run` (./scope.ts).
   */
  principal: Principal;
}

/** One MCP tool as the server installs it. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  /** A strict zod object: unknown arguments are errors, never silently dropped. */
  input: z.ZodType;
  /** The structured result, as the HTTP API documents the same result. */
  output: z.ZodType<object, object>;
  annotations?: ToolAnnotations;
  /**
   * The role a call needs, as the HTTP route of the same operation (given the validated
   * arguments when a function); default: read for a read-only tool, else write.
   */
  role?: Role | ((args: unknown) => Role);
  /** Runs with validated arguments; returns the structured result (a JSON object). */
  run(args: unknown, ctx: ToolContext): Promise<object>;
}

/** A set of related tools built from the configuration's input schemas. */
export type ToolGroup = (schemas: InputSchemas) => Tool[];

/**
 * Declares a tool with its arguments typed from its input schema and its result checked, at
 * compile time, against its output schema.
 */
export function defineTool<S extends z.ZodType, O extends z.ZodType<object, object>>(definition: {
  name: string;
  title: string;
  description: string;
  input: S;
  output: O;
  annotations?: ToolAnnotations;
  role?: Role | ((args: z.output<S>) => Role);
  run(args: z.output<S>, ctx: ToolContext): Promise<z.input<O>>;
}): Tool {
  // The server parses arguments with `input` before calling role or run, so the casts hold.
  const { role } = definition;
  return {
    ...definition,
    role: typeof role === 'function' ? (args) => role(args as z.output<S>) : role,
    run: (args, ctx) => definition.run(args as z.output<S>, ctx),
  };
}

/** Copies a zod shape, attaching a description to each documented field (for the tool listing). */
export function described<T extends z.ZodRawShape>(shape: T, docs: Record<string, string>): T {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const doc = docs[key];
    out[key] = doc ? (schema as z.ZodType).describe(doc) : (schema as z.ZodType);
  }
  return out as unknown as T;
}

/** Descriptions of the fields most tools share. */
export const COMMON_DOCS: Record<string, string> = {
  space:
    'Space (isolated memory store of one user, team or tenant). Default: the server\'s space, usually "default".',
  actor: 'Who makes the change (recorded in history), e.g. your agent name.',
  reason: 'Why (recorded in history).',
  id: 'Memory id, as returned by remember, recall or list.',
};

/** Read-only tool annotations. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** Annotations of tools that change memories without destroying anything. */
export const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  openWorldHint: false,
};

/**
 * The access check of a tool call, made by the server before any tool runs: the call's space is
 * the one it names, else the caller's default (../access.ts), and the caller needs the tool's role
 * there, as on the HTTP route of the same operation. A refusal is a FORBIDDEN tool error naming
 * the space or the role. Over stdio the caller is everyone, so only the default space is filled.
 */
import { z } from 'zod';

import { authorize, defaultSpace, type Role } from '../access.js';
import type { Tool, ToolContext } from './tool.js';

/** The role a call of `tool` with validated `args` needs. */
export function roleOf(tool: Tool, args: unknown): Role {
  if (typeof tool.role === 'function') return tool.role(args);
  return tool.role ?? (tool.annotations?.readOnlyHint === true ? 'read' : 'write');
}

const FIELDS = new WeakMap<Tool, ReadonlySet<string>>();

/** The argument names a tool's input declares. */
function fieldsOf(tool: Tool): ReadonlySet<string> {
  let fields = FIELDS.get(tool);
  if (!fields) {
    fields = new Set(tool.input instanceof z.ZodObject ? Object.keys(tool.input.shape) : []);
    FIELDS.set(tool, fields);
  }
  return fields;
}

/**
 * Checks that the caller may make this call, else throws FORBIDDEN; returns the arguments with
 * the space filled in (when the tool takes one) and, for a token, the actor defaulting to the
 * token's name as on HTTP.
 */
export function scopeCall(tool: Tool, args: unknown, ctx: ToolContext): unknown {
  const given = (args ?? {}) as Record<string, unknown>;
  const space =
    typeof given.space === 'string'
      ? given.space
      : defaultSpace(ctx.principal, ctx.engram.config.space);
  authorize(ctx.principal, space, roleOf(tool, args));
  const fields = fieldsOf(tool);
  const scoped = { ...given };
  if (fields.has('space')) scoped.space = space;
  if (fields.has('actor') && scoped.actor === undefined && ctx.principal.name !== null)
    scoped.actor = ctx.principal.name;
  return scoped;
}

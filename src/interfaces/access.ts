/**
 * Who may do what, for every edge that authenticates callers (the HTTP API under `/v1` and MCP
 * over HTTP at `/mcp`): a caller is a principal with a role and the spaces it may use, and one
 * check decides whether it may act in a space. MCP over stdio acts as EVERYONE.
 */
import type { SERVER_ROLES } from '../config/schema.js';
import { EngramError } from '../domain/errors.js';

/** A token role: read < write < admin. */
export type Role = (typeof SERVER_ROLES)[number];

/** Who is calling: a configured token, or everyone on an unauthenticated loopback server. */
export interface Principal {
  /** Token name (recorded as the default actor of changes); null without auth. */
  name: string | null;
  role: Role;
  /** Spaces the caller may use; `'*'` means every space. */
  spaces: readonly string[] | '*';
}

/** The caller when no token is configured (loopback only) and over stdio: anyone may do anything. */
export const EVERYONE: Principal = Object.freeze({ name: null, role: 'admin', spaces: '*' });

const RANK: Record<Role, number> = { read: 0, write: 1, admin: 2 };

/**
 * Allows the caller into `space` with at least role `need`, else FORBIDDEN. The answer depends
 * only on the token's own scope, never on what the space holds, so it reveals nothing about
 * spaces outside that scope.
 */
export function authorize(principal: Principal, space: string, need: Role): void {
  if (principal.spaces !== '*' && !principal.spaces.includes(space))
    throw new EngramError('FORBIDDEN', `this token is not allowed in space ${space}`, {
      field: 'space',
      rule: 'a space of the token',
    });
  if (RANK[principal.role] < RANK[need])
    throw new EngramError('FORBIDDEN', `this operation needs the ${need} role`, {
      rule: `role ${need}`,
    });
}

/**
 * Allows the caller to act on the whole store (every space together, e.g. background jobs) with
 * at least role `need`, else FORBIDDEN: only a token of every space (`spaces: ["*"]`) may.
 */
export function authorizeStoreWide(principal: Principal, need: Role): void {
  if (RANK[principal.role] < RANK[need])
    throw new EngramError('FORBIDDEN', `this operation needs the ${need} role`, {
      rule: `role ${need}`,
    });
  if (principal.spaces !== '*')
    throw new EngramError('FORBIDDEN', 'this operation needs a token of every space', {
      rule: 'spaces ["*"]',
    });
}

/**
 * Whether a caller may see facts about the whole store: where it lives, its size, the vector
 * index, the embedding queue and the background jobs (all spaces together). Only an admin of every
 * space may; any other caller sees its space's own counts, so it learns nothing outside its scope.
 */
export function seesStoreWide(principal: Principal): boolean {
  return principal.spaces === '*' && principal.role === 'admin';
}

/**
 * The space a caller acts in when it names none: the configured one when the caller may use it,
 * else the caller's only space; a caller of several spaces that excludes the configured one gets
 * the configured one, so such a call is refused naming it.
 */
export function defaultSpace(principal: Principal, configured: string): string {
  const { spaces } = principal;
  if (spaces === '*' || spaces.includes(configured) || spaces.length !== 1) return configured;
  return spaces[0]!;
}

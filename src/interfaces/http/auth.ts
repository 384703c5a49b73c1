/**
 * Bearer-token authentication and space/role authorization of the HTTP API. Tokens are kept only
 * as sha256 hashes in the configuration; a presented token is hashed and compared with every
 * configured hash in constant time. Each token is scoped to spaces and a role, checked by
 * ../access.ts (shared with MCP over HTTP).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

import type { Config } from '../../config/schema.js';
import { EngramError } from '../../domain/errors.js';
import { EVERYONE, type Principal } from '../access.js';

export { authorize, authorizeStoreWide, type Principal, type Role } from '../access.js';

const MAX_TOKEN_CHARS = 512;

/** The configuration form of a token's hash: `sha256:` and 64 hex digits. */
export function hashToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

/** A new random bearer token (256 bits, URL-safe). */
export function newToken(): string {
  return `engram_${randomBytes(32).toString('base64url')}`;
}

interface StoredToken {
  digest: Buffer;
  principal: Principal;
}

/** Checks `Authorization: Bearer` headers against the configured token hashes. */
export class TokenVerifier {
  private readonly tokens: StoredToken[];

  constructor(tokens: Config['server']['tokens']) {
    this.tokens = tokens.map((t) => ({
      digest: Buffer.from(t.hash.slice('sha256:'.length), 'hex'),
      principal: {
        name: t.name,
        role: t.role,
        spaces: t.spaces.includes('*') ? '*' : [...t.spaces],
      },
    }));
  }

  /** Whether requests must carry a token (any token is configured). */
  get required(): boolean {
    return this.tokens.length > 0;
  }

  /** The caller of a request, from its Authorization header; UNAUTHORIZED when it has none valid. */
  verify(header: string | undefined): Principal {
    if (!this.required) return EVERYONE;
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    if (!match || match[1]!.length > MAX_TOKEN_CHARS)
      throw new EngramError('UNAUTHORIZED', 'missing or malformed bearer token', {
        rule: 'Authorization: Bearer <token>',
      });
    const digest = createHash('sha256').update(match[1]!, 'utf8').digest();
    let found: Principal | undefined;
    // Compare with every token, without stopping early, so timing says nothing about the match.
    for (const token of this.tokens)
      if (timingSafeEqual(digest, token.digest)) found ??= token.principal;
    if (!found)
      throw new EngramError('UNAUTHORIZED', 'invalid bearer token', { rule: 'known token' });
    return found;
  }
}

/** True for addresses that only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * MCP over HTTP: the sessions of the Streamable HTTP transport that `engram serve` answers at
 * `/mcp`. Each MCP session is the SDK's web-standard server transport with its own MCP server,
 * so it is one conversation (one write session), as one stdio connection is, and it acts as the
 * token that opened it. Requests are answered with JSON (the transport's JSON response mode), so a
 * tool call is an ordinary request that graceful shutdown waits for; the GET stream carries only
 * what the server sends unasked. Sessions are bounded (the least recently used idle one closes
 * first) and all close with the HTTP server. Authentication, the Origin check and the body cap
 * are the HTTP app's (../http/routes/mcp.ts).
 */
import { randomUUID } from 'node:crypto';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

import type { Engram } from '../../app.js';
import { EngramError } from '../../domain/errors.js';
import { type Logger, silentLogger } from '../../domain/log.js';
import type { Principal } from '../access.js';
import { createMcpServer } from './server.js';

/** Options of McpHttpSessions. */
export interface McpHttpOptions {
  log?: Logger;
  /** Open MCP sessions at most (default 1,000). */
  maxSessions?: number;
  /** The largest body the transport reads itself (the app reads bodies first; default 1 MiB). */
  maxBodyBytes?: number;
}

/** One open MCP session. */
interface Session {
  id: string;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** The caller that opened it: every later request must come from the same token. */
  principal: Principal;
  /** Requests being answered. */
  busy: number;
  /** Settles when the session has closed. */
  closed: Promise<void>;
}

const METHODS = new Set(['GET', 'POST', 'DELETE']);
const DEFAULT_MAX_SESSIONS = 1_000;

/** A JSON-RPC error answered at the HTTP level, as the SDK's transport answers its own. */
function rpcHttpError(status: number, code: number, message: string): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (status === 405) headers.Allow = 'GET, POST, DELETE';
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers,
  });
}

/** The transport's answer to a session id it does not know (404, JSON-RPC -32001). */
const sessionNotFound = () => rpcHttpError(404, -32001, 'Session not found');

/** The MCP sessions of one HTTP server. */
export class McpHttpSessions {
  /** Least recently used first. */
  private readonly sessions = new Map<string, Session>();
  private readonly log: Logger;
  private readonly maxSessions: number;
  private readonly maxBodyBytes: number;
  private closing = false;

  constructor(
    private readonly engram: Engram,
    options: McpHttpOptions = {},
  ) {
    this.log = options.log ?? silentLogger;
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
  }

  /** Open sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * Answers one request to the MCP endpoint from `principal`, its JSON body already parsed
   * (undefined when none was read). A request naming a session that is unknown, closed or opened
   * by another token gets the transport's 404, so a session id reveals nothing to another token.
   */
  async handle(request: Request, principal: Principal, parsedBody?: unknown): Promise<Response> {
    if (!METHODS.has(request.method)) return rpcHttpError(405, -32000, 'Method not allowed.');
    if (this.closing)
      throw new EngramError('STORE_UNAVAILABLE', 'MCP sessions are closed: the server is stopping');
    const id = request.headers.get('mcp-session-id');
    if (id === null) {
      if (request.method === 'POST') return this.open(request, principal, parsedBody);
      return rpcHttpError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    const session = this.sessions.get(id);
    if (!session || session.principal !== principal) return sessionNotFound();
    return this.serve(session, request, parsedBody);
  }

  /** Closes every session (their GET streams end); later requests are refused. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.sessions.values()].map((s) => this.end(s)));
  }

  /** A request without a session: an initialize opens one; anything else is refused by the transport. */
  private async open(request: Request, principal: Principal, body: unknown): Promise<Response> {
    const server = createMcpServer(this.engram, { log: this.log, principal });
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        maxRequestBodySize: this.maxBodyBytes,
        onsessioninitialized: (id) => this.admit({ id, server, transport, principal }),
      });
    server.onerror = (err) =>
      this.log.info('MCP over HTTP: request refused', { error: err.message });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (transport.sessionId === undefined) await server.close();
    return response;
  }

  /** Registers a new session, first closing the least recently used idle one when full. */
  private admit(opened: Pick<Session, 'id' | 'server' | 'transport' | 'principal'>): void {
    if (this.sessions.size >= this.maxSessions) {
      const all = [...this.sessions.values()];
      const victim = all.find((s) => s.busy === 0) ?? all[0]!;
      this.log.info('MCP over HTTP: session limit reached; closing the least recently used', {
        limit: this.maxSessions,
        session: victim.id,
      });
      void this.end(victim);
    }
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const session: Session = { ...opened, busy: 0, closed };
    opened.server.onclose = () => {
      if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
      markClosed();
    };
    this.sessions.set(session.id, session);
  }

  /** Answers a request of an open session. */
  private async serve(session: Session, request: Request, body: unknown): Promise<Response> {
    this.sessions.delete(session.id);
    this.sessions.set(session.id, session);
    session.busy++;
    try {
      const answered = session.transport.handleRequest(request, { parsedBody: body });
      // A JSON answer waits for the server's reply, which never comes once the session closes
      // under it (a DELETE, the limit, shutdown): answer as for a closed session then.
      if (request.method !== 'POST') return await answered;
      return await Promise.race([answered, session.closed.then(sessionNotFound)]);
    } finally {
      session.busy--;
    }
  }

  private async end(session: Session): Promise<void> {
    this.sessions.delete(session.id);
    await session.server.close().catch((err: unknown) => {
      this.log.warn('MCP over HTTP: session did not close cleanly', { error: String(err) });
    });
  }
}

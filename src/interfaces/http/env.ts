/** The Hono environment of engram's HTTP app: per-request variables set by its middleware. */
import type { IncomingMessage } from 'node:http';

import type { Principal } from './auth.js';

/** Variables every handler can read with `c.get`. */
export interface HttpEnv {
  /** Set by @hono/node-server; absent when the app runs without a Node server (`app.request`). */
  Bindings: { incoming?: IncomingMessage };
  Variables: {
    /** Echoed in the `X-Request-Id` header and in server-fault logs. */
    requestId: string;
    /** The authenticated caller. */
    principal: Principal;
    /** The validated space of a `/v1/spaces/{space}/...` route, once authorized. */
    space: string;
    /** Set by the JSON body parser when a route that reads a body was sent none (./body.ts). */
    emptyBody: boolean;
  };
}

/**
 * A `fetch` for the HTTP client (engram/client) over `node:http`, for commands that start often
 * and talk to a running `engram serve` (the agent hooks). Node's global `fetch` loads its HTTP
 * library on first use, which costs a short-lived process more time than the call it makes. It
 * covers what the client uses: method, headers, a string body, an abort signal; and answers
 * status, ok, headers.get and text(). A network failure rejects as fetch's does: a TypeError whose
 * cause carries the system error code.
 */
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** The part of a Response the client reads. */
interface SmallResponse {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

function responseOf(res: IncomingMessage, body: string): SmallResponse {
  const status = res.statusCode ?? 0;
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: {
      get: (name) => {
        const value = res.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: () => Promise.resolve(body),
  };
}

/** Sends one request; the answer's body is read whole before the promise resolves. */
function send(url: URL, init: RequestInit): Promise<SmallResponse> {
  return new Promise((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      url,
      { method: init.method ?? 'GET', headers: init.headers as Record<string, string> },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(responseOf(res, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', (err) => reject(new TypeError('fetch failed', { cause: err })));
      },
    );
    const onAbort = () => req.destroy(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(
        signal?.aborted ? (signal.reason as Error) : new TypeError('fetch failed', { cause: err }),
      );
    });
    req.on('close', () => signal?.removeEventListener('abort', onAbort));
    req.end(typeof init.body === 'string' ? init.body : undefined);
  });
}

/** `fetch` for the client, over node:http(s); string URLs and string bodies only. */
export const nodeFetch = ((input: string | URL, init: RequestInit = {}) =>
  send(new URL(String(input)), init)) as unknown as typeof fetch;

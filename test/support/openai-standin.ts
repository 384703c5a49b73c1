/**
 * A stand-in for an OpenAI-compatible API server (OpenAI, Ollama, vLLM, llama.cpp), for tests: a
 * real node:http server on 127.0.0.1 that answers the documented shapes, records every request,
 * and can be switched to misbehave (rate limits, faults, delays, bad bodies, auth, poison inputs).
 *
 * Endpoints live in the ROUTES table; the shared switches (auth, delay, forced failures) apply to
 * every route: `POST /v1/embeddings` and `POST /v1/chat/completions`.
 *
 * The chat route is a deterministic yes/no relevance judge (see `chatRoute`): it reads the question
 * and the candidate from `<question>` and `<memory>` tags in the last user message, counts the
 * distinct lowercase words of 4+ letters they share (`overlap`), answers `yes` when overlap >= 2,
 * and gives the first token's top_logprobs P(yes) / (P(yes) + P(no)) = min(0.95, 0.2 + 0.2 x overlap).
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** Ways the embeddings route can answer 200 with a body a client must reject. */
export type MalformedMode =
  | 'bad_json' // not JSON at all
  | 'missing_data' // no `data` array
  | 'wrong_count' // one embedding fewer than inputs
  | 'wrong_length' // the first embedding one number short
  | 'not_numbers' // a string inside an embedding
  | 'duplicate_index'; // two items with index 0

/** Forced failure of the next `count` requests (any route), decremented per request. */
export interface ForcedFailure {
  count: number;
  /** HTTP status, e.g. 429 or 500. */
  status: number;
  /** `Retry-After` header value to send, e.g. `'0'` or `'2'`. */
  retryAfter?: string;
  /** Error message in the OpenAI-style body (a default per status otherwise). */
  message?: string;
  /** Raw body to send instead of the OpenAI-style JSON error (e.g. an HTML proxy page). */
  rawBody?: string;
}

/** Behaviour switches; change them at any time with `set`. */
export interface StandInSwitches {
  /** Vector length when a request does not ask for `dimensions` (default 16). */
  dimension: number;
  /** Bearer key every request must carry (401 otherwise); null accepts anything (default). */
  apiKey: string | null;
  /** Milliseconds to wait (on a timer) before answering each request (default 0). */
  delayMs: number;
  /** Fail the next N requests with a given status (default none). */
  failNext: ForcedFailure | null;
  /** Answer embeddings requests with a broken 200 body (default none). */
  malformed: MalformedMode | null;
  /** Any input containing this marker makes the whole request 400, naming the input. */
  failOnInput: string | null;
  /** Return `data` in reverse order (indices still right), to check clients order by index. */
  reverseOrder: boolean;
  /**
   * Chat logprobs: true includes them when asked (default), false always omits them (`null`), and
   * `'reject'` answers 400 "logprobs is not supported" to a request that asks for them.
   */
  chatLogprobs: boolean | 'reject';
  /** Forced chat answer (e.g. `'maybe'`, `'7'`); its logprobs then hold only that token. */
  chatAnswer: string | null;
}

/** A request as the stand-in received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lowercase header names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

/** A running stand-in server. */
export interface OpenAiStandIn {
  /** API root to give a client, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Every request received, in order (including ones later failed or abandoned). */
  requests: RecordedRequest[];
  /** Changes some switches; the others keep their values. */
  set(switches: Partial<StandInSwitches>): void;
  /** Resolves once at least `count` requests have been received. */
  waitForRequests(count: number): Promise<void>;
  /** Requests received whose connection has not yet answered or closed. */
  inFlight(): number;
  /** The most requests that were in flight at once since the start. */
  maxInFlight(): number;
  /** Stops the server, ending open connections and pending delays. */
  close(): Promise<void>;
}

/** What a route handler answers. */
interface Reply {
  status: number;
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

type Route = (body: unknown, switches: StandInSwitches) => Reply;

const ROUTES: Record<string, Route> = {
  'POST /v1/embeddings': embeddingsRoute,
  'POST /v1/chat/completions': chatRoute,
};

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Starts a stand-in on 127.0.0.1 (a free port), with the given switches. */
export async function startOpenAiStandIn(
  options: Partial<StandInSwitches> = {},
): Promise<OpenAiStandIn> {
  const switches: StandInSwitches = {
    dimension: 16,
    apiKey: null,
    delayMs: 0,
    failNext: null,
    malformed: null,
    failOnInput: null,
    reverseOrder: false,
    chatLogprobs: true,
    chatAnswer: null,
    ...options,
  };
  const requests: RecordedRequest[] = [];
  const waiters = new Set<{ count: number; resolve: () => void }>();
  const timers = new Set<NodeJS.Timeout>();
  const load = { now: 0, max: 0 };

  const record = (request: RecordedRequest) => {
    requests.push(request);
    for (const waiter of waiters) {
      if (requests.length >= waiter.count) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, errorReply(500, `stand-in fault: ${String(error)}`));
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    if (text === undefined) return send(res, errorReply(413, 'request body too large'));
    const body = parseOrRaw(text);
    const path = req.url ?? '/';
    load.max = Math.max(load.max, ++load.now);
    res.once('close', () => load.now--);
    record({ method: req.method ?? '', path, headers: req.headers, body });
    if (switches.delayMs > 0 && !(await wait(switches.delayMs, res, timers))) return;
    send(res, answer(`${req.method} ${path.split('?')[0]}`, body, req.headers, switches));
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    set: (changes) => Object.assign(switches, changes),
    waitForRequests: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.add({ count, resolve })),
    inFlight: () => load.now,
    maxInFlight: () => load.max,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The reply to one request: auth first, then forced failures, then the route. */
function answer(
  route: string,
  body: unknown,
  headers: IncomingHttpHeaders,
  switches: StandInSwitches,
): Reply {
  if (switches.apiKey !== null) {
    const given = /^Bearer (.*)$/.exec(headers.authorization ?? '')?.[1];
    if (given !== switches.apiKey) {
      // Echoes the key it got, as a careless proxy might, so tests can check clients redact it.
      const message =
        given === undefined
          ? 'You did not provide an API key.'
          : `Incorrect API key provided: ${given}.`;
      return errorReply(401, message, 'invalid_request_error', 'invalid_api_key');
    }
  }
  const forced = switches.failNext;
  if (forced !== null && forced.count > 0) {
    forced.count--;
    if (forced.count === 0) switches.failNext = null;
    return forcedReply(forced);
  }
  const handler = ROUTES[route];
  if (handler === undefined) return errorReply(404, `Unknown request URL: ${route}`);
  return handler(body, switches);
}

function forcedReply(failure: ForcedFailure): Reply {
  const headers: Record<string, string> = {};
  if (failure.retryAfter !== undefined) headers['retry-after'] = failure.retryAfter;
  if (failure.rawBody !== undefined)
    return { status: failure.status, raw: failure.rawBody, headers };
  const message =
    failure.message ??
    (failure.status === 429
      ? 'Rate limit reached for requests. Please try again later.'
      : 'The server had an error while processing your request. Sorry about that!');
  const type = failure.status === 429 ? 'requests' : 'server_error';
  return { ...errorReply(failure.status, message, type), headers };
}

/** `POST /v1/embeddings`, as OpenAI documents it (float or base64 encoding). */
function embeddingsRoute(body: unknown, switches: StandInSwitches): Reply {
  const request = checkEmbeddingsRequest(body);
  if (typeof request === 'string') return errorReply(400, request, 'invalid_request_error');
  const { model, inputs, dimensions, base64 } = request;
  const marker = switches.failOnInput;
  const poisoned = marker === null ? -1 : inputs.findIndex((text) => text.includes(marker));
  if (poisoned >= 0) {
    return errorReply(
      400,
      `input[${poisoned}] contains the marker "${marker}"`,
      'invalid_request_error',
    );
  }
  const dimension = dimensions ?? switches.dimension;
  const vectors = inputs.map((text) => standInEmbedding(text, dimension));
  const data = vectors.map((v, index) => ({
    object: 'embedding',
    index,
    embedding: base64 ? Buffer.from(Float32Array.from(v).buffer).toString('base64') : v,
  }));
  if (switches.reverseOrder) data.reverse();
  const tokens = inputs.reduce((n, text) => n + words(text).length, 0);
  const json = {
    object: 'list',
    data,
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
  return switches.malformed === null
    ? { status: 200, json }
    : malformedReply(switches.malformed, json);
}

interface EmbeddingsRequest {
  model: string;
  inputs: string[];
  dimensions: number | undefined;
  base64: boolean;
}

/** The request's fields, or the 400 message OpenAI would give. */
function checkEmbeddingsRequest(body: unknown): EmbeddingsRequest | string {
  if (typeof body !== 'object' || body === null)
    return 'We could not parse the JSON body of your request.';
  const { model, input, dimensions, encoding_format: format } = body as Record<string, unknown>;
  if (typeof model !== 'string' || model === '') return 'You must provide a model parameter.';
  const inputs = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(inputs) || inputs.length === 0 || inputs.some((t) => typeof t !== 'string')) {
    return "'input' must be a non-empty string or array of strings.";
  }
  const empty = (inputs as string[]).findIndex((t) => t === '');
  if (empty >= 0) return `'$.input[${empty}]' is invalid: input cannot be an empty string.`;
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && (dimensions as number) > 0)) {
    return "'dimensions' must be a positive integer.";
  }
  if (format !== undefined && format !== 'float' && format !== 'base64') {
    return "'encoding_format' must be 'float' or 'base64'.";
  }
  return {
    model,
    inputs: inputs as string[],
    dimensions: dimensions as number | undefined,
    base64: format === 'base64',
  };
}

function malformedReply(
  mode: MalformedMode,
  json: { data: { index: number; embedding: unknown }[] },
): Reply {
  const data = json.data;
  const first = data[0]!;
  switch (mode) {
    case 'bad_json':
      return { status: 200, raw: '{"object": "list", "data": [' };
    case 'missing_data':
      return { status: 200, json: { ...json, data: undefined } };
    case 'wrong_count':
      return { status: 200, json: { ...json, data: data.slice(0, -1) } };
    case 'wrong_length':
      first.embedding = (first.embedding as number[]).slice(0, -1);
      return { status: 200, json };
    case 'not_numbers':
      first.embedding = ['not a number', ...(first.embedding as number[]).slice(1)];
      return { status: 200, json };
    case 'duplicate_index':
      for (const item of data) item.index = 0;
      return { status: 200, json };
  }
}

/**
 * `POST /v1/chat/completions` as a yes/no relevance judge, in OpenAI's documented shape:
 * `choices[0].message.content` and, when asked (`logprobs: true`, `top_logprobs` n <= 20),
 * `choices[0].logprobs.content[0].top_logprobs[{token, logprob, bytes}]` for the first token.
 * Overlap = distinct lowercase words of 4+ letters shared by `<question>` and `<memory>`; the answer
 * is `yes` when overlap >= 2, else `no`; p = min(0.95, 0.2 + 0.2 x overlap). The top logprobs share
 * 0.9 between yes (`yes` 3/4, ` Yes` 1/4) and no (`no` 3/4, `No.` 1/4) as p : 1 - p, and 0.1 to
 * `I`, so P(yes) / (P(yes) + P(no)) = p while n >= 5. Without both tags: 400.
 */
function chatRoute(body: unknown, switches: StandInSwitches): Reply {
  const request = checkChatRequest(body);
  if (typeof request === 'string') return errorReply(400, request, 'invalid_request_error');
  if (request.logprobs && switches.chatLogprobs === 'reject') {
    return errorReply(400, 'logprobs is not supported', 'invalid_request_error', 'logprobs');
  }
  const p = Math.min(0.95, 0.2 + 0.2 * sharedWords(request.question, request.memory));
  const forced = switches.chatAnswer;
  const answer = forced ?? (p > 0.5 ? 'yes' : 'no');
  const tops: [string, number][] =
    forced === null
      ? [
          ['yes', 0.675 * p],
          [' Yes', 0.225 * p],
          ['no', 0.675 * (1 - p)],
          ['No.', 0.225 * (1 - p)],
          ['I', 0.1],
        ]
      : [[forced, 1]];
  const wanted = request.logprobs && switches.chatLogprobs === true;
  const logprobs = wanted ? chatLogprobs(answer, tops, request.topLogprobs) : null;
  const json = {
    id: 'chatcmpl-standin',
    object: 'chat.completion',
    created: 0,
    model: request.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: answer },
        logprobs,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 1, total_tokens: 1 },
  };
  return { status: 200, json };
}

/** `logprobs` of a one-token answer: the chosen token and the `n` likeliest alternatives. */
function chatLogprobs(answer: string, tops: [string, number][], n: number) {
  const entry = (token: string, p: number) => ({
    token,
    logprob: Math.log(p),
    bytes: [...Buffer.from(token)],
  });
  const sorted = [...tops].sort((a, b) => b[1] - a[1]).slice(0, n);
  const chosen = tops.find(([token]) => token === answer)?.[1] ?? 1;
  return {
    content: [{ ...entry(answer, chosen), top_logprobs: sorted.map(([t, p]) => entry(t, p)) }],
    refusal: null,
  };
}

interface ChatRequest {
  model: string;
  question: string;
  memory: string;
  logprobs: boolean;
  topLogprobs: number;
}

/** The request's fields, or the 400 message to give. */
function checkChatRequest(body: unknown): ChatRequest | string {
  if (typeof body !== 'object' || body === null)
    return 'We could not parse the JSON body of your request.';
  const { model, messages, logprobs, top_logprobs: top } = body as Record<string, unknown>;
  if (typeof model !== 'string' || model === '') return 'You must provide a model parameter.';
  if (!Array.isArray(messages) || messages.length === 0)
    return "'messages' must be a non-empty array.";
  if (
    top !== undefined &&
    !(Number.isInteger(top) && (top as number) >= 0 && (top as number) <= 20)
  ) {
    return "'top_logprobs' must be an integer from 0 to 20.";
  }
  const user = (messages as { role?: unknown; content?: unknown }[])
    .filter((m) => m.role === 'user' && typeof m.content === 'string')
    .at(-1)?.content as string | undefined;
  // A conflict judgment (<earlier>, <later>) is answered like a relevance one: by shared words.
  const question =
    user && /<(?:question|earlier)>([\s\S]*?)<\/(?:question|earlier)>/.exec(user)?.[1];
  const memory = user && /<(?:memory|later)>([\s\S]*?)<\/(?:memory|later)>/.exec(user)?.[1];
  if (typeof question !== 'string' || typeof memory !== 'string') {
    return 'stand-in: the last user message needs <question>...</question> and <memory>...</memory>';
  }
  return {
    model,
    question,
    memory,
    logprobs: logprobs === true,
    topLogprobs: (top as number) ?? 0,
  };
}

/** Distinct lowercase words of at least 4 letters found in both texts. */
function sharedWords(a: string, b: string): number {
  const long = (text: string) => new Set(words(text).filter((w) => w.length >= 4));
  const inB = long(b);
  return [...long(a)].filter((w) => inB.has(w)).length;
}

/**
 * The stand-in's embedding of a text: a hashed bag of its lowercase words (FNV-1a into `dimension`
 * buckets), not normalised, so texts sharing words are similar and a text without words is zero.
 */
export function standInEmbedding(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (const word of words(text)) vector[fnv1a(word) % dimension]! += 1;
  return vector;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** An OpenAI-style error reply: `{ error: { message, type, param, code } }`. */
function errorReply(
  status: number,
  message: string,
  type = 'invalid_request_error',
  code?: string,
): Reply {
  return { status, json: { error: { message, type, param: null, code: code ?? null } } };
}

function send(res: ServerResponse, reply: Reply): void {
  const text = reply.raw ?? JSON.stringify(reply.json);
  const type = reply.raw === undefined ? 'application/json' : 'text/plain; charset=utf-8';
  res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseOrRaw(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Waits on a timer; false when the client went away first (nothing left to answer). */
function wait(ms: number, res: ServerResponse, timers: Set<NodeJS.Timeout>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      res.off('close', gone);
      resolve(true);
    }, ms);
    const gone = () => {
      clearTimeout(timer);
      timers.delete(timer);
      resolve(false);
    };
    timers.add(timer);
    res.once('close', gone);
  });
}

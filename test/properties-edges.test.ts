/**
 * Property tests (fast-check, fixed seed) of the edges under arbitrary input (§2, §13), each a
 * failure of the caller's or an answer, never a server fault:
 * - any string as a query (recall and session search) through the library, over HTTP (the recall
 *   and session search routes, and any string as any query parameter of every GET and DELETE
 *   route) and through the CLI (`engram search`): answered, or INVALID_INPUT naming the field (a
 *   4xx, exit code 2); never an internal error;
 * - any JSON value (and any object of the route's own field names with junk values) as the body of
 *   every HTTP route that takes one: a JSON answer with a 2xx or 4xx status, never a 5xx;
 * - any JSON value as the arguments of every MCP tool: a tool result (a success or a caller's error
 *   code) or -32602 invalid params, never -32603 or an internal error;
 * - decay is a pure function of the stored facts: for any memories, uses and schedule of
 *   maintenance runs, the runs end where one run at the end does, and a second run at the same
 *   time changes nothing.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { isEngramError } from '../src/domain/errors.js';
import { KINDS } from '../src/domain/types.js';
import { ERROR_RULES } from '../src/interfaces/error-codes.js';
import { runCli } from './cli-run.js';
import { writeConfig } from './fixtures/processes.js';
import { tempDir, testEngram } from './helpers.js';
import { startTestService, type TestService } from './http-helpers.js';
import { clockedEngram, DAY, testClock } from './lifecycle-helpers.js';
import { connectMcp } from './mcp-helpers.js';
import { PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';

const SEED = 20_261_203;

/** Error codes that are the caller's fault (4xx); every other code is a server fault. */
const CALLER_CODES = new Set(
  Object.entries(ERROR_RULES)
    .filter(([, rule]) => rule.http < 500)
    .map(([code]) => code),
);

/** Pieces that mean something to a query parser, a tokenizer or a terminal. */
const QUERY_PIECES = [
  '"',
  "'",
  '*',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ':',
  '^',
  '-',
  '+',
  '~',
  '!',
  '&',
  '|',
  '<->',
  '\\',
  '%',
  '_',
  ' ',
  'AND',
  'OR',
  'NOT',
  'NEAR',
  'NEAR/2',
  'body:',
  'tea',
  'é',
  '\u00df',
  '\u0130',
  '\u202e',
  '\u200b',
  '\ufeff',
  '\ud83d\ude00',
  '\ud800',
  '\udfff',
  '\u0000',
  '\u001b[31m',
  '\n',
  '\t',
];

/** Any string, weighted toward what breaks query parsers, plus strings around the length limit. */
const anyQuery: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.constantFrom(...QUERY_PIECES), { maxLength: 14 })
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 3995, maxLength: 4005 }) },
);

/** A library call's outcome: answered, or INVALID_INPUT naming `field`. */
async function answeredOrRefused(call: Promise<unknown>, field: string): Promise<void> {
  const outcome = await call.then(
    () => null,
    (err: unknown) => err,
  );
  if (outcome === null) return;
  expect(isEngramError(outcome), String(outcome)).toBe(true);
  const err = outcome as { code: string; message: string; details: { field?: string } };
  expect(err.code, err.message).toBe('INVALID_INPUT');
  expect(err.details.field, err.message).toBe(field);
}

const LIBRARY_BACKENDS = PG_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(LIBRARY_BACKENDS)('any string as a query (library, %s)', (backend) => {
  it('recall and session search answer or refuse the query, never fail inside', async () => {
    const engram = testEngram({
      config: backend === 'postgres' ? pgConfig(randomSchema('engram_qprop')) : {},
    });
    await seedStore(engram);
    await fc.assert(
      fc.asyncProperty(anyQuery, async (query) => {
        await answeredOrRefused(engram.recall({ query }), 'query');
        await answeredOrRefused(engram.searchSessions({ query }), 'query');
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 180_000);
});

/** A few memories and a session, so queries have something to match. */
async function seedStore(engram: Engram): Promise<string[]> {
  const results = await engram.rememberMany(
    [
      'Tea with Alice on Tuesdays at the NEAR office',
      'The build server has 16 cores (see "infra" notes)',
      'Prefers dark theme; uses vim-style keys',
      'Straße und Ärger: the Munich office moved to Lindwurmstraße',
      'Emoji test 😀 and a \u001b[31mred\u001b[0m escape',
    ].map((body) => ({ body })),
    { strict: true },
  );
  await engram.importSessions([
    { id: 'chat-1', turns: [{ role: 'user', text: 'Can we have tea on Tuesday with Alice?' }] },
  ]);
  return results.map((r) => (r.ok ? r.memory.id : ''));
}

// ---------------------------------------------------------------------------------------------
// HTTP

/** One operation of the OpenAPI document. */
interface Operation {
  method: string;
  path: string;
  query: string[];
  /** Field names of its JSON body, or null when it takes none. */
  fields: string[] | null;
  ndjson: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: {
    content?: Record<string, { schema?: { properties?: Record<string, unknown> } }>;
  };
}

/** Every operation the server documents. */
async function operations(service: TestService): Promise<Operation[]> {
  const doc = (await service.request('GET', '/v1/openapi.json')).body as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const content = op.requestBody?.content ?? {};
      const json = content['application/json'];
      return {
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        fields: json ? Object.keys(json.schema?.properties ?? {}) : null,
        ndjson: 'application/x-ndjson' in content,
      };
    }),
  );
}

/**
 * A query short enough for a URL: a request line past the header limit (16 KB) is answered 431 and
 * the connection closed while a client may still be writing (test/http-limits.test.ts covers it).
 */
const shortQuery = anyQuery.filter((q) => q.length <= 1_000);

/** Bytes written as %XX: any byte sequence, well-formed UTF-8 or not, as a client may send it. */
const percentEncoded = (bytes: Uint8Array) =>
  [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** Any bytes, or the UTF-8 of any string, as a path parameter. */
const anyPathValue: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 30 }),
  shortQuery.filter((q) => q !== '').map((q) => new Uint8Array(Buffer.from(q, 'utf8'))),
);

/** A query parameter's value as sent: any string form-encoded, or any bytes percent-encoded. */
const anyQueryValue: fc.Arbitrary<string> = fc.oneof(
  shortQuery.map((q) => new URLSearchParams({ q }).toString().slice(2)),
  fc.uint8Array({ maxLength: 30 }).map(percentEncoded),
);

/** A path with its parameters filled: the default space, a real id or any bytes. */
function fillPath(path: string, ids: readonly string[], pick: number, junk: Uint8Array): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'space') return 'default';
    const choice = pick % 3;
    if (choice === 2) return percentEncoded(junk);
    return encodeURIComponent(choice === 0 ? ids[pick % ids.length]! : 'chat-1');
  });
}

/** Junk for a body: any JSON, or an object of the route's own fields with any JSON values. */
function bodyFor(fields: readonly string[]): fc.Arbitrary<unknown> {
  const value = fc.jsonValue({ maxDepth: 3 });
  return fc.oneof(
    value,
    fc.dictionary(fc.constantFrom(...fields, 'space', 'unknown_field'), value, { maxKeys: 5 }),
    fc.dictionary(fc.constantFrom(...fields, 'space'), anyQuery, { maxKeys: 4 }),
  );
}

/** A JSON answer with a status below 500, and a caller's code when it is an error. */
function expectCallerAnswer(
  reply: { status: number; body: unknown; text: string },
  story: string,
): void {
  expect(reply.status, `${story} -> ${reply.text.slice(0, 300)}`).toBeLessThan(500);
  if (reply.status >= 400) {
    const code = (reply.body as { error?: { code?: string } } | undefined)?.error?.code;
    expect(CALLER_CODES.has(code ?? ''), `${story} -> ${reply.text.slice(0, 300)}`).toBe(true);
  }
}

describe('any input over HTTP', () => {
  it('any JSON body of any route, and any string as any query parameter, is never a 5xx', async () => {
    const service = await startTestService();
    const seeded = await seedStore(service.service.engram);
    const ops = await operations(service);
    const withBody = ops.filter((o) => o.fields !== null || o.ndjson);
    const withQuery = ops.filter(
      (o) => o.query.length > 0 && (o.method === 'GET' || o.method === 'DELETE'),
    );
    expect(withBody.length).toBeGreaterThan(20);
    expect(withQuery.length).toBeGreaterThan(10);

    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...withBody)
          .chain((op) =>
            fc.tuple(
              fc.constant(op),
              op.ndjson ? fc.string({ unit: 'binary', maxLength: 200 }) : bodyFor(op.fields!),
              fc.nat(),
              anyPathValue,
            ),
          ),
        async ([op, body, pick, junk]) => {
          const path = fillPath(op.path, seeded, pick, junk);
          const reply = op.ndjson
            ? await service.request(op.method, path, {
                body: body as string,
                headers: { 'content-type': 'application/x-ndjson' },
              })
            : await service.request(op.method, path, { json: body });
          expectCallerAnswer(reply, `${op.method} ${path} ${JSON.stringify(body)?.slice(0, 200)}`);
        },
      ),
      { seed: SEED, numRuns: 500 },
    );

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withQuery).chain((op) =>
          fc.tuple(
            fc.constant(op),
            fc.dictionary(fc.constantFrom(...op.query), anyQueryValue, {
              minKeys: 1,
              maxKeys: 3,
            }),
            fc.nat(),
            anyPathValue,
          ),
        ),
        async ([op, params, pick, junk]) => {
          const path = fillPath(op.path, seeded, pick, junk);
          const search = Object.entries(params)
            .map(([key, value]) => `${key}=${value}`)
            .join('&');
          const reply = await service.request(op.method, `${path}?${search}`);
          expectCallerAnswer(reply, `${op.method} ${path}?${search.slice(0, 200)}`);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  }, 240_000);

  it('any string as the query of recall and session search is answered or a 400', async () => {
    const service = await startTestService();
    await seedStore(service.service.engram);
    await fc.assert(
      fc.asyncProperty(anyQuery, async (query) => {
        for (const path of ['recall', 'sessions/search']) {
          const reply = await service.request('POST', `/v1/spaces/default/${path}`, {
            json: { query },
          });
          expectCallerAnswer(reply, `${path} ${JSON.stringify(query).slice(0, 100)}`);
          if (reply.status !== 200)
            expect(reply.body.error).toMatchObject({
              code: 'INVALID_INPUT',
              details: { field: 'query' },
            });
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// MCP

describe('any input over MCP', () => {
  it('any JSON value as the arguments of any tool is a tool result or -32602, never internal', async () => {
    const engram = testEngram();
    await seedStore(engram);
    const client = await connectMcp(engram);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    const fieldsOf = (tool: (typeof tools)[number]) =>
      Object.keys((tool.inputSchema as { properties?: object }).properties ?? {});
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...tools)
          .chain((tool) => fc.tuple(fc.constant(tool.name), bodyFor(fieldsOf(tool)))),
        async ([name, args]) => {
          const story = `${name} ${JSON.stringify(args)?.slice(0, 200)}`;
          const outcome = await client
            .request(
              { method: 'tools/call', params: { name, arguments: args as never } },
              CallToolResultSchema,
            )
            .then(
              (result) => ({ result }),
              (error: unknown) => ({ error: error as { code?: number; message?: string } }),
            );
          if ('error' in outcome) {
            expect(outcome.error.code, `${story}: ${outcome.error.message}`).toBe(-32602);
            return;
          }
          if (!outcome.result.isError) return;
          const code = (outcome.result.structuredContent as { error?: { code?: string } })?.error
            ?.code;
          expect(CALLER_CODES.has(code ?? ''), `${story}: ${code}`).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  }, 180_000);
});

// ---------------------------------------------------------------------------------------------
// CLI

describe('any string as a query (CLI)', () => {
  it('`engram search` answers or exits 2, never with an internal error', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, `${dir}/engram.db`);
    const seed = await runCli(['-c', config, 'remember', 'Tea with Alice on Tuesdays']);
    expect(seed.code, seed.stderr).toBe(0);
    // A process argument cannot hold a NUL character: the shell could not pass one either.
    const argQuery = anyQuery.filter((q) => !q.includes('\u0000') && q.length < 2000);
    await fc.assert(
      fc.asyncProperty(argQuery, async (query) => {
        const run = await runCli(['-c', config, '--json', 'search', '--', query]);
        const story = `${JSON.stringify(query)}: ${run.code} ${run.stderr.slice(0, 300)}`;
        expect([0, 2], story).toContain(run.code);
        expect(run.stdout + run.stderr, story).not.toContain('INTERNAL');
      }),
      { seed: SEED, numRuns: 12 },
    );
  }, 180_000);
});

// ---------------------------------------------------------------------------------------------
// Decay

const memoryArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  ageDays: fc.integer({ min: 0, max: 400 }),
  pinned: fc.boolean(),
  candidate: fc.boolean(),
  importance: fc.double({ min: 0, max: 1, noNaN: true }),
});
/** A use of memory `item` on day `day` of the schedule. */
const useArb = fc.record({ item: fc.nat(9), day: fc.integer({ min: 1, max: 300 }) });

describe('decay for any schedule', () => {
  it('ends where one run at the end does, and a second run at that time changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(memoryArb, { minLength: 1, maxLength: 8 }),
        fc.array(useArb, { maxLength: 6 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 300 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 400 }),
        async (memories, uses, runDays, endDay) => {
          const start = Date.parse('2026-01-01T00:00:00Z');
          const clocks = [testClock(start), testClock(start)];
          const config: ConfigInput = {
            embedder: { provider: 'none' },
            lifecycle: { backup: { enabled: false } },
          };
          const [scheduled, once] = clocks.map((c) => clockedEngram(c, { config }));
          const ids = await Promise.all(
            [scheduled!, once!].map(async (engram) => {
              const made = await engram.rememberMany(
                memories.map((m, i) => ({
                  body: `memory ${i} of kind ${m.kind}`,
                  kind: m.kind,
                  pinned: m.pinned,
                  importance: m.importance,
                  status: m.candidate ? ('candidate' as const) : ('active' as const),
                  created_at: new Date(start - m.ageDays * DAY).toISOString(),
                })),
                { strict: true },
              );
              return made.map((r) => (r.ok ? r.memory.id : ''));
            }),
          );
          const days = [...new Set([...runDays, ...uses.map((u) => u.day), endDay])]
            .filter((d) => d <= endDay)
            .sort((a, b) => a - b);
          for (const day of days) {
            for (const [i, engram] of [scheduled!, once!].entries()) {
              clocks[i]!.set(start + day * DAY);
              const used = uses
                .filter((u) => u.day === day)
                .map((u) => ids[i]![u.item % memories.length]!);
              if (used.length > 0) await engram.observeMemoryUsage(used);
            }
            if (runDays.includes(day)) await scheduled!.maintain();
          }
          await scheduled!.maintain();
          await once!.maintain();
          const view = async (engram: Engram) =>
            (
              await engram.list({
                statuses: ['candidate', 'active', 'archived', 'forgotten'],
                limit: 100,
              })
            ).items
              .map((m) => `${m.body}|${m.status}|${m.strength}`)
              .sort();
          expect(await view(scheduled!)).toEqual(await view(once!));
          const again = await once!.maintain();
          expect(again).toMatchObject({ strength_updates: 0, archived: 0, promoted: 0 });
        },
      ),
      { seed: SEED, numRuns: 25 },
    );
  }, 180_000);
});

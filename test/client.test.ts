/**
 * The typed HTTP client (`engram/client`) against a real engram HTTP server on 127.0.0.1: every
 * method round-trips and answers what the library answers, errors arrive typed with code, status
 * and field, a token of another space is refused, write sessions number their turns; its method
 * names are the library's; its generated types match `/v1/openapi.json`; and the built package
 * exports it, loading nothing outside dist/client.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { clientApiTypes } from '../scripts/client-api.js';
import type { Engram } from '../src/app.js';
import { EngramClient, EngramClientError } from '../src/client/index.js';
import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const root = join(import.meta.dirname, '..');

/** A server with tokens and no embedder (recall on keywords), and an admin client of it. */
async function serve(extra: { space?: string } = {}) {
  const s = await startTestService({
    ...extra,
    embedder: { provider: 'none' },
    server: { tokens: TOKEN_CONFIG },
  });
  const client = (token: string = TOKENS.admin, space?: string) =>
    new EngramClient({ baseUrl: s.url, token, space, retry: { baseDelayMs: 1 } });
  return { s, engram: s.service.engram, client };
}

/** The library's answer as it travels over HTTP (JSON). */
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The error a call failed with. */
async function failure(call: Promise<unknown>): Promise<EngramClientError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngramClientError);
  return err as EngramClientError;
}

describe('EngramClient against engram serve', () => {
  it('round-trips remember, get, list, revise, history, changes, relations and recall', async () => {
    const { engram, client } = await serve();
    const c = client();
    const created = await c.remember({
      body: 'Billing deploys happen on Thursdays.',
      kind: 'rule',
    });
    expect(created.created).toBe(true);
    const id = created.memory.id;
    expect(
      (await c.remember({ body: 'Billing deploys happen on Thursdays.', kind: 'rule' })).created,
    ).toBe(false);
    // The server's configured space, asked once, is the client's default.
    expect(created.memory.space).toBe('default');
    expect(await c.get(id)).toEqual(json(await engram.get(id)));
    expect(await c.list({ kinds: ['rule'], pinned: false })).toEqual(
      json(await engram.list({ kinds: ['rule'], pinned: false })),
    );
    expect((await c.revise(id, { body: 'Billing deploys happen on Wednesdays.' })).version).toBe(2);
    expect((await c.tag(id, { add: ['deploy'] })).tags).toEqual(['deploy']);
    expect((await c.move(id, 'projects/billing')).area).toBe('projects/billing');
    expect((await c.setImportance(id, 0.9, { reason: 'outage' })).importance).toBe(0.9);
    expect((await c.pin(id)).pinned).toBe(true);
    expect((await c.unpin(id)).pinned).toBe(false);
    expect((await c.forget(id, { reason: 'test' })).status).toBe('forgotten');
    expect((await c.restore(id)).status).toBe('active');
    expect((await c.restoreVersion(id, 1)).body).toBe('Billing deploys happen on Thursdays.');
    const history = await c.history(id);
    expect(history).toEqual(json(await engram.history(id)));
    expect(history.status_events.map((e) => e.to_status)).toContain('forgotten');

    const other = (await c.remember({ body: 'The billing runbook lives in the wiki.' })).memory.id;
    const related = await c.relate(id, other, { type: 'related' });
    expect(related.map((r) => [r.from_id, r.to_id, r.type])).toEqual([[id, other, 'related']]);
    expect(await c.relations(id)).toEqual(json(await engram.relations(id)));
    expect(await c.unrelate(id, other)).toBeUndefined();
    expect((await c.relations(id)).every((r) => r.invalidated_at !== null)).toBe(true);
    const newer = (await c.remember({ body: 'Billing deploys moved to Tuesdays.' })).memory.id;
    const superseded = await c.supersede(id, newer);
    expect([superseded.old.status, superseded.new.id]).toEqual(['superseded', newer]);

    const recall = await c.recall({ query: 'billing runbook wiki', k: 3 });
    expect(recall.hits[0]?.id).toBe(other);
    expect((await c.status()).store.items_total).toBeGreaterThanOrEqual(3);
    expect(await c.spaces()).toEqual([{ space: 'default', items: expect.any(Number) }]);
    expect(await c.me()).toMatchObject({ name: 'admin', role: 'admin', default_space: 'default' });
    expect((await c.health()).status).toMatch(/ok|degraded/);

    const batch = await c.rememberMany([{ body: 'Standup is at 9:30.' }, { body: '' }]);
    expect(batch.map((r) => r.ok)).toEqual([true, false]);
    expect(batch[1]).toMatchObject({ index: 1, error: { code: 'INVALID_INPUT', field: 'body' } });
    expect(await c.purge(other, { reason: 'privacy' })).toEqual({ id: other, purged: true });
    expect((await failure(c.get(other))).code).toBe('NOT_FOUND');
  });

  it('round-trips sessions, consolidation, areas, the graph, lifecycle and settings', async () => {
    const { engram, client } = await serve();
    const c = client(TOKENS.admin, 'team-a');
    const space = { space: 'team-a' };
    const conv = {
      id: 'conv-1',
      agent: 'claude',
      turns: [{ role: 'user' as const, text: 'Deploy the relay on prod.example.com tonight.' }],
    };
    expect(await c.importSessions([conv])).toEqual([
      { index: 0, ok: true, id: 'conv-1', status: 'created', turns: 1 },
    ]);
    expect((await c.importSessions([conv]))[0]).toMatchObject({ status: 'exists' });
    expect(await c.listSessions()).toEqual(json(await engram.listSessions(space)));
    expect((await c.getSession('conv-1')).turns).toHaveLength(1);
    expect((await c.searchSessions({ query: 'relay tonight' })).hits[0]?.session_id).toBe('conv-1');
    expect(await c.purgeSession('conv-1', { reason: 'test' })).toMatchObject({
      id: 'conv-1',
      purged: true,
    });

    const a = (await c.remember({ body: 'The relay runs on prod.example.com.', area: 'ops/old' }))
      .memory;
    await c.remember({ body: 'prod.example.com needs a restart weekly.', area: 'ops/old' });
    await engram.idle();
    expect((await c.graphStats()).enabled).toBe(true);
    const entities = await c.graphEntities({ top: 5 });
    expect(entities).toEqual(json(await engram.graphEntities({ ...space, top: 5 })));
    const host = entities.find((e) => e.name === 'prod.example.com');
    expect(host).toBeDefined();
    expect(
      (await c.graphMentions({ entity: 'prod.example.com' })).memories.map((m) => m.id),
    ).toContain(a.id);
    expect((await c.graphNeighbors({ entity: 'prod.example.com' })).entity.name).toBe(
      'prod.example.com',
    );
    expect(await c.graphHubs()).toEqual(json(await engram.graphHubs(space)));

    expect(await c.areas()).toEqual([{ area: 'ops/old', items: 2 }]);
    expect((await c.foldArea('ops/old', 'ops/new', { dry_run: true })).items).toHaveLength(2);
    expect((await c.dreamPreview({ stages: ['duplicates'] })).stages.map((s) => s.stage)).toEqual([
      'duplicates',
    ]);
    const run = await c.dreamRun({ dry_run: true, stages: ['duplicates'] });
    expect(run.run.dry_run).toBe(true);
    expect((await c.dreamRuns()).runs.map((r) => r.id)).toEqual([run.run.id]);
    expect((await c.dreamDiary()).run.id).toBe(run.run.id);
    expect(await c.dreamDiary(run.run.id)).toEqual(
      json(await engram.dreamDiary(run.run.id, space)),
    );
    expect((await c.dreamUndo(run.run.id)).run_id).toBe(run.run.id);
    expect(await c.dreamCalibrate()).toHaveProperty('merges');

    expect((await c.maintain({ dry_run: true })).dry_run).toBe(true);
    expect(await c.review()).toHaveProperty('items');
    expect((await c.reviewAction(a.id, 'reinforce')).id).toBe(a.id);
    expect((await c.observeMemoryUsage([a.id])).results).toHaveLength(1);
    const message = 'how do I restart prod.example.com';
    expect(await c.analyzeForRecall(message)).toEqual(
      json(await engram.analyzeForRecall({ message, space: 'team-a' })),
    );
    expect(await c.processMessage('how do I restart prod.example.com')).toHaveProperty('enabled');
    expect((await c.configureAutoRecall({ max_results: 2 })).max_results).toBe(2);
    expect((await c.autoRecallSettings()).max_results).toBe(2);
    expect(await c.autoRecallStats()).toEqual(json(await engram.autoRecallStats(space)));
    expect((await c.dormantReview({ limit: 5 })).events).toEqual([]);
    expect((await failure(c.dormantInspect('01NOEVENT'))).code).toBe('NOT_FOUND');
    const feedback = c.dormantFeedback({ event_id: '01NOEVENT', category: 'useful' });
    expect((await failure(feedback)).code).toBe('NOT_FOUND');
    const changed = await c.changeSettings({ 'recall.weights.keyword': 0.5 });
    expect(changed).toEqual(json(await engram.settings(space)));
    expect((await c.settings()).sections).toEqual(changed.sections);
    expect((await c.insights({ days: 7 })).timeline).toHaveLength(7);
  });

  it('round-trips the store-wide job and model routes', async () => {
    const { client } = await serve();
    const c = client();
    expect(await c.jobs()).toMatchObject({ jobs: expect.any(Array), next_cursor: null });
    expect(await c.jobActivity()).toHaveProperty('counts');
    expect((await failure(c.job('no-such-job'))).code).toBe('NOT_FOUND');
    expect((await failure(c.retryJob('no-such-job'))).code).toBe('NOT_FOUND');
    expect((await failure(c.cancelJob('no-such-job'))).code).toBe('NOT_FOUND');
    expect(await c.retryItemFailures({ space: 'default' })).toBe(0);
    expect((await c.modelsStatus()).published).toBeNull();
    const use = await failure(c.useModel({ model: 'nonsense:x' }));
    expect([use.code, use.status, use.details.field]).toEqual(['INVALID_INPUT', 400, 'model']);
    expect((await failure(c.rollbackModel())).code).toBe('NOT_FOUND');
    expect(await c.pruneModels()).toEqual({ models: [], vectors: 0 });
    expect(await c.embedderStatus({ limit: 5 })).toMatchObject({ pending: 0, failures: [] });
  });

  it('maps errors to EngramClientError with code, status, field and request id', async () => {
    const { client } = await serve();
    const writer = client(TOKENS.writerA, 'team-a');
    const invalid = await failure(writer.recall({ query: '' }));
    expect(invalid).toMatchObject({ code: 'INVALID_INPUT', status: 400, attempts: 1 });
    expect(invalid.details.field).toBe('query');
    expect(invalid.requestId).toMatch(/\S/);
    expect(invalid.toJSON()).toEqual({
      code: 'INVALID_INPUT',
      message: invalid.message,
      details: invalid.details,
    });
    expect((await failure(writer.get('01NOSUCHMEMORY'))).status).toBe(404);
    // A token of team-a is refused on team-b, per call and as the client's space.
    const other = await failure(writer.list({ space: 'team-b' }));
    expect([other.code, other.status]).toEqual(['FORBIDDEN', 403]);
    expect((await failure(client(TOKENS.writerA, 'team-b').remember({ body: 'x' }))).code).toBe(
      'FORBIDDEN',
    );
    const reader = await failure(client(TOKENS.readerA, 'team-a').remember({ body: 'x' }));
    expect(reader.message).toMatch(/needs the write role/);
    const unknown = await failure(client('not-a-token-0123456789', 'team-a').list());
    expect([unknown.code, unknown.status]).toEqual(['UNAUTHORIZED', 401]);
    expect(() => new EngramClient({ baseUrl: 'ftp://x' })).toThrow(
      /baseUrl: must be an http\(s\) URL/,
    );
  });

  it('records the remembers of a session client, or of a write-session handle, as numbered turns', async () => {
    const { engram, s } = await serve({ space: 'team-a' });
    const c = new EngramClient({
      baseUrl: `${s.url}/v1`,
      token: TOKENS.writerA,
      session: 'conv-7',
    });
    await c.remember({ body: 'The printer jams on page two.' });
    await c.rememberMany([{ body: 'It happens with duplex on.' }]);
    const handle = await c.writeSession({ id: 'conv-8' });
    await handle.remember({ body: 'The scanner is fine.' });
    const page = await engram.list({ space: 'team-a', order: 'created' });
    const turns = page.items.map((m) => [m.source?.session, m.source?.turn]).reverse();
    expect(turns).toEqual([
      ['conv-7', 0],
      ['conv-7', 1],
      ['conv-8', 0],
    ]);
    expect((await c.writeSession()).id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** Library methods the client leaves out, and why (docs/client.md lists them too). */
const LEFT_OUT = {
  addWriteObserver: 'in-process: observes this process’s writes',
  backfill: 'no route: the server’s worker fills vectors itself',
  close: 'in-process: a client holds no store',
  config: 'in-process: the server’s configuration stays on the server',
  dormantCalibrate: 'no route (CLI)',
  dormantIdle: 'in-process',
  enqueueJob: 'no route: jobs are queued by the server',
  graphRebuild: 'no route (CLI)',
  idle: 'in-process',
  importRecords: 'no route of that shape: POST /import takes a JSONL stream',
  itemFailures: 'no own route: failures come with jobActivity and embedderStatus',
  jobSummary: 'no own route: counts come with jobActivity and health',
  jobWorker: 'in-process',
  prepareAutoRecall: 'in-process: the server loads its own models',
  prepareModels: 'in-process: the server loads its own models',
  runJobHere: 'in-process',
  startDreamSchedule: 'in-process',
  startMaintenanceSchedule: 'in-process',
  storeForTransfer: 'in-process',
} satisfies Partial<Record<keyof Engram, string>>;

/** Client methods the library has no equivalent of. */
const CLIENT_ONLY = ['me'] as const;

// Type-level: every client method is a library method of the same name, or named in CLIENT_ONLY.
type Extra = Exclude<keyof EngramClient, keyof Engram | 'baseUrl' | 'space' | 'session'>;
const extraIsClientOnly: [Extra] extends [(typeof CLIENT_ONLY)[number]] ? true : false = true;
// Type-level: each covered method answers what the library answers (its JSON form), except the
// ones named: health (the HTTP report is the server's, not ServiceHealth), writeSession (its
// handle takes typed input), embedderStatus (the library types `queue` as unknown).
type Covered = Extract<keyof EngramClient, keyof Engram>;
type Answer<T> = T extends (...args: never[]) => unknown ? Awaited<ReturnType<T>> : never;
type Differs = {
  [K in Covered]: Answer<Engram[K]> extends Answer<EngramClient[K]> ? never : K;
}[Covered];
const answersMatch: [Differs] extends ['health' | 'writeSession' | 'embedderStatus']
  ? true
  : false = true;

describe('EngramClient and the library', () => {
  it('has the library’s method names: every library method is covered or left out with a reason', async () => {
    const { engram } = await serve();
    const client = new EngramClient({ space: 'default' });
    const methods = Object.keys(client).filter(
      (k) => typeof (client as unknown as Record<string, unknown>)[k] === 'function',
    );
    const library = Object.keys(engram);
    expect(methods.filter((m) => !library.includes(m))).toEqual([...CLIENT_ONLY]);
    const uncovered = library.filter((k) => !methods.includes(k)).sort();
    expect(uncovered).toEqual(Object.keys(LEFT_OUT).sort());
    expect(methods.length).toBeGreaterThanOrEqual(68);
    expect([extraIsClientOnly, answersMatch]).toEqual([true, true]);
  });

  it('src/client/api-schema.ts matches /v1/openapi.json (npx tsx scripts/client-api.ts > src/client/api-schema.ts)', async () => {
    const committed = readFileSync(join(root, 'src', 'client', 'api-schema.ts'), 'utf8');
    expect(committed === (await clientApiTypes())).toBe(true);
  });

  it('is exported as engram/client from dist and loads nothing outside dist/client', () => {
    const dir = join(root, 'dist', 'client');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
        (m) => m[1],
      );
      expect(
        specifiers.filter((s) => !s!.startsWith('./')),
        file,
      ).toEqual([]);
    }
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('engram/client'); console.log(typeof m.EngramClient, new m.EngramClient({ baseUrl: 'http://127.0.0.1:1/v1' }).baseUrl)",
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function http://127.0.0.1:1');
  });
});

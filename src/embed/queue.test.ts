// Tests of the embedding queue with a controllable embedder double: order, chunks, deadlines, close.
import { describe, expect, it } from 'vitest';

import { EngramError } from '../domain/errors.js';
import type { Embedder, EmbedderState } from './embedder.js';
import { EmbeddingQueue } from './queue.js';

interface Pending {
  texts: readonly string[];
  release(): void;
  fail(error: Error): void;
}

/** Embedder double: records each call and holds it until the test releases it. */
class ControlledEmbedder implements Embedder {
  readonly modelId = 'test:controlled@1';
  readonly dimension = 2;
  readonly calls: (readonly string[])[] = [];
  readonly pending: Pending[] = [];
  prepareCalls = 0;
  autoRelease = false;
  private waiters: (() => void)[] = [];
  prepareGate: Promise<void> = Promise.resolve();

  async prepare(): Promise<void> {
    this.prepareCalls++;
    await this.prepareGate;
  }

  embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    this.calls.push(texts);
    const result = texts.map((t) => (t === '' ? null : Float32Array.of(t.length, 1)));
    if (this.autoRelease) return Promise.resolve(result);
    return new Promise((resolve, reject) => {
      this.pending.push({ texts, release: () => resolve(result), fail: reject });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves once `count` calls are held. */
  async held(count: number): Promise<void> {
    while (this.pending.length < count) await new Promise<void>((r) => this.waiters.push(r));
  }

  /** Releases the oldest held call and waits for the queue to move on. */
  async releaseNext(): Promise<void> {
    this.pending.shift()!.release();
    await new Promise((r) => setImmediate(r));
  }

  state(): EmbedderState {
    return { model_id: this.modelId, dimension: 2, available: true, loaded: true };
  }

  async close(): Promise<void> {}
}

function reasonOf(error: unknown): unknown {
  return error instanceof EngramError ? error.details.reason : undefined;
}

describe('EmbeddingQueue', () => {
  it('runs a later query before earlier background work, FIFO within a priority', async () => {
    const embedder = new ControlledEmbedder();
    const queue = new EmbeddingQueue(embedder);
    const done: string[] = [];
    const track = (name: string, p: Promise<unknown>) => p.then(() => done.push(name));
    const all = [track('bg0', queue.embed(['bg0'], { priority: 'background' }))];
    await embedder.held(1);
    all.push(
      track('bg1', queue.embed(['bg1'], { priority: 'background' })),
      track('bg2', queue.embed(['bg2'], { priority: 'background' })),
      track('w1', queue.embed(['w1'], { priority: 'write' })),
      track('q1', queue.embed(['q1'], { priority: 'query' })),
      track('q2', queue.embed(['q2'], { priority: 'query' })),
    );
    expect(queue.stats().queued).toEqual({ query: 2, write: 1, background: 2 });
    expect(queue.stats().in_flight).toBe(1);
    for (let i = 0; i < 6; i++) {
      await embedder.held(1);
      await embedder.releaseNext();
    }
    await Promise.all(all);
    expect(embedder.calls.map((c) => c[0])).toEqual(['bg0', 'q1', 'q2', 'w1', 'bg1', 'bg2']);
    expect(done).toEqual(['bg0', 'q1', 'q2', 'w1', 'bg1', 'bg2']);
    expect(queue.stats()).toEqual({
      queued: { query: 0, write: 0, background: 0 },
      in_flight: 0,
      completed: 6,
      failed: 0,
    });
  });

  it('starts a query on an idle queue at once, other work a turn later', async () => {
    const embedder = new ControlledEmbedder();
    embedder.autoRelease = true;
    const queue = new EmbeddingQueue(embedder);
    await queue.embed(['warm'], { priority: 'write' }); // the first use prepares the embedder
    const idle = () => new Promise((r) => setImmediate(r)); // the finished call leaves the queue
    await idle();
    const query = queue.embed(['q'], { priority: 'query' });
    expect(embedder.calls.map((c) => c[0])).toEqual(['warm', 'q']);
    await query;
    await idle();
    const write = queue.embed(['w'], { priority: 'write' });
    expect(embedder.calls).toHaveLength(2);
    const late = queue.embed(['q2'], { priority: 'query' });
    expect(embedder.calls.map((c) => c[0])).toEqual(['warm', 'q', 'q2']);
    await Promise.all([write, late]);
    expect(embedder.calls.map((c) => c[0])).toEqual(['warm', 'q', 'q2', 'w']);
    expect(queue.stats().completed).toBe(4);
  });

  it('splits large batches so a query waits behind one chunk at most', async () => {
    const embedder = new ControlledEmbedder();
    const queue = new EmbeddingQueue(embedder, { chunkSize: 2 });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'e'];
    const big = queue.embed(texts, { priority: 'background' });
    await embedder.held(1);
    const query = queue.embed(['q'], { priority: 'query' });
    expect(queue.stats().in_flight).toBe(1);
    await embedder.releaseNext();
    await embedder.held(1);
    expect(embedder.pending[0]!.texts).toEqual(['q']);
    embedder.autoRelease = true;
    await embedder.releaseNext();
    expect(await query).toHaveLength(1);
    const vectors = await big;
    expect(vectors.map((v) => v?.[0])).toEqual([1, 2, 3, 4, 1]);
    expect(embedder.calls).toEqual([['a', 'bb'], ['q'], ['ccc', 'dddd'], ['e']]);
  });

  it('rejects and removes a queued call when its timeout expires', async () => {
    const embedder = new ControlledEmbedder();
    const queue = new EmbeddingQueue(embedder);
    const first = queue.embed(['first'], { priority: 'background' });
    await embedder.held(1);
    const late = queue.embed(['late'], { priority: 'query', timeoutMs: 20 });
    const error = await late.catch((e) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(error.details).toMatchObject({ rule: 'semantic_budget_exceeded', reason: 'timeout' });
    expect(queue.stats().queued.query).toBe(0);
    await embedder.releaseNext();
    await first;
    expect(embedder.calls).toEqual([['first']]);
    expect(queue.stats()).toMatchObject({ completed: 1, failed: 1 });
    expect(queue.stats().last_error).toMatch(/20 ms/);
  });

  it('rejects a running call at its deadline and discards the result', async () => {
    const embedder = new ControlledEmbedder();
    const queue = new EmbeddingQueue(embedder);
    const call = queue.embed(['slow'], { priority: 'query', timeoutMs: 20 });
    await embedder.held(1);
    expect(reasonOf(await call.catch((e) => e))).toBe('timeout');
    expect(queue.stats().in_flight).toBe(0);
    await embedder.releaseNext();
    embedder.autoRelease = true;
    expect(await queue.embed(['next'], { priority: 'query' })).toHaveLength(1);
    expect(queue.stats()).toMatchObject({ completed: 1, failed: 1, in_flight: 0 });
  });

  it('covers a slow first-use load with the caller timeout, and loads once', async () => {
    const embedder = new ControlledEmbedder();
    embedder.autoRelease = true;
    let finishLoad = () => {};
    embedder.prepareGate = new Promise((r) => (finishLoad = r));
    const queue = new EmbeddingQueue(embedder);
    const error = await queue.embed(['x'], { priority: 'query', timeoutMs: 20 }).catch((e) => e);
    expect(reasonOf(error)).toBe('timeout');
    finishLoad();
    expect(await queue.embed(['yy', ''], { priority: 'query' })).toEqual([
      Float32Array.of(2, 1),
      null,
    ]);
    expect(embedder.prepareCalls).toBe(1);
    expect(embedder.calls).toEqual([['yy', '']]);
  });

  it('honours abort signals before and while queued', async () => {
    const embedder = new ControlledEmbedder();
    const queue = new EmbeddingQueue(embedder);
    const aborted = AbortSignal.abort();
    expect(
      reasonOf(await queue.embed(['a'], { priority: 'write', signal: aborted }).catch((e) => e)),
    ).toBe('aborted');
    const blocker = queue.embed(['b'], { priority: 'write' });
    await embedder.held(1);
    const controller = new AbortController();
    const waiting = queue.embed(['c'], { priority: 'write', signal: controller.signal });
    controller.abort();
    expect(reasonOf(await waiting.catch((e) => e))).toBe('aborted');
    await embedder.releaseNext();
    await blocker;
    expect(embedder.calls).toEqual([['b']]);
  });

  it('turns embedder failures into EMBEDDER_UNAVAILABLE and keeps going', async () => {
    const embedder = new ControlledEmbedder();
    const queue = new EmbeddingQueue(embedder);
    const failing = queue.embed(['x'], { priority: 'query' });
    await embedder.held(1);
    embedder.pending.shift()!.fail(new Error('boom'));
    const error = await failing.catch((e) => e);
    expect(error).toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
      details: { rule: 'embedder_failed' },
    });
    embedder.autoRelease = true;
    expect(await queue.embed(['ok'], { priority: 'query' })).toHaveLength(1);
    expect(queue.stats()).toMatchObject({
      completed: 1,
      failed: 1,
      last_error: 'embedder failed: boom',
    });
  });

  it('validates input and answers empty batches without the embedder', async () => {
    const embedder = new ControlledEmbedder();
    const queue = new EmbeddingQueue(embedder);
    expect(await queue.embed([], { priority: 'query' })).toEqual([]);
    const bad = [
      queue.embed(['a'], { priority: 'urgent' as 'query' }),
      queue.embed(['a'], { priority: 'query', timeoutMs: 0 }),
      queue.embed([1] as unknown as string[], { priority: 'query' }),
    ];
    for (const p of bad) await expect(p).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(embedder.prepareCalls).toBe(0);
    expect(() => new EmbeddingQueue(embedder, { chunkSize: 0 })).toThrow(EngramError);
  });

  it('close rejects queued calls, waits for the running one, then refuses new calls', async () => {
    const embedder = new ControlledEmbedder();
    const queue = new EmbeddingQueue(embedder, { chunkSize: 1 });
    const running = queue.embed(['run'], { priority: 'write' });
    await embedder.held(1);
    const split = queue.embed(['s1', 's2'], { priority: 'write' });
    const queued = queue.embed(['queued'], { priority: 'query' });
    const closing = queue.close();
    expect(reasonOf(await queued.catch((e) => e))).toBe('closed');
    expect(reasonOf(await split.catch((e) => e))).toBe('closed');
    let closed = false;
    void closing.then(() => (closed = true));
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    await embedder.releaseNext();
    await closing;
    expect(await running).toHaveLength(1);
    expect(reasonOf(await queue.embed(['late'], { priority: 'query' }).catch((e) => e))).toBe(
      'closed',
    );
    expect(embedder.calls).toEqual([['run']]);
  });
});

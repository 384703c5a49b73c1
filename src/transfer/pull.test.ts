import { describe, expect, it } from 'vitest';

import { pulled } from './pull.js';

/** A producer of `n` numbered lines that records how far it got and whether it ended. */
function counting(n: number) {
  const state = { pushed: 0, ended: false, stoppedBy: undefined as unknown };
  const produce = async (push: (line: string) => Promise<void>) => {
    try {
      for (let i = 0; i < n; i++) {
        await push(`line ${i}`);
        state.pushed++;
      }
    } catch (err) {
      state.stoppedBy = err;
      throw err;
    } finally {
      state.ended = true;
    }
  };
  return { state, produce };
}

describe('pulled', () => {
  it('yields every pushed line in order', async () => {
    const { produce } = counting(1_200);
    const out: string[] = [];
    for await (const line of pulled(produce)) out.push(line);
    expect(out).toEqual(Array.from({ length: 1_200 }, (_, i) => `line ${i}`));
  });

  it('runs nothing before the first line is pulled, and holds the producer to the reader', async () => {
    const { state, produce } = counting(10_000);
    const lines = pulled(produce);
    await Promise.resolve();
    expect(state.pushed).toBe(0);
    expect((await lines.next()).value).toBe('line 0');
    // A turn of the event loop lets a producer run as far as it may: it stops at the lines held
    // unread (the page being read and the next one) instead of running to the end.
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.pushed).toBeLessThanOrEqual(1_000);
    expect(state.ended).toBe(false);
    await lines.return(undefined);
  });

  it('ends the producer before an early stop returns, without reporting its stop', async () => {
    const { state, produce } = counting(10_000);
    const out: string[] = [];
    for await (const line of pulled(produce)) {
      out.push(line);
      if (out.length === 3) break;
    }
    expect(out).toEqual(['line 0', 'line 1', 'line 2']);
    expect(state.ended).toBe(true);
    expect(state.stoppedBy).toBeInstanceOf(Error);
    expect(state.pushed).toBeLessThan(10_000);
  });

  it('hands the reader the lines pushed before a failure, then the failure', async () => {
    const out: string[] = [];
    const failing = async (push: (line: string) => Promise<void>) => {
      await push('a');
      await push('b');
      throw new Error('the store went away');
    };
    await expect(
      (async () => {
        for await (const line of pulled(failing)) out.push(line);
      })(),
    ).rejects.toThrow('the store went away');
    expect(out).toEqual(['a', 'b']);
  });
});

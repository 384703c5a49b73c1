/**
 * A bounded pool for the judge's requests: all results in order or the first failure, with at most
 * `limit` tasks running, and an abort that rejects at once instead of waiting for stragglers.
 */

/**
 * Runs `task` over `items`, at most `limit` at a time, resolving every result in input order.
 * Rejects with the first task error, or with `signal.reason` as soon as `signal` aborts; no task
 * starts after that. Stopping the tasks still running is the caller's job.
 */
export function runPool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
  signal: AbortSignal,
): Promise<R[]> {
  return new Promise<R[]>((resolve, reject) => {
    const results = new Array<R>(items.length);
    let next = 0;
    let done = 0;
    let settled = false;
    const finish = (error?: { reason: unknown }) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve(results);
      else reject(error.reason);
    };
    const onAbort = () => finish({ reason: signal.reason });
    const launch = () => {
      if (settled || next >= items.length) return;
      const index = next++;
      task(items[index]!, index).then(
        (result) => {
          results[index] = result;
          if (++done === items.length) finish();
          else launch();
        },
        (error: unknown) => finish({ reason: error }),
      );
    };
    if (signal.aborted) return onAbort();
    if (items.length === 0) return finish();
    signal.addEventListener('abort', onAbort, { once: true });
    for (let k = 0; k < Math.min(limit, items.length); k++) launch();
  });
}

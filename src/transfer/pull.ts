/**
 * A pushed stream turned into a pulled one. An export is written inside a store snapshot, whose
 * transaction lasts exactly as long as the function given to it, while its readers (the CLI's
 * pipeline, an HTTP response) pull lines one at a time and may stop early. The producer here
 * pushes lines and waits while a page of them is unread (backpressure); when the reader stops,
 * the producer's next push throws, so the snapshot always ends.
 */

/** Lines held unread before the producer waits. */
const HIGH_WATER = 500;

/** A wake-up one side awaits and the other fires; firing with no one waiting does nothing. */
class Signal {
  private wake: (() => void) | undefined;

  wait(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  fire(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** Why a push fails once the reader has stopped (never seen by the reader). */
class ReaderStopped extends Error {}

/**
 * Runs `produce` when the first line is pulled and yields what it pushes, in order. A failure of
 * `produce` reaches the reader after the lines pushed before it.
 */
export async function* pulled(
  produce: (push: (line: string) => Promise<void>) => Promise<void>,
): AsyncGenerator<string> {
  let lines: string[] = [];
  let ended = false;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  const readable = new Signal();
  const writable = new Signal();
  const push = async (line: string): Promise<void> => {
    if (stopped) throw new ReaderStopped();
    lines.push(line);
    readable.fire();
    if (lines.length >= HIGH_WATER) await writable.wait();
    if (stopped) throw new ReaderStopped();
  };
  const production = produce(push)
    .catch((error: unknown) => {
      if (!stopped) failure = { error };
    })
    .finally(() => {
      ended = true;
      readable.fire();
    });
  try {
    for (;;) {
      const batch = lines;
      lines = [];
      writable.fire();
      yield* batch;
      if (batch.length > 0) continue;
      if (ended) break;
      await readable.wait();
    }
    if (failure) throw failure.error;
  } finally {
    stopped = true;
    writable.fire();
    await production;
  }
}

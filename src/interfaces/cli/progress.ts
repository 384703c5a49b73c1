/** Progress on stderr: a bar on a terminal, periodic percentage lines otherwise (logs, agents). */
import type { SingleBar } from 'cli-progress';

/** A progress reporter. */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** Makes a reporter labelled `label`. */
export type ProgressFactory = (label: string) => Progress;

function lines(label: string): Progress {
  let lastPct = -1;
  return {
    update(done, total) {
      const pct = Math.floor((100 * done) / Math.max(1, total));
      if (pct >= lastPct + 10 || (done === total && pct !== lastPct)) {
        lastPct = pct;
        process.stderr.write(`${label}: ${pct}%\n`);
      }
    },
    stop() {},
  };
}

function bar(Bar: typeof SingleBar, label: string): Progress {
  const shown = new Bar({
    format: `${label} [{bar}] {percentage}% | {value}/{total}`,
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: false,
  });
  let started = false;
  return {
    update(done, total) {
      if (!started) shown.start(total, 0);
      started = true;
      shown.setTotal(total);
      shown.update(done);
    },
    stop() {
      if (started) shown.stop();
    },
  };
}

/** The reporters of this process; the bar library is loaded only when stderr is a terminal. */
export async function progressFactory(): Promise<ProgressFactory> {
  if (!process.stderr.isTTY) return lines;
  const { SingleBar } = await import('cli-progress');
  return (label) => bar(SingleBar, label);
}

/** A progress reporter labelled `label`. */
export async function progress(label: string): Promise<Progress> {
  return (await progressFactory())(label);
}

/** Progress on stderr: a bar on a terminal, periodic percentage lines otherwise (logs, agents). */
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

/** The reporters of this process; the bar library is loaded only when stderr is a terminal. */
export async function progressFactory(): Promise<ProgressFactory> {
  if (!process.stderr.isTTY) return lines;
  return (await import('./progress-bar.js')).bar;
}

/** A progress reporter labelled `label`. */
export async function progress(label: string): Promise<Progress> {
  return (await progressFactory())(label);
}

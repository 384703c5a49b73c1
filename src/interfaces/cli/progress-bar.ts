/**
 * The progress bar shown on a terminal. Loaded only when stderr is a terminal; it imports the bar
 * library statically, which works the same compiled and bundled.
 */
import { SingleBar } from 'cli-progress';

import type { Progress } from './progress.js';

/** A bar labelled `label` on stderr. */
export function bar(label: string): Progress {
  const shown = new SingleBar({
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

/**
 * Running the memory page's actions: one action at a time, the memory reloaded after each, and
 * the outcome (a success notice or the error with what to do) shown next to the action that ran.
 */
import { useCallback, useState } from 'preact/hooks';

import { ErrorNote } from '../../lib/ui';

/** The last outcome: which action, and its error or success message. */
type Outcome =
  | { name: string; ok: true; message: string }
  | { name: string; ok: false; error: unknown };

/** Runs the page's actions and remembers how the last one ended. */
export interface Runner {
  /** The action running now, if any (its controls are disabled meanwhile). */
  busy: string | null;
  last: Outcome | null;
  /** Runs `work` as action `name`; on success shows `done` and reloads. True when it succeeded. */
  run(name: string, work: () => Promise<unknown>, done: string): Promise<boolean>;
}

/** A runner that calls `reload` after each successful action. */
export function useRunner(reload: () => void): Runner {
  const [busy, setBusy] = useState<string | null>(null);
  const [last, setLast] = useState<Outcome | null>(null);
  const run = useCallback(
    async (name: string, work: () => Promise<unknown>, done: string) => {
      setBusy(name);
      setLast(null);
      try {
        await work();
        setLast({ name, ok: true, message: done });
        reload();
        return true;
      } catch (error) {
        setLast({ name, ok: false, error });
        return false;
      } finally {
        setBusy(null);
      }
    },
    [reload],
  );
  return { busy, last, run };
}

/** The outcome of action `name`, where that action's controls are (nothing for other actions). */
export function ActionOutcome(props: { runner: Runner; name: string }) {
  const last = props.runner.last;
  if (!last || last.name !== props.name) return null;
  if (!last.ok) return <ErrorNote error={last.error} />;
  return (
    <div class="note note-ok" role="status">
      {last.message}
    </div>
  );
}

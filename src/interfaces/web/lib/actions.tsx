/**
 * Hooks of the admin pages (jobs and models): refreshing while background work runs, with a timer
 * that lives only while there is work and the page is open, and the page's actions, whose outcome
 * (a sentence, or an error with what to do) stays in view at the bottom of the screen even when
 * the row or panel the action was taken in goes away (a cancelled transition, a job filtered out).
 */
import './actions.css';

import { useEffect, useRef, useState } from 'preact/hooks';

import { ErrorNote, Notice } from './ui';

/** How often a page refreshes while work runs. */
export const POLL_MS = 3000;

/**
 * Calls `tick` every `ms` while `active` (skipped while the tab is hidden). The timer stops as soon
 * as nothing runs any more, and when the page is left (unmounted).
 */
export function usePoll(active: boolean, tick: () => void, ms = POLL_MS): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => {
      if (!document.hidden) latest.current();
    }, ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}

/** An action's state: running, what it did, or why it failed. */
export interface Action {
  busy: boolean;
  done: string | null;
  error: unknown;
  /** Runs `work`, which says in a sentence what it did; a failure is kept, never thrown. */
  run(work: () => Promise<string>): Promise<void>;
  /** Forgets the last outcome. */
  clear(): void;
}

/** One action of a page or a row; its last outcome stays shown until the next run. */
export function useAction(): Action {
  const [state, setState] = useState<{ busy: boolean; done: string | null; error: unknown }>({
    busy: false,
    done: null,
    error: null,
  });
  const run = async (work: () => Promise<string>) => {
    setState({ busy: true, done: null, error: null });
    try {
      setState({ busy: false, done: await work(), error: null });
    } catch (error) {
      setState({ busy: false, done: null, error });
    }
  };
  const clear = () => setState({ busy: false, done: null, error: null });
  return { ...state, run, clear };
}

/** The last outcome of the page's actions, kept in view at the bottom of the screen. */
export function ActionToast({ action }: { action: Action }) {
  if (!action.error && !action.done) return null;
  return (
    <div class="action-toast">
      {action.error ? <ErrorNote error={action.error} /> : <Notice>{action.done}</Notice>}
      <button type="button" class="link" onClick={action.clear}>
        Dismiss
      </button>
    </div>
  );
}

/**
 * The console's shared pieces: page frame, loading and error states, empty states, a confirm
 * dialog for destructive actions, labelled fields, badges, times, and a hook for async data.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';

import { errorText } from './api';

/** A page: its heading (also the document title) and its content. */
export function Page(props: {
  title: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  useEffect(() => {
    document.title = `${props.title} · engram`;
  }, [props.title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title">{props.title}</h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

/** An error shown where it happened, with what to do (role=alert: read out when it appears). */
export function ErrorNote(props: { error: unknown; onRetry?: () => void }) {
  if (props.error == null) return null;
  return (
    <div class="note note-error" role="alert">
      <span>{errorText(props.error)}</span>
      {props.onRetry && (
        <button type="button" class="link" onClick={props.onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A short success or information message (role=status). */
export function Notice(props: { children: ComponentChildren }) {
  return (
    <div class="note note-ok" role="status">
      {props.children}
    </div>
  );
}

/** What an empty list means, and what to do next. */
export function Empty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{props.title}</p>
      {props.children && <p class="muted">{props.children}</p>}
    </div>
  );
}

/** A placeholder of fixed height while data loads (no layout shift when it arrives). */
export function Loading(props: { lines?: number; label?: string }) {
  const lines = props.lines ?? 3;
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="visually-hidden">{props.label ?? 'Loading'}</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} class="skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}

/** A small coloured label (a kind, a status, a channel). */
export function Badge(props: { tone?: string; title?: string; children: ComponentChildren }) {
  return (
    <span class={`badge ${props.tone ? `badge-${props.tone}` : ''}`} title={props.title}>
      {props.children}
    </span>
  );
}

/** A time as "3 days ago" with the exact time on hover and for assistive technology. */
export function Time(props: { at: string | number | null | undefined }) {
  if (props.at == null) return <span class="muted">never</span>;
  const date = new Date(props.at);
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString()}>
      {relative(date)}
    </time>
  );
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** "3 days ago", "in 2 hours". */
export function relative(date: Date, now = Date.now()): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of UNITS)
    if (Math.abs(seconds) >= size || unit === 'second')
      return format.format(Math.trunc(seconds / size), unit);
  return date.toLocaleString();
}

/** A labelled form control: the label names the control for assistive technology. */
export function Field(props: {
  label: string;
  hint?: string;
  children: ComponentChildren;
  id: string;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <small id={`${props.id}-hint`} class="muted">
          {props.hint}
        </small>
      )}
    </div>
  );
}

/**
 * A button that asks first (a native modal dialog: focus moves into it, Escape cancels) and then
 * runs `onConfirm`; for destructive actions.
 */
export function ConfirmButton(props: {
  label: string;
  title: string;
  message: ComponentChildren;
  confirmLabel?: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm: () => void | Promise<void>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
    } finally {
      setBusy(false);
      dialog.current?.close();
    }
  };
  return (
    <>
      <button
        type="button"
        class={props.danger ? 'danger' : ''}
        disabled={props.disabled || busy}
        onClick={() => dialog.current?.showModal()}
      >
        {props.label}
      </button>
      <dialog ref={dialog} class="dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>{props.title}</h2>
        <div class="dialog-body">{props.message}</div>
        <div class="dialog-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            class={props.danger ? 'danger' : 'primary'}
            disabled={busy}
            onClick={confirm}
          >
            {props.confirmLabel ?? props.label}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** State of an async load: its data, its error, whether it runs, and a way to run it again. */
export interface Async<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` now and whenever `deps` change; a newer run wins over an older one. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): Async<T> {
  const [state, setState] = useState<{ data?: T; error: unknown; loading: boolean }>({
    error: null,
    loading: true,
  });
  const run = useRef(0);
  const reload = useCallback(() => {
    const mine = ++run.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === run.current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        mine === run.current && setState((s) => ({ ...s, error, loading: false })),
    );
  }, deps);
  useEffect(reload, [reload]);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Props of a text input, typed for forms. */
export type InputProps = JSX.HTMLAttributes<HTMLInputElement>;

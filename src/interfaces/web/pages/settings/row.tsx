/**
 * One setting of the settings page: its key, source badge and value. A changeable setting, for an
 * admin, gets a labelled control with Save and Reset and shows the API's error inline; any other
 * says why it cannot change here.
 */
import { useEffect, useState } from 'preact/hooks';

import { Badge, ErrorNote } from '../../lib/ui';
import { readOnlyReason, type Setting, SOURCES, valueText } from './format';

/** Saves a setting (null resets it); rejects with the API's error. */
export type Change = (key: string, value: unknown) => Promise<void>;

/** The DOM id of a setting's control. */
export function controlId(key: string): string {
  return `set-${key.replaceAll('.', '-')}`;
}

/** The source of a value as a badge, with what it means on hover. */
export function SourceBadge({ source }: { source: Setting['source'] }) {
  const s = SOURCES[source];
  return (
    <Badge tone={s.tone} title={s.title}>
      <span class="visually-hidden">source: </span>
      {s.label}
    </Badge>
  );
}

/** The key, its prefix muted: `recall.` weights.keyword. */
function KeyText({ setting, prefix }: { setting: Setting; prefix: string }) {
  const rest = setting.key.startsWith(prefix) ? setting.key.slice(prefix.length) : setting.key;
  return (
    <>
      {rest !== setting.key && <span class="key-prefix">{prefix}</span>}
      {rest}
    </>
  );
}

/** One row of the settings list. */
export function SettingRow(props: {
  setting: Setting;
  prefix: string;
  isAdmin: boolean;
  change: Change;
}) {
  const { setting, prefix, isAdmin } = props;
  const editable = setting.changeable && isAdmin && setting.control !== undefined;
  return (
    <li class={`setting ${editable ? 'setting-editable' : ''}`} data-key={setting.key}>
      <div class="setting-head">
        {editable ? (
          <label class="setting-key mono" for={controlId(setting.key)}>
            <KeyText setting={setting} prefix={prefix} />
          </label>
        ) : (
          <span class="setting-key mono">
            <KeyText setting={setting} prefix={prefix} />
          </span>
        )}
        <SourceBadge source={setting.source} />
      </div>
      {setting.description && <p class="setting-note muted">{setting.description}</p>}
      {editable ? (
        <Editor setting={setting} change={props.change} />
      ) : (
        <div class="setting-fixed">
          <span class="setting-value mono">{valueText(setting.value)}</span>
          <small class="muted">{readOnlyReason(setting, isAdmin)}</small>
        </div>
      )}
    </li>
  );
}

/** A value as the control holds it. */
function toDraft(value: Setting['value']): string {
  return value === null ? '' : String(value);
}

/** The control's draft as the API takes it; text the API refuses is sent as is, to be named. */
function fromDraft(draft: string, control: NonNullable<Setting['control']>): unknown {
  if (control.type === 'boolean') return draft === 'true';
  if (control.type === 'choice') return draft;
  const n = Number(draft);
  return draft.trim() !== '' && Number.isFinite(n) ? n : draft;
}

function Editor({ setting, change }: { setting: Setting; change: Change }) {
  const id = controlId(setting.key);
  const current = toDraft(setting.value);
  const [draft, setDraft] = useState(current);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  useEffect(() => setDraft(current), [current]);
  const run = async (value: unknown, message: string) => {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      await change(setting.key, value);
      setDone(message);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const configured = setting.configured;
  return (
    <form
      class="setting-edit"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void run(fromDraft(draft, setting.control!), 'Saved.');
      }}
    >
      <div class="setting-controls">
        <Control
          id={id}
          setting={setting}
          draft={draft}
          setDraft={setDraft}
          invalid={error != null}
        />
        <button type="submit" class="primary" disabled={busy || draft === current}>
          Save<span class="visually-hidden"> {setting.key}</span>
        </button>
        <button
          type="button"
          disabled={busy || setting.source !== 'runtime'}
          onClick={() => void run(null, 'Reset.')}
        >
          Reset<span class="visually-hidden"> {setting.key}</span>
        </button>
        <span class="setting-done" role="status">
          {done}
        </span>
      </div>
      {configured && (
        <small id={`${id}-hint`} class="muted">
          {setting.source === 'runtime' ? 'Reset returns to ' : 'Configured: '}
          {valueText(configured.value)} ({SOURCES[configured.source].label})
          {rangeText(setting.control)}
        </small>
      )}
      {error != null && (
        <div id={`${id}-error`}>
          <ErrorNote error={error} />
        </div>
      )}
    </form>
  );
}

/** The allowed range of a number, for the hint. */
function rangeText(control: Setting['control']): string {
  if (control?.type !== 'number') return '';
  return ` · ${control.integer ? 'whole number ' : ''}from ${control.min} to ${control.max}`;
}

function Control(props: {
  id: string;
  setting: Setting;
  draft: string;
  setDraft: (v: string) => void;
  invalid: boolean;
}) {
  const { id, setting, draft, setDraft, invalid } = props;
  const control = setting.control!;
  const described = [setting.configured && `${id}-hint`, invalid && `${id}-error`]
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    'aria-describedby': described || undefined,
    'aria-invalid': invalid || undefined,
  };
  if (control.type === 'boolean')
    return (
      <span class="setting-switch">
        <input
          {...common}
          type="checkbox"
          checked={draft === 'true'}
          onChange={(e) => setDraft(String(e.currentTarget.checked))}
        />
        <span aria-hidden="true">{draft === 'true' ? 'on' : 'off'}</span>
      </span>
    );
  if (control.type === 'choice')
    return (
      <select {...common} value={draft} onChange={(e) => setDraft(e.currentTarget.value)}>
        {control.options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    );
  return (
    <input
      {...common}
      type="number"
      inputMode="decimal"
      min={control.min}
      max={control.max}
      step={control.integer ? 1 : 'any'}
      value={draft}
      onInput={(e) => setDraft(e.currentTarget.value)}
    />
  );
}

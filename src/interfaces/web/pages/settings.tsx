/**
 * Settings: every setting of the current space in sections (recall, decision stage and sources,
 * auto-recall, dormant recall, lifecycle, consolidation, embedder, graph, store, worker, server),
 * each with its value and where it comes from (file, env, option, default, runtime). Admins change
 * the runtime ones here (Save, Reset); everything else says how to change it.
 */
import './settings.css';

import { useEffect, useState } from 'preact/hooks';

import { api, call, type Schemas } from '../lib/api';
import { useSession } from '../lib/session';
import { ErrorNote, Loading, Page, useAsync } from '../lib/ui';
import { type Source, SOURCES } from './settings/format';
import { type Change, SettingRow, SourceBadge } from './settings/row';

type View = Schemas['SettingsView'];
type Section = View['sections'][number];

/** The prefix each section's keys share, shown muted before each key. */
const PREFIXES: Record<string, string> = {
  recall: 'recall.',
  decision: 'recall.decision.',
  auto_recall: 'auto_recall.',
  dormant: 'dormant_recall.',
  lifecycle: 'lifecycle.',
  dream: 'dream.',
  embedder: 'embedder.',
  graph: 'graph.',
  worker: 'worker.',
  server: 'server.',
};

/** The settings page. */
export default function SettingsPage() {
  const { space, isAdmin } = useSession();
  const loaded = useAsync(
    () => call(api.GET('/v1/spaces/{space}/settings', { params: { path: { space } } })),
    [space],
  );
  const [changed, setChanged] = useState<View | null>(null);
  useEffect(() => setChanged(null), [loaded.data]);
  const view = changed?.space === space ? changed : loaded.data;
  const change: Change = async (key, value) => {
    setChanged(
      await call(
        api.PATCH('/v1/spaces/{space}/settings', {
          params: { path: { space } },
          body: { [key]: value },
        }),
      ),
    );
  };
  return (
    <Page title="Settings">
      <Intro space={space} isAdmin={isAdmin} />
      {loaded.error != null && !view && <ErrorNote error={loaded.error} onRetry={loaded.reload} />}
      {!view && loaded.error == null && <Loading lines={8} label="Loading the settings" />}
      {view && (
        <div class="settings">
          {view.sections.map((s) => (
            <SectionView key={s.id} section={s} isAdmin={isAdmin} change={change} />
          ))}
        </div>
      )}
    </Page>
  );
}

function Intro({ space, isAdmin }: { space: string; isAdmin: boolean }) {
  return (
    <div class="settings-intro">
      <p>
        The settings of space <strong>{space}</strong>.{' '}
        {isAdmin
          ? 'Changes made here apply at once to this space, in every engram process on this store; Reset returns a setting to its configured value.'
          : 'Only a token with the admin role can change settings here.'}
      </p>
      <ul class="settings-legend" aria-label="Where a value comes from">
        {(Object.keys(SOURCES) as Source[]).map((source) => (
          <li key={source}>
            <SourceBadge source={source} /> <span class="muted">{SOURCES[source].title}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SectionView(props: { section: Section; isAdmin: boolean; change: Change }) {
  const { section, isAdmin, change } = props;
  const prefix = PREFIXES[section.id] ?? '';
  const live = section.settings.filter((s) => s.changeable);
  const fixed = section.settings.filter((s) => !s.changeable);
  const titleId = `section-${section.id}`;
  const rows = (list: typeof fixed) => (
    <ul class="settings-list">
      {list.map((s) => (
        <SettingRow key={s.key} setting={s} prefix={prefix} isAdmin={isAdmin} change={change} />
      ))}
    </ul>
  );
  return (
    <section class="settings-section card" aria-labelledby={titleId}>
      <h2 id={titleId}>{section.title}</h2>
      <p class="muted settings-about">{section.description}</p>
      {live.length > 0 && rows(live)}
      {fixed.length > 0 && (
        <details class="settings-more">
          <summary>
            {live.length > 0 ? 'Fixed at start' : 'Settings, fixed at start'} ({fixed.length})
          </summary>
          {rows(fixed)}
        </details>
      )}
    </section>
  );
}

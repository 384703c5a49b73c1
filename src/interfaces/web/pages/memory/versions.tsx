/**
 * A memory's version history, newest first: each version with who wrote it, when and why, a word
 * diff of its title, body and tags against the version before it, and (for a writer) restoring it,
 * which writes its text back as a new version.
 */
import { api, call, type Schemas } from '../../lib/api';
import { WordDiff } from '../../lib/diff';
import { Badge, Empty, Time } from '../../lib/ui';
import { ActionOutcome, type Runner } from './runner';

type History = Schemas['History'];
type Version = History['versions'][number];

/** The versions of a memory with their diffs. */
export function Versions(props: { history: History; canWrite: boolean; runner: Runner }) {
  const { history, canWrite, runner } = props;
  const ordered = [...history.versions].sort((a, b) => b.version - a.version);
  const current = history.item.version;
  return (
    <section class="card" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions ({ordered.length})</h2>
      {ordered.length === 0 ? (
        <Empty title="No versions are recorded." />
      ) : (
        <ol class="versions">
          {ordered.map((v, i) => (
            <VersionItem
              key={v.version}
              version={v}
              previous={ordered[i + 1]}
              current={v.version === current}
              canWrite={canWrite}
              runner={runner}
              space={history.item.space}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function VersionItem(props: {
  version: Version;
  previous: Version | undefined;
  current: boolean;
  canWrite: boolean;
  runner: Runner;
  space: string;
}) {
  const { version: v, previous, runner } = props;
  const name = `version-${v.version}`;
  const restore = () =>
    runner.run(
      name,
      () =>
        call(
          api.POST('/v1/spaces/{space}/memories/{id}/restore', {
            params: { path: { space: props.space, id: v.item_id } },
            body: { version: v.version },
          }),
        ),
      `Version ${v.version} restored as a new version.`,
    );
  return (
    <li class="version">
      <div class="version-head">
        <h3 id={`${name}-title`}>Version {v.version}</h3>
        {props.current && <Badge tone="ok">current</Badge>}
        <span class="muted">
          <Time at={v.created_at} />
          {v.actor && ` · ${v.actor}`}
        </span>
        {props.canWrite && !props.current && (
          <button
            type="button"
            class="version-restore"
            disabled={runner.busy !== null}
            onClick={() => void restore()}
          >
            Restore version {v.version}
          </button>
        )}
      </div>
      {v.reason && <p class="version-reason">{v.reason}</p>}
      <VersionChanges version={v} previous={previous} />
      <ActionOutcome runner={runner} name={name} />
    </li>
  );
}

/** What a version changed: title and body as word diffs, tags as added and removed. */
function VersionChanges({ version: v, previous }: { version: Version; previous?: Version }) {
  if (!previous)
    return (
      <div class="version-text">
        {v.title && <p class="memory-title">{v.title}</p>}
        <p class="memory-text">{v.body}</p>
        {v.tags.length > 0 && (
          <p class="tag-changes">
            <span class="diff-label">Tags</span>
            {v.tags.map((t) => (
              <Badge key={t}>{t}</Badge>
            ))}
          </p>
        )}
      </div>
    );
  const titleChanged = (previous.title ?? '') !== (v.title ?? '');
  const added = v.tags.filter((t) => !previous.tags.includes(t));
  const removed = previous.tags.filter((t) => !v.tags.includes(t));
  const bodyChanged = previous.body !== v.body;
  return (
    <div class="version-text">
      {titleChanged && (
        <div class="diff-block">
          <span class="diff-label">Title</span>
          <WordDiff before={previous.title ?? ''} after={v.title ?? ''} />
        </div>
      )}
      {bodyChanged ? (
        <div class="diff-block">
          <span class="diff-label">Body</span>
          <WordDiff before={previous.body} after={v.body} />
        </div>
      ) : (
        <p class="muted">Body unchanged.</p>
      )}
      {(added.length > 0 || removed.length > 0) && <TagChanges added={added} removed={removed} />}
    </div>
  );
}

function TagChanges({ added, removed }: { added: string[]; removed: string[] }) {
  return (
    <p class="tag-changes">
      <span class="diff-label">Tags</span>
      {added.map((t) => (
        <ins key={`+${t}`}>
          <span class="visually-hidden">added: </span>
          {t}
        </ins>
      ))}
      {removed.map((t) => (
        <del key={`-${t}`}>
          <span class="visually-hidden">removed: </span>
          {t}
        </del>
      ))}
    </p>
  );
}

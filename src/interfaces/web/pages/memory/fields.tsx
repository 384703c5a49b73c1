/**
 * A memory's fields as a description list: what it is, where it lives, how strong and important
 * it is, where it came from, its times and counts, and the state before its last automatic change.
 */
import type { ComponentChildren } from 'preact';

import type { Schemas } from '../../lib/api';
import { KindBadge, StatusBadge } from '../../lib/memory-bits';
import { Badge, Time } from '../../lib/ui';

type Memory = Schemas['Memory'];

/** The fields of a memory. */
export function MemoryFields({ memory }: { memory: Memory }) {
  return (
    <section class="card" aria-labelledby="fields-title">
      <h2 id="fields-title">Fields</h2>
      <dl class="fields">
        <Item term="Kind">
          <KindBadge kind={memory.kind} />
        </Item>
        <Item term="Status">
          <StatusBadge status={memory.status} />
        </Item>
        <Item term="Area">{memory.area}</Item>
        <Item term="Tags">
          {memory.tags.length === 0 ? (
            <span class="muted">none</span>
          ) : (
            <span class="tag-list">
              {memory.tags.map((t) => (
                <Badge key={t}>{t}</Badge>
              ))}
            </span>
          )}
        </Item>
        <Item term="Importance">
          <Level value={memory.importance} />
        </Item>
        <Item term="Strength">
          <Level value={memory.strength} />
        </Item>
        <Item term="Pinned">{memory.pinned ? 'yes (never decays)' : 'no'}</Item>
        <Item term="Version">{memory.version}</Item>
        <Item term="Source">
          <Source source={memory.source} />
        </Item>
        <Item term="Created">
          <Time at={memory.created_at} />
        </Item>
        <Item term="Updated">
          <Time at={memory.updated_at} />
        </Item>
        <Item term="Last accessed">
          <Time at={memory.last_accessed_at} />{' '}
          <span class="muted">({plural(memory.access_count, 'recall')})</span>
        </Item>
        <Item term="Last used">
          <Time at={memory.last_used_at} />{' '}
          <span class="muted">({plural(memory.use_count, 'use')})</span>
        </Item>
        <Item term="Vector">{memory.vector}</Item>
        <Item term="Id">
          <code class="memory-id">{memory.id}</code>
        </Item>
        {memory.prior && (
          <Item term="Prior state">
            <Prior prior={memory.prior} />
          </Item>
        )}
      </dl>
    </section>
  );
}

function Item(props: { term: string; children: ComponentChildren }) {
  return (
    <div class="field-item">
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

/** A 0..1 value as a number and a small bar (the number is what assistive technology reads). */
function Level({ value }: { value: number }) {
  return (
    <span class="level">
      <span>{value.toFixed(2)}</span>
      <span class="level-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(value * 100)}%` }} />
      </span>
    </span>
  );
}

function Source({ source }: { source: Memory['source'] }) {
  if (!source) return <span class="muted">not recorded</span>;
  const parts: [string, ComponentChildren][] = [];
  if (source.trust) parts.push(['trust', source.trust]);
  if (source.agent) parts.push(['agent', source.agent]);
  if (source.speaker) parts.push(['speaker', source.speaker]);
  if (source.session)
    parts.push([
      'session',
      `${source.session}${source.turn !== undefined ? ` · turn ${source.turn}` : ''}`,
    ]);
  if (source.import) parts.push(['import', source.import]);
  if (source.url)
    parts.push([
      'url',
      /^https?:\/\//i.test(source.url) ? (
        <a href={source.url} rel="noreferrer noopener" target="_blank">
          {source.url}
        </a>
      ) : (
        source.url
      ),
    ]);
  if (parts.length === 0) return <span class="muted">not recorded</span>;
  return (
    <span class="source">
      {parts.map(([k, v]) => (
        <span key={k}>
          <span class="muted">{k}</span> {v}
        </span>
      ))}
    </span>
  );
}

function Prior({ prior }: { prior: NonNullable<Memory['prior']> }) {
  return (
    <span class="source">
      <span>
        {prior.reason} · <Time at={prior.at} />
      </span>
      {prior.status && (
        <span>
          <span class="muted">status</span> {prior.status}
        </span>
      )}
      {prior.kind && (
        <span>
          <span class="muted">kind</span> {prior.kind}
        </span>
      )}
      {prior.area && (
        <span>
          <span class="muted">area</span> {prior.area}
        </span>
      )}
    </span>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

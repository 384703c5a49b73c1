/**
 * Picking an entity: a search box that filters the top entities as one types (Enter looks the
 * text up by name or alias even when it is not listed), the order (most mentioned or most
 * connected), and the list itself with counts, each a link that selects the entity.
 */
import { useState } from 'preact/hooks';

import { ErrorNote, Loading } from '../../lib/ui';
import { type Entity, graphHref } from './model';

/** Orders of the entity list. */
export type Order = 'mentions' | 'degree';

/** The entity picker. */
export function EntityPicker(props: {
  entities: Entity[] | undefined;
  error: unknown;
  onRetry: () => void;
  order: Order;
  onOrder: (order: Order) => void;
  selected: string | undefined;
  depth: number;
  onLookUp: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const shown = filter(props.entities ?? [], text);
  return (
    <aside class="graph-picker" aria-labelledby="graph-picker-title">
      <h2 id="graph-picker-title">Entities</h2>
      <form
        role="search"
        class="graph-find"
        onSubmit={(e) => {
          e.preventDefault();
          const t = text.trim();
          if (t) props.onLookUp(shown[0]?.key ?? t);
        }}
      >
        <label for="graph-find">Find an entity</label>
        <input
          id="graph-find"
          type="search"
          value={text}
          placeholder="A person, project, tool…"
          aria-describedby="graph-find-hint"
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <small id="graph-find-hint" class="muted">
          Filters the list; Enter opens the first match, or looks the name or alias up.
        </small>
      </form>
      <label class="graph-order">
        <span>Order</span>
        <select value={props.order} onChange={(e) => props.onOrder(e.currentTarget.value as Order)}>
          <option value="mentions">most mentioned</option>
          <option value="degree">most connected</option>
        </select>
      </label>
      {props.error ? (
        <ErrorNote error={props.error} onRetry={props.onRetry} />
      ) : !props.entities ? (
        <Loading lines={6} label="Loading the entities" />
      ) : shown.length === 0 ? (
        <p class="muted">No listed entity matches: press Enter to look “{text}” up.</p>
      ) : (
        <ol class="entity-list" aria-label="Top entities">
          {shown.map((e) => (
            <EntityItem key={e.key} entity={e} {...props} />
          ))}
        </ol>
      )}
    </aside>
  );
}

function EntityItem(props: { entity: Entity; order: Order; selected?: string; depth: number }) {
  const e = props.entity;
  const count = props.order === 'mentions' ? e.mentions : e.degree;
  const unit =
    props.order === 'mentions'
      ? count === 1
        ? 'memory'
        : 'memories'
      : count === 1
        ? 'neighbour'
        : 'neighbours';
  return (
    <li>
      <a
        href={graphHref(e.key, props.depth)}
        aria-current={props.selected === e.key ? 'true' : undefined}
      >
        <span class="entity-name">{e.name}</span>
        <span class="entity-count">
          {count} <span class="visually-hidden">{unit}</span>
        </span>
        <span class="entity-type muted">{e.type}</span>
      </a>
    </li>
  );
}

/** The entities whose name, key or an alias contains the text (case-insensitive). */
export function filter(entities: readonly Entity[], text: string): Entity[] {
  const t = text.trim().toLowerCase();
  if (!t) return [...entities];
  return entities.filter((e) =>
    [e.name, e.key, ...e.aliases].some((s) => s.toLowerCase().includes(t)),
  );
}

/**
 * The published model (the one recall uses): its id, provider, dimension, since when and how many
 * vectors it holds, and a warning when the configuration names another model than the store
 * publishes.
 */
import type { ComponentChildren } from 'preact';

import { Empty, Time } from '../../lib/ui';
import { type ModelsStatus, specText } from './data';

/** A fact of a model, in a description list. */
export function Fact(props: { name: string; wide?: boolean; children: ComponentChildren }) {
  return (
    <div class={props.wide ? 'model-fact model-fact-wide' : 'model-fact'}>
      <dt>{props.name}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

/** The published model's card. */
export function PublishedModel({ status }: { status: ModelsStatus }) {
  const { published, configured } = status;
  return (
    <section class="card model-card" aria-labelledby="published-title">
      <h2 id="published-title">Published model</h2>
      {published ? (
        <dl class="model-facts">
          <Fact name="Id" wide>
            <code class="model-id">{published.id}</code>
          </Fact>
          <Fact name="Provider">{specText(published.spec)}</Fact>
          <Fact name="Dimension">{published.dimension}</Fact>
          <Fact name="Published since">
            <Time at={published.published_at} />
          </Fact>
          <Fact name="Vectors">{published.vectors.toLocaleString()}</Fact>
        </dl>
      ) : (
        <Empty title="No model is published yet.">
          The store publishes the configured model with its first memory.
        </Empty>
      )}
      {published && configured.model_id && !configured.published && (
        <p class="model-warn">
          The configuration names <code>{configured.model_id}</code>, but the store publishes{' '}
          <code>{published.id}</code>: recall uses the published model. To move to the configured
          one, switch to it below.
        </p>
      )}
    </section>
  );
}

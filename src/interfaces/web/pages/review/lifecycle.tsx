/**
 * The lifecycle review queue (§7.4): memories whose strength sits in the review window and that
 * matter, highest priority first, each with why it is there and the review actions. After each
 * action the queue is read again and what happened is said above it.
 */
import { useState } from 'preact/hooks';

import { type Schemas } from '../../lib/api';
import { useSession } from '../../lib/session';
import { type Async, Empty, ErrorNote, Loading, Notice } from '../../lib/ui';
import { ReviewRow } from './review-row';

type ReviewList = Schemas['ReviewList'];

/** The lifecycle review tab: its list, a "show more" past the first page, and the last outcome. */
export function LifecyclePanel(props: { list: Async<ReviewList>; onMore: () => void }) {
  const { list } = props;
  const { canWrite } = useSession();
  const [done, setDone] = useState<string | null>(null);
  if (list.error && !list.data) return <ErrorNote error={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading lines={4} label="Reading the review queue" />;
  const { items, total, window } = list.data;
  const range = `${window.low}–${window.high}`;
  const finished = (message: string) => {
    setDone(message);
    list.reload();
  };
  return (
    <div aria-busy={list.loading}>
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={list.error} onRetry={list.reload} />
      {items.length === 0 ? (
        <Empty title="The review queue is empty.">
          A memory comes here when decay takes its strength into the review window ({range}) and it
          matters (it is important or has been used). Reinforce it, revise it or let it go before
          decay archives it.
        </Empty>
      ) : (
        <>
          <p class="review-summary">
            {total} {total === 1 ? 'memory is' : 'memories are'} in the review window (strength{' '}
            {range}), highest priority first.
            {!canWrite && ' Reviewing them needs a token with the write role.'}
          </p>
          <ol class="review-list">
            {items.map((item) => (
              <ReviewRow key={item.id} item={item} window={window} onDone={finished} />
            ))}
          </ol>
          {items.length < total && (
            <button
              type="button"
              class="review-more"
              onClick={props.onMore}
              disabled={list.loading}
            >
              Show more ({total - items.length} left)
            </button>
          )}
        </>
      )}
    </div>
  );
}

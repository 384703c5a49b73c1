/**
 * Review: two queues a person works through. The lifecycle review (§7.4) lists memories whose
 * strength decayed into the review window and that matter, to reinforce, revise or let go before
 * decay archives them. The dormant review (§9.4) lists what dormant recall logged in shadow mode,
 * each open to its inspection, with feedback. The tab is kept in the URL (`?tab=dormant`).
 */
import './review.css';

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';

import { api, call, type Schemas } from '../lib/api';
import { useSession } from '../lib/session';
import { Page, useAsync } from '../lib/ui';
import { DormantPanel } from './review/dormant';
import { LifecyclePanel } from './review/lifecycle';
import { TabPanel, Tabs } from './review/tabs';

/** How many dormant events the page reads. */
const DORMANT_LIMIT = 100;
/** How many review items the page reads at first, and how many more each "Show more" adds. */
const REVIEW_PAGE = 20;

/** The review page. */
export default function ReviewPage() {
  const { space } = useSession();
  const location = useLocation();
  const tab = location.query.tab === 'dormant' ? 'dormant' : 'lifecycle';
  const [limit, setLimit] = useState(REVIEW_PAGE);
  const lifecycle = useAsync<Schemas['ReviewList']>(
    () =>
      call(
        api.GET('/v1/spaces/{space}/review', {
          params: { path: { space }, query: { limit } },
        }),
      ),
    [space, limit],
  );
  const dormant = useAsync<Schemas['DormantReview']>(
    () =>
      call(
        api.GET('/v1/spaces/{space}/dormant/events', {
          params: { path: { space }, query: { limit: DORMANT_LIMIT } },
        }),
      ),
    [space],
  );
  const open = dormant.data?.events.filter((e) => e.candidate_id !== null && !e.feedback).length;
  return (
    <Page title="Review">
      <Tabs
        label="Review queues"
        current={tab}
        onSelect={(id) =>
          location.route(id === 'dormant' ? '/review?tab=dormant' : '/review', true)
        }
        tabs={[
          { id: 'lifecycle', label: <TabLabel text="Lifecycle" count={lifecycle.data?.total} /> },
          { id: 'dormant', label: <TabLabel text="Dormant recall" count={open} /> },
        ]}
      />
      <TabPanel id={tab}>
        {tab === 'lifecycle' ? (
          <LifecyclePanel
            list={lifecycle}
            onMore={() => setLimit((n) => n + REVIEW_PAGE)}
            key={space}
          />
        ) : (
          <DormantPanel review={dormant} key={space} />
        )}
      </TabPanel>
    </Page>
  );
}

function TabLabel(props: { text: string; count: number | undefined }) {
  return (
    <>
      {props.text}
      <span class="review-tab-count" aria-hidden="true">
        {props.count ?? ''}
      </span>
      {props.count !== undefined && <span class="visually-hidden">, {props.count} to review</span>}
    </>
  );
}

/** The graph page (being built). */
import { Empty, Page } from '../lib/ui';

/** The graph page. */
export default function Placeholder() {
  return (
    <Page title="Graph">
      <Empty title="This page is being built." />
    </Page>
  );
}

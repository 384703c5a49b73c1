/** The memory page (being built). */
import { Empty, Page } from '../lib/ui';

/** The memory page. */
export default function Placeholder() {
  return (
    <Page title="Memory">
      <Empty title="This page is being built." />
    </Page>
  );
}

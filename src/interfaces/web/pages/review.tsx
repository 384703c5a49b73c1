/** The review page (being built). */
import { Empty, Page } from '../lib/ui';

/** The review page. */
export default function Placeholder() {
  return (
    <Page title="Review">
      <Empty title="This page is being built." />
    </Page>
  );
}

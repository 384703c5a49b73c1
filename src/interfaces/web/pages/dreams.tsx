/** The dreams page (being built). */
import { Empty, Page } from '../lib/ui';

/** The dreams page. */
export default function Placeholder() {
  return (
    <Page title="Dreams">
      <Empty title="This page is being built." />
    </Page>
  );
}

/** The models page (being built). */
import { Empty, Page } from '../lib/ui';

/** The models page. */
export default function Placeholder() {
  return (
    <Page title="Models">
      <Empty title="This page is being built." />
    </Page>
  );
}

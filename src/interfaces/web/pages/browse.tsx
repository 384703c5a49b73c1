/** The browse page (being built). */
import { Empty, Page } from '../lib/ui';

/** The browse page. */
export default function Placeholder() {
  return (
    <Page title="Browse">
      <Empty title="This page is being built." />
    </Page>
  );
}

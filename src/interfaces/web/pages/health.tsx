/** The health page (being built). */
import { Empty, Page } from '../lib/ui';

/** The health page. */
export default function Placeholder() {
  return (
    <Page title="Health">
      <Empty title="This page is being built." />
    </Page>
  );
}

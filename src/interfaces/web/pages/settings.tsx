/** The settings page (being built). */
import { Empty, Page } from '../lib/ui';

/** The settings page. */
export default function Placeholder() {
  return (
    <Page title="Settings">
      <Empty title="This page is being built." />
    </Page>
  );
}

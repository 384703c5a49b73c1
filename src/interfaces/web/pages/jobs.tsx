/** The jobs page (being built). */
import { Empty, Page } from '../lib/ui';

/** The jobs page. */
export default function Placeholder() {
  return (
    <Page title="Jobs">
      <Empty title="This page is being built." />
    </Page>
  );
}

/** Small views of a memory shared by pages: its kind and status badges, and the lists of values. */
import { Badge } from './ui';

/** Every kind of memory (§1.1) and every status (§1.2), from engram's own domain types. */
export { KINDS, STATUSES } from '../../../domain/types.js';

/** A memory's kind. */
export function KindBadge({ kind }: { kind: string }) {
  return <Badge tone="kind">{kind}</Badge>;
}

/** A memory's status, coloured by what it means for recall. */
export function StatusBadge({ status }: { status: string }) {
  const tone =
    status === 'active' || status === 'candidate' ? 'ok' : status === 'challenged' ? 'warn' : 'off';
  return <Badge tone={tone}>{status}</Badge>;
}

/** The link to a memory's page. */
export function memoryHref(id: string): string {
  return `/memories/${encodeURIComponent(id)}`;
}

/** Small views of a memory shared by pages: its kind and status badges, and the lists of values. */
import type { Schemas } from './api';
import { Badge } from './ui';

type Memory = Schemas['Memory'];

/** Every kind of memory (§1.1). */
export const KINDS: readonly Memory['kind'][] = [
  'fact',
  'preference',
  'rule',
  'skill',
  'procedure',
  'note',
  'episode',
  'identity',
  'working',
];

/** Every status of a memory (§1.2). */
export const STATUSES: readonly Memory['status'][] = [
  'candidate',
  'active',
  'challenged',
  'superseded',
  'merged',
  'archived',
  'forgotten',
];

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

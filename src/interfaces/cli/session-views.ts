/**
 * Human renderings of sessions (§1.4): an import's outcome, a listing, one session with its
 * turns, and search hits. Text from the store is shown escaped (printable), never raw.
 */
import type { Session, SessionHit, SessionPage, SessionPurge } from '../../service/sessions.js';
import { shorten } from './output.js';
import { printable } from './printable.js';
import { table } from './table.js';

/** One record's outcome in an import, with where in the file it came from. */
export interface ImportedSession {
  ref: string;
  ok: boolean;
  id?: string;
  status?: string;
  turns?: number;
  error?: { code: string; message: string; field?: string };
}

/** Totals of a session import. */
export interface SessionImportSummary {
  format: string;
  dry_run: boolean;
  sessions: number;
  created: number;
  exists: number;
  purged: number;
  valid: number;
  error: number;
}

/** Counts an import's outcomes (a part of the file that could not be read is an error). */
export function importSummary(
  format: string,
  dryRun: boolean,
  results: readonly ImportedSession[],
): SessionImportSummary {
  const count = (status: string) => results.filter((r) => r.ok && r.status === status).length;
  return {
    format,
    dry_run: dryRun,
    sessions: results.length,
    created: count('created'),
    exists: count('exists'),
    purged: count('purged'),
    valid: count('valid'),
    error: results.filter((r) => !r.ok).length,
  };
}

/** An import's closing line. */
export function importText(s: SessionImportSummary): string {
  if (s.dry_run)
    return `checked ${s.sessions} sessions (${s.format}, dry run, nothing stored): ${s.valid} valid, ${s.error} errors`;
  const purged = s.purged ? `, ${s.purged} purged before (not stored again)` : '';
  return `imported ${s.sessions} sessions (${s.format}): ${s.created} created, ${s.exists} already present${purged}, ${s.error} errors`;
}

/** A failed record, for stderr. */
export function importErrorText(r: ImportedSession): string {
  return printable(`${r.ref}: ${r.error?.message ?? 'failed'}`);
}

/** A stored time, to the second: `2025-01-31 09:15:02Z`. */
function when(iso: string | null): string {
  if (iso === null) return '-';
  return iso.replace('T', ' ').replace(/\.\d+(?=Z$)/u, '');
}

/** A listing as a table, with the cursor of the next page. */
export function listText(page: SessionPage): string {
  if (page.sessions.length === 0) return 'no sessions';
  const t = table(['id', 'started', 'agent', 'turns', 'title'], { flex: 'title' });
  for (const s of page.sessions)
    t.push([s.id, when(s.started_at), s.agent ?? '-', s.turn_count, s.title ?? '-']);
  const next = page.next_cursor ? `\nmore: --cursor ${page.next_cursor}` : '';
  return `${t.toString()}${next}`;
}

/** One session: what it is, then every turn. */
export function sessionText(s: Session): string {
  const source = s.source ? JSON.stringify(s.source) : '-';
  const head = [
    `session  ${s.id}`,
    `agent    ${s.agent ?? '-'}`,
    `title    ${s.title ?? '-'}`,
    `started  ${when(s.started_at)}`,
    `ended    ${when(s.ended_at)}`,
    `turns    ${s.turns.length}`,
    `source   ${source}`,
  ].map(printable);
  const turns = s.turns.map(
    (t) => `\n[${t.index}] ${t.role}${t.at ? ` · ${when(t.at)}` : ''}\n${printable(t.text)}`,
  );
  return [...head, ...turns].join('\n');
}

/** Search hits, best first: where each turn is, and its matching passage. */
export function searchText(result: { hits: SessionHit[] }): string {
  if (result.hits.length === 0) return 'no matching turns';
  return result.hits
    .map((h, i) => {
      const title = h.session.title ? ` "${shorten(h.session.title, 50)}"` : '';
      const where = `${i + 1}. session ${h.session_id}${title} turn ${h.turn_index} (${h.role}, ${h.session.agent ?? '-'}, ${when(h.session.started_at)})`;
      return `${printable(where)}\n   ${shorten(h.snippet ?? h.text, 200)}`;
    })
    .join('\n');
}

/** A purge's confirmation. */
export function purgeText(r: { id: string; audit: SessionPurge }): string {
  const reason = r.audit.reason ? ` (reason: ${r.audit.reason})` : '';
  return printable(`session ${r.id} purged for good; audit row kept${reason}`);
}

/** Human text of the model-transition commands. */
import { EngramError } from '../../domain/errors.js';
import type { StoredModel } from '../../domain/models.js';
import type { JobView } from '../../jobs/activity.js';
import type { EmbedderStatus, ModelsStatus, UseModelResult } from '../../service/transitions.js';
import { printable } from './printable.js';

/** What a rebuild run here ended with, or the error its failure means. */
export function jobOutcome(result: UseModelResult, job: JobView): UseModelResult {
  if (job.state === 'succeeded' && job.progress?.swapped === true)
    return { action: 'published', model: result.model };
  if (job.state === 'succeeded')
    throw new EngramError(
      'CONFLICT',
      `the transition to ${result.model} was cancelled or replaced`,
      {
        rule: 'still the target',
      },
    );
  throw new EngramError(
    'INTERNAL',
    `the rebuild into ${result.model} (job ${job.id}) ${job.state === 'queued' ? 'stopped and is queued again' : job.state}: ${job.last_error ?? 'no error recorded'}`,
    { id: job.id, rule: 'job succeeded' },
  );
}

/** One line per outcome of `models use` / `models rollback`. */
export function useText(r: UseModelResult): string {
  switch (r.action) {
    case 'started':
      return `rebuilding vectors with ${r.model} (job ${r.job?.id}); recall stays on the published model until the swap. Follow it with: engram models status`;
    case 'running':
      return `the rebuild into ${r.model} is already running (job ${r.job?.id})`;
    case 'published':
      return `${r.model} is published${r.previous ? ` (was ${r.previous})` : ''}`;
    case 'cancelled':
      return `${r.model} stays published; the running transition was cancelled (its vectors are kept until engram models prune)`;
    case 'unchanged':
      return `${r.model} is already published`;
  }
}

const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

function modelLine(m: StoredModel): string {
  const pruned = m.pruned_at === null ? '' : `, pruned ${when(m.pruned_at)}`;
  return `${printable(m.id)} (${m.dimension} dimensions, ${m.vectors} vectors${pruned})`;
}

/** `models status` as text. */
export function modelsStatusText(s: ModelsStatus): string {
  const lines = [`published: ${s.published ? modelLine(s.published) : 'none'}`];
  if (s.target) {
    const { coverage: c, rate_per_s: rate, eta_s: eta, job } = s.target;
    const pct = c.items === 0 ? 100 : Math.floor((100 * c.done) / c.items);
    lines.push(
      `transition to: ${modelLine(s.target.model)}`,
      `  ${c.done} of ${c.items} items (${pct}%), ${c.failed} failed` +
        (rate === null ? '' : `, ${rate}/s`) +
        (eta === null ? '' : `, about ${eta} s left`),
      `  job: ${job ? `${job.id} ${job.state}` : 'none queued (a worker or engram models use --wait runs it)'}`,
    );
  }
  for (const m of s.standby) lines.push(`standby: ${modelLine(m)}`);
  if (s.configured.model_id !== null && !s.configured.published)
    lines.push(
      `configured embedder ${printable(s.configured.model_id)} is not the published model: engram models use ${printable(s.configured.model_id)} moves the store to it`,
    );
  return lines.join('\n');
}

/** `embedder status` as text. */
export function embedderStatusText(s: EmbedderStatus): string {
  const q = s.queue as { queued?: Record<string, number>; in_flight?: number } | null;
  const lines = [
    q?.queued
      ? `queue: ${Object.entries(q.queued)
          .map(([p, n]) => `${n} ${p}`)
          .join(', ')} queued, ${q.in_flight ?? 0} in flight (this process)`
      : 'queue: none (no embedder configured)',
    `vector-pending items: ${s.pending}`,
  ];
  for (const p of s.providers)
    lines.push(
      `${p.role}: ${printable(p.model)} ${p.available ? 'available' : 'unavailable'}${p.reason ? ` (${printable(p.reason)})` : ''}`,
    );
  if (s.failures.length === 0) lines.push('failures: none');
  for (const f of s.failures)
    lines.push(
      `failed ${f.work}: ${f.item_id} v${f.version}, ${f.attempts} attempts: ${printable(f.last_error)}`,
    );
  return lines.join('\n');
}

/**
 * The commands of background jobs (§11): `jobs` (the activity view, or a listing with
 * --state/--kind/--limit), `jobs show|retry|cancel`, `jobs retry --items`, and `worker`, which runs
 * the job worker alone until SIGTERM/SIGINT.
 */
import { EngramError } from '../../domain/errors.js';
import { JOB_KINDS, JOB_STATES, type JobKind, type JobState } from '../../domain/jobs.js';
import type { CommandSpec } from './command.js';
import { reportError, withEngram } from './context.js';
import { printJson, println, show } from './output.js';
import { int, oneOf } from './parse.js';

const views = () => import('./jobs-views.js');

type JobsFlags = { state?: JobState[]; kind?: JobKind[]; limit?: number };

const show_: CommandSpec<[string]> = {
  name: 'show <id>',
  description: 'one job: state, attempts, age, run duration, progress, last error',
  readsOnly: true,
  async run({ args: [id], globals: g }) {
    await withEngram(g, false, async (engram) => {
      await show(g, await engram.job(id), async (j) => (await views()).jobText(j));
    });
  },
};

const retry: CommandSpec<[string | undefined], { items?: boolean }> = {
  name: 'retry [id]',
  description:
    'queue a failed or cancelled job again (fresh attempts), or with --items make failed items due again (--space limits them)',
  options: [{ flags: '--items', description: 'retry the failed work of single items instead' }],
  async run({ args: [id], options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      if (Boolean(o.items) === (id !== undefined))
        throw new EngramError('INVALID_INPUT', 'give a job id, or --items (not both)', {
          field: 'id',
          rule: 'a job id or --items',
        });
      if (o.items) {
        const retried = await engram.retryItemFailures({ space: g.space });
        return g.json ? printJson({ retried }) : println(`${retried} failed items are due again`);
      }
      const job = await engram.retryJob(id!);
      if (g.json) printJson(job);
      else println(`job ${job.id} (${job.kind}) queued again`);
    });
  },
};

const cancel: CommandSpec<[string]> = {
  name: 'cancel <id>',
  description: 'cancel a queued job; ask a running one to stop at its next checkpoint',
  async run({ args: [id], globals: g }) {
    await withEngram(g, false, async (engram) => {
      const job = await engram.cancelJob(id);
      if (g.json) printJson(job);
      else if (job.state === 'cancelled') println(`job ${job.id} (${job.kind}) cancelled`);
      else println(`job ${job.id} (${job.kind}) asked to stop: it stops at its next checkpoint`);
    });
  },
};

const jobs: CommandSpec<[], JobsFlags> = {
  name: 'jobs',
  description:
    'background jobs: counts, running and queued jobs, failures grouped; --state/--kind/--limit list jobs instead',
  readsOnly: true,
  options: [
    {
      flags: '--state <state>',
      description: `only jobs in this state (repeatable, or comma-separated): ${JOB_STATES.join(', ')}`,
      parse: oneOf(JOB_STATES),
    },
    {
      flags: '--kind <kind>',
      description: `only jobs of this kind (repeatable, or comma-separated): ${JOB_KINDS.join(', ')}`,
      parse: oneOf(JOB_KINDS),
    },
    { flags: '--limit <n>', description: 'jobs listed at most (default 50)', parse: int },
  ],
  commands: [show_, retry, cancel],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      if (o.state || o.kind || o.limit !== undefined) {
        const page = await engram.jobs({
          states: o.state,
          kinds: o.kind,
          space: g.space,
          limit: o.limit,
        });
        return show(g, page, async (p) => (await views()).listText(p));
      }
      const activity = await engram.jobActivity({ space: g.space });
      await show(g, activity, async (a) => (await views()).activityText(a));
    });
  },
};

const worker: CommandSpec<[]> = {
  name: 'worker',
  description:
    'run background jobs (vector backfill, graph catch-up and rebuilds, maintenance) until SIGTERM/SIGINT',
  async run({ globals: g }) {
    try {
      const { runWorker } = await import('./worker-run.js');
      process.exitCode = await runWorker(g);
    } catch (err) {
      process.exitCode = reportError(err, g.json ?? false);
    }
  },
};

/** The job commands, in the order the help lists them. */
export const JOBS_COMMANDS: readonly CommandSpec[] = [jobs, worker];

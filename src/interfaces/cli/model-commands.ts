/**
 * The commands of model transitions (§8): `models use <provider:model> [--wait]`, `models status`,
 * `models rollback`, `models prune`, and `embedder status`.
 */
import type { Engram } from '../../app.js';
import type { UseModelResult } from '../../service/transitions.js';
import type { Call, CommandSpec } from './command.js';
import { withEngram } from './context.js';
import { printJson, println, show } from './output.js';
import { int } from './parse.js';
import { progress } from './progress.js';

const views = () => import('./model-views.js');

/** Runs the rebuild here until it publishes the model, with a progress bar. */
async function waitForRebuild(engram: Engram, result: UseModelResult): Promise<UseModelResult> {
  if (result.action !== 'started' && result.action !== 'running') return result;
  const status = await engram.modelsStatus();
  const total = status.target?.coverage.items ?? 0;
  const bar = await progress(`engram models use ${result.model}`);
  const base = status.target ? status.target.coverage.done : 0;
  const job = await engram.runJobHere(
    { kind: 'models.rebuild', payload: { model: result.model }, dedupe_key: 'models.rebuild' },
    (p) => {
      if (typeof p.embedded === 'number') bar.update(Math.min(total, base + p.embedded), total);
    },
  );
  bar.stop();
  const { jobOutcome } = await views();
  return jobOutcome(result, job);
}

const use: CommandSpec<[string], { wait?: boolean }> = {
  name: 'use <model>',
  description:
    'move the store to another embedding model: static[:sif_a=N], onnx:FOLDER, openai:MODEL[@DIMENSIONS], or a known model id; recall stays on the published model until the rebuild swaps',
  options: [
    { flags: '--wait', description: 'run the rebuild here, with a progress bar, until the swap' },
  ],
  async run({ args: [model], options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      let result = await engram.useModel({ model });
      if (o.wait) result = await waitForRebuild(engram, result);
      await show(g, result, async (r) => (await views()).useText(r));
    });
  },
};

/** `models status`, and `models` given no subcommand: the published model and any transition. */
export async function modelsStatus({ globals: g }: Call): Promise<void> {
  await withEngram(g, false, async (engram) => {
    await show(g, await engram.modelsStatus(), async (s) => (await views()).modelsStatusText(s));
  });
}

const status: CommandSpec = {
  name: 'status',
  description: 'the published model, a running transition (progress, rate, ETA) and standby models',
  readsOnly: true,
  run: modelsStatus,
};

const rollback: CommandSpec<[], { wait?: boolean }> = {
  name: 'rollback',
  description:
    'publish the previous model again (a swap while its vectors are kept; refused after prune)',
  options: [
    { flags: '--wait', description: 'run a catch-up rebuild here when items changed since' },
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      let result = await engram.rollbackModel();
      if (o.wait) result = await waitForRebuild(engram, result);
      await show(g, result, async (r) => (await views()).useText(r));
    });
  },
};

const prune: CommandSpec = {
  name: 'prune',
  description: 'delete the vectors of standby models (after this a rollback is a rebuild)',
  async run({ globals: g }) {
    await withEngram(g, false, async (engram) => {
      const r = await engram.pruneModels();
      if (g.json) printJson(r);
      else
        println(
          r.models.length === 0
            ? 'nothing to prune'
            : `pruned ${r.vectors} vectors of ${r.models.join(', ')}`,
        );
    });
  },
};

/** The transition subcommands of `models`. */
export const TRANSITION_COMMANDS: readonly CommandSpec[] = [use, status, rollback, prune];

/** Failures `embedder status` lists by default. */
const FAILURES_SHOWN = 20;

/** `embedder status`, and `embedder` given no subcommand. */
async function embedderStatus({ options: o, globals: g }: Call): Promise<void> {
  await withEngram(g, false, async (engram) => {
    const limit = (o as { limit?: number }).limit ?? FAILURES_SHOWN;
    const s = await engram.embedderStatus({ space: g.space, limit });
    await show(g, s, async (v) => (await views()).embedderStatusText(v));
  });
}

/** `embedder status`; `embedder` alone prints the same. */
export const EMBEDDER_COMMAND: CommandSpec = {
  name: 'embedder',
  description:
    'the embedding queue, pending items, failures and provider availability (alone: its status)',
  readsOnly: true,
  commands: [
    {
      name: 'status',
      description:
        'queued and in-flight work by priority, vector-pending items, failures with reasons, availability',
      readsOnly: true,
      options: [
        {
          flags: '--limit <n>',
          description: 'failures listed at most',
          parse: int,
          default: FAILURES_SHOWN,
        },
      ],
      run: embedderStatus,
    },
  ],
  run: embedderStatus,
};

// The recall pipeline assembled from stub stages: the order it runs them in and the envelope it returns.
import { describe, expect, it } from 'vitest';

import { configSchema } from '../config/schema.js';
import type { ItemRecord } from '../domain/records.js';
import type { ChannelName, RecallResponse } from '../domain/types.js';
import type { Channel, ChannelResult } from './channels/channel.js';
import { rrfFuser } from './fuse.js';
import { type RecallDeps, runRecall } from './pipeline.js';
import {
  type Candidate,
  DECISION_OFF,
  NO_BOOSTS,
  type RecallPlan,
  type RecallRun,
  type RecallStages,
} from './stages.js';

const config = configSchema.parse({});
const NOW = Date.parse('2026-12-01T00:00:00Z');

function item(id: string): ItemRecord {
  return {
    id,
    space: 'default',
    area: 'general',
    kind: 'note',
    title: null,
    body: `body of ${id}`,
    tags: [],
    importance: 0.5,
    pinned: false,
    status: 'active',
    strength: 1,
    source: null,
    version: 1,
    created_at: NOW,
    updated_at: NOW,
    access_count: 0,
    last_accessed_at: null,
    use_count: 0,
    last_used_at: null,
    prior: null,
    body_hash: id,
    vector_state: 'ready',
  };
}

/** A channel that answers with a fixed result and notes when it ran. */
function channel(name: ChannelName, result: ChannelResult, calls: string[]): Channel {
  return {
    name,
    search: async () => {
      calls.push(`channel:${name}`);
      return result;
    },
  };
}

const ranked = (...ids: string[]) => ({ ids: ids.map((id, i) => ({ id, score: 10 - i })) });

/** A pipeline of stubs, each noting its turn in `calls`; every piece can be replaced. */
function stubbed(calls: string[], overrides: Partial<RecallStages> = {}) {
  const accessed: string[][] = [];
  const read: string[][] = [];
  const ended: (RecallResponse | null)[] = [];
  const stages: RecallStages = {
    channels: [
      channel('keyword', ranked('a', 'b', 'c'), calls),
      channel('vector', { ...ranked('c', 'd'), degraded: 'exact_scan' }, calls),
      channel('graph', { degraded: 'graph_unsupported' }, calls),
      channel('time', ranked('z'), calls),
    ],
    beforeFusion: [
      {
        apply: async (lists) => {
          calls.push(`lists:${lists.map((l) => l.channel).join(',')}`);
          return lists;
        },
      },
    ],
    fuser: {
      fuse: (lists) => {
        calls.push('fuse');
        return rrfFuser(60).fuse(lists);
      },
    },
    booster: {
      maxBoost: 0,
      boost: (candidates, _run, now) => {
        calls.push(`boost@${now}`);
        // Lifts d to the top, so the order after boosts is visibly the booster's.
        return [...candidates].sort(
          (x, y) => Number(y.item.id === 'd') - Number(x.item.id === 'd'),
        );
      },
    },
    afterFusion: [
      {
        apply: async (candidates: Candidate[], run: RecallRun) => {
          calls.push(`rerank:${candidates.map((c) => c.item.id).join('')}`);
          run.timings.rerank = 0;
          return candidates;
        },
      },
    ],
    decision: {
      decide: async (hits) => {
        calls.push(`decide:${hits.map((h) => h.id).join('')}`);
        return { hits: [...hits].reverse(), decision: { state: 'applied', low_confidence: true } };
      },
    },
    observers: [
      {
        onRecallStart: () => calls.push('start'),
        onRecallEnd: (_plan, response) => {
          calls.push('end');
          ended.push(response);
        },
      },
    ],
    ...overrides,
  };
  const deps: RecallDeps = {
    store: {
      getItems: async (_space, ids) => {
        read.push([...ids]);
        return ids.map(item);
      },
    },
    access: {
      record: async (_space, ids) => {
        calls.push('access');
        accessed.push([...ids]);
      },
    },
    config,
    stages,
    now: () => NOW,
  };
  return { deps, accessed, read, ended };
}

const plan = (extra: Partial<RecallPlan> = {}): RecallPlan => ({
  query: 'q',
  k: 3,
  filter: { space: 'default', statuses: ['active'] },
  weights: { keyword: 1, vector: 1, graph: 1, time: 0 },
  ...extra,
});

describe('recall pipeline', () => {
  it('runs channels -> list stages -> fuse -> boosts -> recall stages -> cut -> decision -> access', async () => {
    const calls: string[] = [];
    const { deps, accessed, ended } = stubbed(calls);
    const response = await runRecall(deps, plan());
    expect(calls.slice(0, 1)).toEqual(['start']);
    // Channels run in parallel; the time channel (weight 0) never runs.
    expect(calls.slice(1, 4).sort()).toEqual([
      'channel:graph',
      'channel:keyword',
      'channel:vector',
    ]);
    expect(calls.slice(4)).toEqual([
      'lists:keyword,vector',
      'fuse',
      `boost@${NOW}`,
      // RRF: c (keyword 3 + vector 1) > a > b > d, then the booster lifts d.
      'rerank:dcab',
      'decide:dca',
      'access',
      'end',
    ]);
    expect(response.hits.map((h) => h.id)).toEqual(['a', 'c', 'd']);
    expect(accessed).toEqual([['a', 'c', 'd']]);
    expect(ended).toEqual([response]);
  });

  it('returns the envelope: hits with channel ranks, degradations, decision, timings', async () => {
    const { deps } = stubbed([]);
    const response = await runRecall(deps, plan());
    expect(Object.keys(response).sort()).toEqual(['decision', 'degraded', 'hits', 'timings_ms']);
    expect(response.decision).toEqual({ state: 'applied', low_confidence: true });
    expect(response.degraded).toEqual([
      { channel: 'vector', reason: 'exact_scan' },
      { channel: 'graph', reason: 'graph_unsupported' },
    ]);
    const c = response.hits.find((h) => h.id === 'c')!;
    expect(c.channels).toEqual({ keyword: 3, vector: 1 });
    expect(c).toMatchObject({
      kind: 'note',
      body: 'body of c',
      updated_at: '2026-12-01T00:00:00.000Z',
    });
    expect(Object.keys(response.timings_ms).sort()).toEqual(
      ['fuse', 'graph', 'keyword', 'rerank', 'total', 'vector'].sort(),
    );
  });

  it('with the no-op booster and decision stage keeps the fused order and reports decision off', async () => {
    const calls: string[] = [];
    const { deps } = stubbed(calls, {
      booster: NO_BOOSTS,
      afterFusion: [],
      decision: DECISION_OFF,
    });
    const response = await runRecall(deps, plan({ k: 10 }));
    expect(response.hits.map((h) => h.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(response.hits.map((h) => h.score)).toEqual([1 / 61 + 1 / 63, 1 / 61, 1 / 62, 1 / 62]);
    expect(response.decision).toEqual({ state: 'off' });
  });

  it('reads the items of as many candidates as the deepest later stage asks for', async () => {
    const many = channel('keyword', ranked(...'abcdefghij'), []);
    const small = { ...config, recall: { ...config.recall, pool: 2 } };
    const shallow = stubbed([], { channels: [many], afterFusion: [] });
    await runRecall({ ...shallow.deps, config: small }, plan({ k: 2 }));
    expect(shallow.read).toEqual([['a', 'b']]);
    const deep = stubbed([], {
      channels: [many],
      afterFusion: [{ depth: () => 5, apply: async (candidates) => candidates }],
    });
    await runRecall({ ...deep.deps, config: small }, plan({ k: 2 }));
    expect(deep.read).toEqual([['a', 'b', 'c', 'd', 'e']]);
  });

  it('keeps recall answering when an observer fails, and reports the failure', async () => {
    const failures: unknown[] = [];
    const calls: string[] = [];
    const broken = {
      onRecallStart: () => {
        throw new Error('start failed');
      },
      onRecallEnd: () => {
        throw new Error('end failed');
      },
    };
    const { deps, ended } = stubbed(calls);
    deps.stages = { ...deps.stages, observers: [broken, ...deps.stages.observers] };
    const response = await runRecall({ ...deps, onObserverError: (e) => failures.push(e) }, plan());
    expect(response.hits).toHaveLength(3);
    expect(failures.map((e) => (e as Error).message)).toEqual(['start failed', 'end failed']);
    expect(ended).toEqual([response]);
  });

  it('tells observers of a failed recall with no response, and fails with the channel error', async () => {
    const failing: Channel = {
      name: 'keyword',
      search: async () => {
        throw new Error('index gone');
      },
    };
    const { deps, ended, accessed } = stubbed([], { channels: [failing] });
    await expect(runRecall(deps, plan())).rejects.toThrow();
    expect(ended).toEqual([null]);
    expect(accessed).toEqual([]);
  });
});

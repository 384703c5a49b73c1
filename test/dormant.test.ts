/**
 * Dormant recall (§9) through the service: eligibility, selection, the relevance check, ranking,
 * cooldowns, feedback, what it never changes, and privacy. Each test has its own store and clock.
 */
import { describe, expect, it } from 'vitest';

import type { RememberInput } from '../src/domain/input.js';
import { DAY_MS } from '../src/store/dormant/profile.js';
import {
  dormantEngram,
  engramWithScorer,
  exec,
  FRESH,
  lastEvent,
  OTHERS,
  QUERY,
  rememberAll,
  rows,
  scene,
  ScorerDouble,
  search,
  shadow,
  TARGET,
} from './dormant-helpers.js';

/** Other memories that answer QUERY about as well as TARGET does. */
const SIMILAR: RememberInput[] = [
  {
    kind: 'note',
    body: 'Restart the staging database server after a crash with the admin tool.',
  },
  {
    kind: 'rule',
    body: 'After a crash, restart the staging database server before anything else.',
  },
  {
    kind: 'procedure',
    body: 'Restart the staging database server after a crash from the console.',
  },
];

describe('dormant recall: selection', () => {
  it('selects the one dormant memory ordinary recall left out, and records only metadata', async () => {
    const { engram, clock } = dormantEngram();
    const { target, fresh } = await scene(engram, clock);
    const response = await search(engram, QUERY);
    expect(response.hits.map((h) => h.id)).toEqual([fresh]);
    const event = await lastEvent(engram);
    expect(event).toMatchObject({
      outcome: 'selected',
      candidate_id: target,
      candidate_version: 1,
      algorithm: 'dormant-v1/exact-cosine/alignment',
      feedback: null,
      shown_at: null,
    });
    expect(event.raw_relevance).toBeGreaterThanOrEqual(0.75);
    expect(event.relevance_score).toBeGreaterThanOrEqual(0.6);
    expect(event.dormant_days).toBe(60);
    // importance 0.5, 60 of 120 days: 0.05 * 0.5 * 0.5
    expect(event.bonus).toBeCloseTo(0.0125, 6);
    expect(event.overlap_terms).toBeGreaterThan(0);
    expect(event.retrieved_at).toBe(event.at);
  });

  it('is off by default: no evaluation, no tables', async () => {
    const { engram, clock, path } = dormantEngram({ config: { dormant_recall: {} } });
    await scene(engram, clock);
    await search(engram, QUERY);
    expect(rows(path, 'dormant_recall_events')).toEqual([]);
    expect(rows(path, 'sqlite_master').filter((r) => String(r.name).startsWith('dormant'))).toEqual(
      [],
    );
  });

  it.each(['forgotten', 'archived', 'superseded', 'merged', 'challenged', 'candidate'])(
    'never selects a %s memory',
    async (status) => {
      const { engram, clock, path } = dormantEngram();
      const { target } = await scene(engram, clock);
      exec(path, 'UPDATE items SET status = ? WHERE id = ?', status, target);
      await search(engram, QUERY);
      const event = await lastEvent(engram);
      expect(event.candidate_id).toBeNull();
      expect(event.outcome).toBe('none');
    },
  );

  it('treats a legacy null status as active', async () => {
    const { engram, clock, path } = dormantEngram();
    const { target } = await scene(engram, clock);
    exec(path, 'UPDATE items SET status = NULL WHERE id = ?', target);
    await search(engram, QUERY);
    expect((await lastEvent(engram)).candidate_id).toBe(target);
  });

  it.each(['episode', 'working'] as const)(
    'leaves %s memories out of the profile',
    async (kind) => {
      const { engram, clock } = dormantEngram();
      await scene(engram, clock, 60, { kind });
      await search(engram, QUERY);
      expect((await lastEvent(engram)).candidate_id).toBeNull();
    },
  );

  it('needs dormancy_days since creation and since the last ordinary access', async () => {
    const { engram, clock, path } = dormantEngram();
    const { target } = await scene(engram, clock, 29);
    await search(engram, QUERY);
    expect((await lastEvent(engram)).candidate_id).toBeNull();
    // An ordinary access 10 days ago restarts dormancy even for an old memory.
    exec(
      path,
      'UPDATE items SET last_accessed_at = ? WHERE id = ?',
      clock.now() - 10 * DAY_MS,
      target,
    );
    clock.advanceDays(1);
    await search(engram, QUERY);
    expect((await lastEvent(engram)).candidate_id).toBeNull();
    exec(
      path,
      'UPDATE items SET last_accessed_at = ? WHERE id = ?',
      clock.now() - 30 * DAY_MS,
      target,
    );
    await search(engram, QUERY);
    expect((await lastEvent(engram)).candidate_id).toBe(target);
  });

  it('selects at most one memory per search, even with several qualifying', async () => {
    const { engram, clock, path } = dormantEngram();
    await scene(engram, clock, 60, {}, SIMILAR.slice(0, 2));
    await search(engram, QUERY);
    const events = rows(path, 'dormant_recall_events');
    expect(events).toHaveLength(1);
    expect(events[0]!.passed).toBeGreaterThan(1);
    expect(events[0]!.candidate_id).not.toBeNull();
    expect(rows(path, 'dormant_recall_state')).toHaveLength(1);
    // The next searches take the others in turn (the selected one is cooling down).
    await search(engram, QUERY);
    await search(engram, QUERY);
    const chosen = rows(path, 'dormant_recall_events').map((e) => e.candidate_id);
    expect(new Set(chosen).size).toBe(3);
  });

  it('finds a semantic-only connection (no shared words) that the approximate index misses', async () => {
    // Thresholds as an operator would set them for this model after `dormant calibrate`.
    const { engram, clock } = dormantEngram({
      config: { dormant_recall: shadow({ min_relevance: 0.8, min_rerank_score: 0.2 }) },
    });
    const [target] = await rememberAll(engram, [
      { kind: 'fact', body: 'Vehicle engines overheat during long freeway drives in summer.' },
      ...OTHERS,
    ]);
    clock.advanceDays(90);
    // Test double for an approximate index that missed the record: it never returns it.
    const store = engram.storeForTransfer;
    const report = store.vectorSearchReport!.bind(store);
    store.vectorSearchReport = async (...args) => {
      const result = await report(...args);
      return { ...result, hits: result.hits.filter((h) => h.id !== target) };
    };
    const response = await search(engram, 'car motor got too hot on the highway', 5);
    expect(response.hits.map((h) => h.id)).not.toContain(target);
    const event = await lastEvent(engram);
    expect(event.candidate_id).toBe(target);
    expect(event.overlap_terms).toBe(0);
    const inspection = await engram.dormantInspect(event.id);
    expect(inspection.evidence.literal_overlap).toBe(false);
    expect(inspection.evidence.summary).toMatch(/semantic only/);
  });
});

describe('dormant recall: ranking and the relevance check', () => {
  it('never lets age or importance rescue a raw cosine below the floor', async () => {
    const { engram, clock } = dormantEngram({
      config: { dormant_recall: shadow({ max_bonus: 0.1 }) },
    });
    const unrelated = { body: 'Grandmother knitted a blue scarf for the winter.', importance: 1 };
    await scene(engram, clock, 3650, unrelated, []);
    await search(engram, QUERY);
    const event = await lastEvent(engram);
    expect(event.candidate_count).toBe(1);
    expect(event.above_floor).toBe(0);
    expect(event.candidate_id).toBeNull();
  });

  it('lets the bonus reorder only survivors closer than max_bonus', async () => {
    const scores = new Map<string, number>();
    const scorer = new ScorerDouble((_text, id) => scores.get(id) ?? 0);
    const { engram, clock } = engramWithScorer(scorer, {
      config: { dormant_recall: shadow({ max_bonus: 0.05 }) },
    });
    const [old] = await rememberAll(engram, [{ kind: 'fact', body: TARGET, importance: 1 }]);
    clock.advanceDays(60);
    const [young] = await rememberAll(engram, [{ ...SIMILAR[0]!, importance: 0 }]);
    clock.advanceDays(60);
    await rememberAll(engram, [{ kind: 'fact', body: FRESH }]);
    // old: 120 dormant days of 4×30 → full bonus 0.05; young: importance 0 → no bonus.
    scores.set(old!, 0.7).set(young!, 0.74);
    await search(engram, QUERY);
    expect((await lastEvent(engram)).candidate_id).toBe(old);
    expect((await lastEvent(engram)).bonus).toBeCloseTo(0.05, 6);
    clock.advanceDays(8);
    scores.set(old!, 0.7).set(young!, 0.76);
    await search(engram, QUERY);
    expect((await lastEvent(engram)).candidate_id).toBe(young);
  });

  it('rejects candidates below min_rerank_score and checks at most rerank_candidates', async () => {
    const scorer = new ScorerDouble(() => 0.59);
    const { engram, clock } = engramWithScorer(scorer, {
      config: { dormant_recall: shadow({ rerank_candidates: 2 }) },
    });
    await scene(engram, clock, 60, {}, SIMILAR);
    await search(engram, QUERY);
    const event = await lastEvent(engram);
    expect(scorer.calls).toHaveLength(1);
    expect(scorer.calls[0]!.ids).toHaveLength(2);
    expect(event.above_floor).toBeGreaterThan(2);
    expect(event).toMatchObject({ checked: 2, passed: 0, candidate_id: null });
  });

  it('rejects a broad topic match that cannot address the query (built-in scorer)', async () => {
    const { engram, clock } = dormantEngram({
      config: { dormant_recall: shadow({ min_relevance: 0.5 }) },
    });
    const broad = 'Servers in the staging rack are painted grey and labelled by floor.';
    await scene(engram, clock, 60, { body: broad }, []);
    await search(engram, QUERY);
    const event = await lastEvent(engram);
    expect(event.above_floor).toBe(1);
    expect(event.checked).toBe(1);
    expect(event.passed).toBe(0);
    expect(event.candidate_id).toBeNull();
  });

  it.each([
    ['throws', () => Promise.reject(new Error('model crashed')), 'relevance_check_failed'],
    ['returns NaN', () => Number.NaN, 'relevance_check_invalid'],
  ] as const)('fails open when the relevance check %s', async (_name, judge, type) => {
    const { engram, clock, path } = engramWithScorer(new ScorerDouble(judge));
    await scene(engram, clock);
    const response = await search(engram, QUERY);
    expect(response.hits).toHaveLength(1);
    const event = await lastEvent(engram);
    expect(event).toMatchObject({ outcome: 'failed', error_type: type, candidate_id: null });
    expect(rows(path, 'dormant_recall_state')).toEqual([]);
  });

  it('fails open when no relevance scorer can run here', async () => {
    const { engram, clock } = engramWithScorer(null);
    await scene(engram, clock);
    await search(engram, QUERY);
    expect(await lastEvent(engram)).toMatchObject({
      outcome: 'failed',
      error_type: 'relevance_check_unavailable',
      algorithm: 'dormant-v1/exact-cosine/none',
    });
  });

  it('does not record a candidate edited while it was being checked', async () => {
    const ref = { target: '' };
    const scorer = new ScorerDouble(async (_text, id) => {
      if (id === ref.target)
        await engram.revise(id, { body: `${TARGET} Ask the on-call DBA first.` });
      return 0.9;
    });
    const { engram, clock } = engramWithScorer(scorer);
    ref.target = (await scene(engram, clock)).target;
    await search(engram, QUERY);
    const event = await lastEvent(engram);
    expect(event.checked).toBe(1);
    expect(event.candidate_id).toBeNull();
    expect(event.outcome).toBe('none');
  });
});

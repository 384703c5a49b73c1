// Where extraction runs: the worker thread gives exactly what inline extraction gives.
import { describe, expect, it } from 'vitest';

import { InlineExtractor, WorkerExtractor } from '../src/graph/extractor.js';

const OPTIONS = { maxChars: 20_000, maxEntities: 24 };
const TEXTS = [
  'Alice Johnson leads Project Phoenix; see https://example.com/phoenix and JIRA-42.',
  'The Large Language Model (LLM) team uses Python 3.12 on api.example.com:8443.',
  '',
  'spent 3 hours->last week on it',
];

describe('extractors', () => {
  it('extracts in a worker thread exactly what inline extraction gives', async () => {
    const worker = new WorkerExtractor(OPTIONS);
    try {
      expect(await worker.usesWorker()).toBe(true);
      const [fromWorker, inline] = await Promise.all([
        worker.extractMany(TEXTS),
        new InlineExtractor(OPTIONS).extractMany(TEXTS),
      ]);
      expect(fromWorker).toEqual(inline);
      expect(fromWorker[0]!.entities.map((e) => e.key)).toContain('project phoenix');
      const many = await Promise.all(
        [1, 2, 3].map((n) => worker.extractMany([`Zed ${n} met Ana Ruiz.`])),
      );
      expect(many.map((r) => r[0]!.entities.map((e) => e.key))).toEqual([
        ['ana ruiz'],
        ['ana ruiz'],
        ['ana ruiz'],
      ]);
    } finally {
      await worker.close();
    }
    expect(await worker.extractMany(['Ana Ruiz again.'])).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';

import { loadConfig } from '../config/load.js';
import { silentLogger } from '../domain/log.js';
import type { ModelRecord } from '../domain/records.js';
import type { Store } from '../store/store.js';
import { ModelEmbedders } from './embedders.js';
import { VectorSupply } from './supply.js';

describe('VectorSupply.publishedModel after a swap', () => {
  it('neither keeps nor hands on a read that began before forgetPublished', async () => {
    const answers: ((m: ModelRecord) => void)[] = [];
    let reads = 0;
    const store = {
      publishedModel: () => {
        reads++;
        return new Promise<ModelRecord>((resolve) => answers.push(resolve));
      },
    } as unknown as Store;
    const supply = new VectorSupply(
      store,
      new ModelEmbedders(null, undefined, silentLogger),
      null,
      loadConfig({ env: {} }),
      silentLogger,
      false,
    );
    const model = (id: string): ModelRecord => ({ id, dimension: 4, published_at: 1 });
    // A read of the model before the swap is still under way when the swap is made here.
    const before = supply.publishedModel();
    supply.forgetPublished();
    const after = supply.publishedModel();
    expect(reads).toBe(2);
    answers[0]!(model('old'));
    answers[1]!(model('new'));
    expect((await before)?.id).toBe('old');
    expect((await after)?.id).toBe('new');
    // The later read is the one kept: no third read, and never the model before the swap.
    expect((await supply.publishedModel())?.id).toBe('new');
    expect(reads).toBe(2);
  });
});

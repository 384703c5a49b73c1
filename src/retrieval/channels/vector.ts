/** The vector channel: cosine similarity between the query embedding and the published model's vectors. */
import { isEngramError } from '../../domain/errors.js';
import type { QueryEmbedding } from '../../embed/embedder.js';
import type { Store } from '../../store/store.js';
import type { Channel, ChannelRequest, ChannelResult } from './channel.js';

/** Vector channel; reports why it could not contribute instead of failing recall (§3.4). */
export class VectorChannel implements Channel {
  readonly name = 'vector' as const;

  constructor(
    private readonly store: Store,
    private readonly embedding: QueryEmbedding,
  ) {}

  async search(request: ChannelRequest): Promise<ChannelResult> {
    if (this.embedding.modelId === null) return { degraded: 'embedder_unavailable' };
    const published = await this.embedding.publishedModel();
    if (!published) return { degraded: 'no_published_model' };
    if (!this.embedding.embeds(published.id)) return { degraded: 'published_model_not_loaded' };
    if (!(request.deadline > 0)) return { degraded: 'semantic_budget_exceeded' };
    let vector: Float32Array | null;
    try {
      vector = await this.embedding.embedQuery(request.query, request.deadline, published.id);
    } catch (err) {
      return { degraded: queryFailure(err) };
    }
    if (!vector) return { degraded: 'query_not_embeddable' };
    if (!this.store.vectorSearchReport)
      return {
        ids: await this.store.vectorSearch(request.filter, published.id, vector, request.limit),
      };
    const result = await this.store.vectorSearchReport(
      request.filter,
      published.id,
      vector,
      request.limit,
    );
    return { ids: result.hits, degraded: result.degraded };
  }
}

/** The degradation reason of a query embedding that failed. */
export function queryFailure(err: unknown): string {
  const reason = isEngramError(err) ? err.details.reason : undefined;
  if (reason === 'timeout' || reason === 'semantic_budget_exceeded')
    return 'semantic_budget_exceeded';
  return reason === 'published_model_not_loaded' ? reason : 'embedder_unavailable';
}

/** The keyword channel: BM25 over title, body and tags through the store's full-text index. */
import { keywordTerms } from '../../domain/text.js';
import type { Store } from '../../store/store.js';
import type { Channel, ChannelRequest, ChannelResult } from './channel.js';

/** Keyword (BM25) channel; query text is reduced to plain terms, so no FTS syntax survives. */
export class KeywordChannel implements Channel {
  readonly name = 'keyword' as const;
  readonly additiveScores = true;

  constructor(private readonly store: Store) {}

  async search(request: ChannelRequest): Promise<ChannelResult> {
    const terms = keywordTerms(request.query);
    return { ids: await this.store.keywordSearch(request.filter, terms, request.limit) };
  }
}

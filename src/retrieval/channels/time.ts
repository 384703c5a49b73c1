/**
 * The time channel: when the query names a time ("What was Sam doing on December 4, 2023?",
 * "in July 2023", "last week"; see when.ts), the keyword search again, limited to memories created
 * around that time. Memories are written after what they tell (a turn says "yesterday I ..."), so
 * the window reaches `after_days` past the named time and `before_days` before it. Without a time
 * in the query the channel has nothing to add and returns no candidates.
 */
import type { Config } from '../../config/schema.js';
import { keywordTerms } from '../../domain/text.js';
import type { Store } from '../../store/store.js';
import { queryTimeWindow } from '../when.js';
import type { Channel, ChannelRequest, ChannelResult } from './channel.js';

const DAY_MS = 86_400_000;

/** Keyword search within the time the query names (see the file header). */
export class TimeChannel implements Channel {
  readonly name = 'time' as const;
  readonly additiveScores = true;

  constructor(
    private readonly store: Store,
    private readonly settings: Config['recall']['time'],
    /** The clock relative expressions ("yesterday") count back from. */
    private readonly now: () => number = Date.now,
  ) {}

  async search(request: ChannelRequest): Promise<ChannelResult> {
    const window = queryTimeWindow(request.query, this.now());
    const terms = keywordTerms(request.query);
    if (window === null || terms.length === 0) return { ids: [] };
    const { filter } = request;
    const after = window.from - this.settings.before_days * DAY_MS;
    const before = window.to + this.settings.after_days * DAY_MS;
    const scoped = {
      ...filter,
      created_after: Math.max(after, filter.created_after ?? after),
      created_before: Math.min(before, filter.created_before ?? before),
    };
    return { ids: await this.store.keywordSearch(scoped, terms, request.limit) };
  }
}

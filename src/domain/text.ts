/** Text rules shared by writing and recall: body normalisation for duplicates, query terms. */
import { createHash } from 'node:crypto';

import { markedStems, termWords } from './inflection.js';
import { segmentText } from './segment.js';

/** Body as compared for exact duplicates: NFC, trimmed, whitespace collapsed, case-folded. */
export function normalizeBody(body: string): string {
  return body.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** Hash of the normalised body, the key of exact-duplicate detection. */
export function bodyHash(body: string): string {
  return createHash('sha256').update(normalizeBody(body)).digest('hex').slice(0, 32);
}

/** Text an item is embedded from: title, body and tags. */
export function embeddingText(item: {
  title: string | null;
  body: string;
  tags: readonly string[];
}): string {
  // Most memories are a body alone: no new string for them (recall reads a hundred a call).
  if (!item.title && item.tags.length === 0) return item.body;
  return [item.title ?? '', item.body, item.tags.join(' ')].filter((s) => s !== '').join('\n');
}

/** English function words left out of keyword queries (they match nearly everything). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being below between both but by
can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't
have haven't having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't
it it's its itself let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own
same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then there there's
these they they'd they'll they're they've this those through to too under until up very was wasn't we we'd we'll we're we've were
weren't what what's when when's where where's which while who who's whom why why's will with won't would wouldn't you you'd you'll
you're you've your yours yourself yourselves s t d ll m re ve don doesn didn isn aren wasn weren hasn haven hadn won wouldn shouldn couldn can mustn`
    .split(/\s+/u)
    .filter(Boolean),
);

/** Word tokens of a text: letters and digits (any script), apostrophes inside words kept. */
export function wordTokens(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []
  );
}

/**
 * Terms of a keyword query: word tokens without stop-words (all tokens if only stop-words remain),
 * deduplicated. Scripts written without spaces are segmented first, exactly as the keyword index
 * segments the text it holds (segment.ts). Letters keep their combining marks (Thai vowels,
 * Devanagari signs), as the index does. The marked stems of words of inflected languages follow
 * the words (inflection.ts), as the index adds them. Each term is later quoted for the full-text
 * engine, so no query syntax survives.
 */
export function keywordTerms(query: string): string[] {
  const tokens = termWords(segmentText(query.normalize('NFKC')));
  const content = tokens.filter((t) => !STOP_WORDS.has(t));
  const words = content.length > 0 ? content : tokens;
  return [...new Set([...words, ...markedStems(tokens)])];
}

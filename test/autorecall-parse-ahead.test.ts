/**
 * Parsing a message in a worker thread (autorecall/parse-ahead.ts) gives exactly the parse of the
 * calling thread, and a parse handed over with `adoptParse` is what the next analysis of that text
 * reads, once.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { analyzeMessage } from '../src/autorecall/analyze.js';
import { adoptParse, type ParsedText, parseText } from '../src/autorecall/nlp.js';
import { parseAhead, stopParseWorker } from '../src/autorecall/parse-ahead.js';

const MESSAGES = [
  'How does the billing service deploy?',
  'Remember when Alice Johnson moved the Phoenix launch to March 3rd? We agreed on v2.1.0.',
  'thanks, that works 👍',
  'Der Server läuft auf Port 8080.',
];

afterAll(stopParseWorker);

describe('parse-ahead (a worker thread parses messages)', () => {
  it('parses every message exactly as the calling thread does', async () => {
    for (const text of MESSAGES) {
      const ahead = await parseAhead(text);
      expect(ahead, text).not.toBeNull();
      expect(ahead).toEqual(parseText(text));
    }
  });

  it('answers requests made together, each with its own parse', async () => {
    const parses = await Promise.all(MESSAGES.map((text) => parseAhead(text)));
    expect(parses).toEqual(MESSAGES.map((text) => parseText(text)));
  });

  it('hands an adopted parse to the next parse of its text, once', () => {
    const text = 'Where is the staging database?';
    const marked: ParsedText = {
      ...parseText(text),
      entities: [{ value: 'staging', type: 'TEST' }],
    };
    adoptParse(text, marked);
    expect(analyzeMessage(text, []).entities).toContainEqual({ text: 'staging', type: 'TEST' });
    // Used once: the next analysis parses the text itself.
    expect(analyzeMessage(text, []).entities).not.toContainEqual({ text: 'staging', type: 'TEST' });
  });
});

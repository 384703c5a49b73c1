/**
 * The English model assembled by graph/english-model.ts analyses text exactly as the package's own
 * model does: the same tokens, parts of speech, types, lemmas, stop words, entities, sentences,
 * sentiment and learned-word ids, with the POS-only pipe the graph uses and with every pipe.
 */
import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';
import type { Model } from 'wink-nlp';
import type winkNLP from 'wink-nlp';

import { englishModel } from '../src/graph/english-model.js';

const require = createRequire(import.meta.url);
const wink = require('wink-nlp') as typeof winkNLP;

const TEXTS = [
  'Alice Johnson leads the Phoenix project in Berlin.',
  "I'd love to go hiking with Melanie next Saturday, she said! Didn't she?",
  'qzxjvkwq unusualword Gr8 #tag @bob http://x.io bob@example.com 3.5 kg at 12:30pm :-)',
  'The meeting on March 3rd, 2024 was moved; costs rose by 12% to $4,500.',
  'Caroline went to the LGBTQ support group yesterday and it was so powerful.',
  '',
];

/** Everything an analysis exposes that engram reads, per text. */
function analyse(nlp: ReturnType<typeof winkNLP>): unknown[] {
  const its = nlp.its;
  return TEXTS.map((text) => {
    const doc = nlp.readDoc(text);
    const tokens = doc.tokens();
    return {
      values: tokens.out(its.value),
      normal: tokens.out(its.normal),
      pos: tokens.out(its.pos),
      type: tokens.out(its.type),
      ids: tokens.out(its.uniqueId),
      // wink's typings give `lemma` an extra parameter; the call is the documented one.
      lemma: tokens.out(its.lemma as typeof its.normal),
      stop: tokens.out(its.stopWordFlag),
      oov: tokens.out().map((word: string) => doc.isOOV?.(word)),
      entities: doc.entities().out(its.detail),
      sentences: doc.sentences().out(),
      sentiment: doc.out(its.sentiment),
    };
  });
}

describe('the English model with the fast core reader', () => {
  it('analyses like the package model, POS pipe only (the graph)', () => {
    const reference = analyse(wink(require('wink-eng-lite-web-model') as Model, ['pos']));
    expect(analyse(wink(englishModel(), ['pos']))).toEqual(reference);
  });

  it('analyses like the package model with every pipe (auto-recall)', () => {
    const reference = analyse(wink(require('wink-eng-lite-web-model') as Model));
    expect(analyse(wink(englishModel()))).toEqual(reference);
  });

  it('gives every instance a fresh core, so words learned by one stay out of the next', () => {
    const model = englishModel();
    const first = wink(model, ['pos']);
    const learned = first.readDoc('zzqxwordone zzqxwordtwo').tokens().out(first.its.uniqueId);
    const second = wink(model, ['pos']);
    const again = second.readDoc('zzqxwordone zzqxwordtwo').tokens().out(second.its.uniqueId);
    expect(again).toEqual(learned);
  });
});

/**
 * The English NLP model (wink-nlp with wink-eng-lite-web-model, offline): sentences, tokens,
 * and parts of speech of a text. The model loads once, on first use, and is reloaded once it has
 * learned many words, because wink keeps every unseen word in its in-memory lexicon.
 */
import { createRequire } from 'node:module';

import type { PartOfSpeech, WinkMethods } from 'wink-nlp';
import type winkNLP from 'wink-nlp';

import { englishModel } from './english-model.js';

// The library and its model are required on first use, not imported: loading them costs more
// than a short command's whole run, and a process that never extracts names (a search, a worker
// that extracts elsewhere) never pays it. Both are CommonJS, so the load stays synchronous.
const require = createRequire(import.meta.url);

/** An analysed text: its tokens as parallel arrays (token i is `values[i]`, `pos[i]`...). */
export interface NlpDoc {
  values: string[];
  pos: PartOfSpeech[];
  /** wink's token types: word, number, punctuation, url, email, emoji... */
  kinds: string[];
  /** First word of a sentence, or right after an opening quote, bracket, colon or dash. */
  initial: boolean[];
  /** True when the word is outside the model's English vocabulary. */
  isOOV(word: string): boolean;
}

/**
 * Words the model may learn (each unseen word costs it about half a kilobyte) before it is
 * reloaded; ordinary text adds few, identifiers and hashes many.
 */
const MAX_LEARNED = 100_000;

let instance: WinkMethods | undefined;
/** Lexicon ids at or above this one are words the instance learned. */
let learnedFrom = 0;
let learned = 0;
/** The model's vocabulary test (the same for every document of an instance). */
let outOfVocabulary: (word: string) => boolean = () => true;

/** Loads the model now when it is not loaded (a worker does this as it starts). */
export function loadNlp(): void {
  nlp();
}

function nlp(): WinkMethods {
  if (!instance || learned >= MAX_LEARNED) {
    // Parts of speech only: sentence starts are read from punctuation below, and the named-entity
    // stage would only mark dates and numbers, which the calendar words and number rules cover.
    const wink = require('wink-nlp') as typeof winkNLP;
    instance = wink(englishModel(), ['pos']);
    const probe = instance.readDoc('qzxjvkwq');
    learnedFrom = probe.tokens().out(instance.its.uniqueId)[0] as number;
    outOfVocabulary = (word) => probe.isOOV(word);
    learned = 0;
  }
  return instance;
}

/** Tokens after which a word starts a sentence or a quotation. */
const OPENERS = new Set([
  '.',
  '!',
  '?',
  '…',
  '"',
  '“',
  '‘',
  "'",
  '(',
  '[',
  '{',
  ':',
  ';',
  '-',
  '–',
  '—',
  '«',
  '*',
  '>',
]);

/** Analyses a text with the English model; an empty text costs nothing but the model's load. */
export function analyse(text: string): NlpDoc {
  const wink = nlp();
  if (text === '') return { values: [], pos: [], kinds: [], initial: [], isOOV: outOfVocabulary };
  const its = wink.its;
  const all = wink.readDoc(text).tokens();
  const values = all.out(its.value) as string[];
  const ids = all.out(its.uniqueId) as number[];
  for (const id of ids) if (id - learnedFrom > learned) learned = id - learnedFrom;
  const initial = values.map((_, i) => i === 0 || OPENERS.has(values[i - 1]!));
  return {
    values,
    pos: all.out(its.pos) as PartOfSpeech[],
    kinds: all.out(its.type) as string[],
    initial,
    isOOV: outOfVocabulary,
  };
}

/**
 * The English NLP model (wink-nlp with wink-eng-lite-web-model, offline): sentences, tokens,
 * and parts of speech of a text. The model loads once, on first use, and is reloaded once it has
 * learned many words, because wink keeps every unseen word in its in-memory lexicon.
 */
import model from 'wink-eng-lite-web-model';
import winkNLP, { type PartOfSpeech, type WinkMethods } from 'wink-nlp';

/** One token of an analysed text. */
export interface NlpToken {
  value: string;
  pos: PartOfSpeech;
  /** wink's token type: word, number, punctuation, url, email, emoji... */
  kind: string;
  /** First word of a sentence, or right after an opening quote, bracket, colon or dash. */
  initial: boolean;
}

/** An analysed text. */
export interface NlpDoc {
  tokens: NlpToken[];
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

function nlp(): WinkMethods {
  if (!instance || learned >= MAX_LEARNED) {
    // Parts of speech only: sentence starts are read from punctuation below, and the named-entity
    // stage would only mark dates and numbers, which the calendar words and number rules cover.
    instance = winkNLP(model, ['pos']);
    learnedFrom = instance.readDoc('qzxjvkwq').tokens().out(instance.its.uniqueId)[0] as number;
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

/** Analyses a text with the English model. */
export function analyse(text: string): NlpDoc {
  const wink = nlp();
  const its = wink.its;
  const doc = wink.readDoc(text);
  const all = doc.tokens();
  const values = all.out(its.value) as string[];
  const pos = all.out(its.pos) as PartOfSpeech[];
  const kinds = all.out(its.type) as string[];
  const ids = all.out(its.uniqueId) as number[];
  for (const id of ids) learned = Math.max(learned, id - learnedFrom);
  const tokens: NlpToken[] = [];
  for (let i = 0; i < values.length; i++) {
    const prev = values[i - 1];
    tokens.push({
      value: values[i]!,
      pos: pos[i]!,
      kind: kinds[i]!,
      initial: prev === undefined || OPENERS.has(prev),
    });
  }
  return { tokens, isOOV: (word) => doc.isOOV(word) };
}

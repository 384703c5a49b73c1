/**
 * The English NLP pipeline auto-recall analyses messages with: wink-nlp over its lite web model
 * (tokens, part of speech, lemmas, stop words, named entities). Loaded once per process, on first
 * use (about 60 ms), never per message; a short-lived process can have a worker thread load it and
 * parse its one message meanwhile (parse-ahead.ts), then hand the parse over (`adoptParse`).
 */
import { createRequire } from 'node:module';

import type winkNLP from 'wink-nlp';

import { englishModel } from '../graph/english-model.js';

// Required on first use rather than imported, so that only a process that analyses a message
// loads the library and its model (CommonJS both, so the load stays synchronous).
const require = createRequire(import.meta.url);

/** One token as the analysis reads it. */
export interface Token {
  /** Text as written. */
  value: string;
  /** Lower-cased, normalised form. */
  normal: string;
  lemma: string;
  pos: string;
  /** word, number, punctuation, emoticon, email, url, ... */
  type: string;
  stop: boolean;
  /** Index of the sentence the token belongs to. */
  sentence: number;
}

/** A named entity found by the library. */
export interface NlpEntity {
  value: string;
  type: string;
}

/** A parsed message. */
export interface ParsedText {
  tokens: Token[];
  entities: NlpEntity[];
  sentences: number;
}

type Nlp = ReturnType<typeof winkNLP>;
let instance: Nlp | undefined;

function nlp(): Nlp {
  if (!instance) {
    const wink = require('wink-nlp') as typeof winkNLP;
    instance = wink(englishModel());
  }
  return instance;
}

/** True once the library and its model are loaded in this process. */
export function nlpLoaded(): boolean {
  return instance !== undefined;
}

/** Loads the library and its model now (synchronous, once per process). */
export function loadNlp(): void {
  nlp();
}

/** Parses made elsewhere (a worker thread, parse-ahead.ts), each used by the next parse of its text. */
const adopted = new Map<string, ParsedText>();

/**
 * Hands over the parse of `text` made by the same pipeline in another thread: the next
 * `parseText(text)` returns it instead of loading the model here.
 */
export function adoptParse(text: string, parsed: ParsedText): void {
  adopted.set(text, parsed);
}

/** Parses a text into tokens (with their sentence) and named entities. */
export function parseText(text: string): ParsedText {
  const ahead = adopted.get(text);
  if (ahead) {
    adopted.delete(text);
    return ahead;
  }
  const engine = nlp();
  const its = engine.its;
  const doc = engine.readDoc(text);
  const tokens: Token[] = [];
  doc.sentences().each((sentence, index) => {
    const t = sentence.tokens();
    // The library's typings do not accept every `its` helper (lemma), though all work at run time.
    const out = <T>(f: unknown) => t.out(f as Parameters<typeof t.out>[0]) as unknown as T[];
    const values = out<string>(its.value);
    const normals = out<string>(its.normal);
    const lemmas = out<string>(its.lemma);
    const pos = out<string>(its.pos);
    const types = out<string>(its.type);
    const stops = out<boolean>(its.stopWordFlag);
    values.forEach((value, i) =>
      tokens.push({
        value,
        normal: normals[i] ?? value.toLowerCase(),
        lemma: lemmas[i] ?? value.toLowerCase(),
        pos: pos[i] ?? 'X',
        type: types[i] ?? 'word',
        stop: stops[i] ?? false,
        sentence: index,
      }),
    );
  });
  const entities = (doc.entities().out(its.detail) as { value: string; type: string }[]).map(
    (e) => ({ value: e.value, type: e.type }),
  );
  return { tokens, entities, sentences: doc.sentences().length() };
}

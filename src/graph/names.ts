/**
 * Where names are found (§4): the sentences worth the English model's time (those with a
 * capitalised word that is no stop-word or greeting), and the runs of proper-noun tokens the model
 * marks in them, judged as names, weak sentence starts or nothing.
 */
import type { NlpDoc } from './nlp.js';
import { isEdgeWord, PRONOUNS } from './normalize.js';

const CONNECTORS = new Set(['of', '&', 'de', 'van', 'von', 'da', 'del', 'du', 'der', 'den', 'al']);
const MAX_NAME_TOKENS = 6;

const SENTENCE = /[^.!?…\n]*(?:[.!?…]+|\n|$)/gu;
const CAPITALISED = /\p{Lu}[\p{L}\p{N}'’-]*/gu;
const UPPER = /\p{Lu}/u;

/** The word up to its first apostrophe ("Caroline's" -> "Caroline"). */
function beforeApostrophe(word: string): string {
  let end = word.indexOf("'");
  const curly = word.indexOf('’');
  if (curly >= 0 && (end < 0 || curly < end)) end = curly;
  return end < 0 ? word : word.slice(0, end);
}

/** True when some capitalised word of the sentence could start a name. */
function mayName(sentence: string): boolean {
  CAPITALISED.lastIndex = 0;
  for (let m = CAPITALISED.exec(sentence); m !== null; m = CAPITALISED.exec(sentence)) {
    const bare = beforeApostrophe(m[0]);
    if (bare !== 'I' && !isEdgeWord(bare)) return true;
  }
  return false;
}

/** The part of a text the model reads, and where it starts in the text. */
export interface Prose {
  text: string;
  start: number;
}

/**
 * The part of the text worth the model's time: from the first to the last sentence that may hold
 * a name, the sentences between that cannot blanked out (same length, so offsets stay), without
 * the spaces at its ends (they give the model no token and change none). A sentence whose only
 * capitalised words are "I", stop-words or greetings cannot hold a name: names only come from
 * capitalised words, so nothing is lost. Empty when no sentence may hold a name: then the model
 * is not run at all.
 */
export function namedProse(text: string): Prose {
  if (!UPPER.test(text)) return { text: '', start: 0 };
  let out = '';
  let start = -1;
  let kept = 0;
  SENTENCE.lastIndex = 0;
  for (let m = SENTENCE.exec(text); m !== null; m = SENTENCE.exec(text)) {
    const sentence = m[0];
    if (sentence === '') {
      // An empty match (the end of the text) would repeat forever: step past it.
      if (SENTENCE.lastIndex >= text.length) break;
      SENTENCE.lastIndex++;
      continue;
    }
    if (mayName(sentence)) {
      if (start < 0) start = m.index;
      out += sentence;
      kept = out.length;
    } else if (start >= 0) out += ' '.repeat(sentence.length);
  }
  if (start < 0) return { text: '', start: 0 };
  let from = 0;
  let to = kept;
  while (from < to && out.charCodeAt(from) === 32) from++;
  while (to > from && out.charCodeAt(to - 1) === 32) to--;
  return { text: out.slice(from, to), start: start + from };
}

/** Acronyms (LLM, AWS, NASA): the model often tags them as common nouns. */
const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}&]{1,7}$/u;
const ACRONYM_POS = new Set(['PROPN', 'NOUN', 'ADJ', 'X']);

/** Inside a sentence, a capitalised noun or adjective is part of a name ("Iris Park"). */
const TITLED_POS = new Set(['NOUN', 'ADJ', 'X']);

const UPPER_START = /^\p{Lu}/u;
const LETTER = /\p{L}/u;
const APOSTROPHE_START = /^['’]/u;

function isNameToken(doc: NlpDoc, i: number): boolean {
  if (doc.kinds[i] !== 'word') return false;
  const value = doc.values[i]!;
  const pos = doc.pos[i]!;
  const candidate =
    pos === 'PROPN' ||
    (!doc.initial[i] && TITLED_POS.has(pos) && UPPER_START.test(value)) ||
    (ACRONYM_POS.has(pos) && ACRONYM.test(value));
  return (
    candidate &&
    LETTER.test(value) &&
    !APOSTROPHE_START.test(value) &&
    !PRONOUNS.has(value.toLowerCase())
  );
}

/** A proper-noun run: its token span, and whether only its position capitalised it. */
export interface NameRun {
  from: number;
  to: number;
  weak: boolean;
}

/** Token spans of proper-noun runs that may name something. */
export function nameRuns(doc: NlpDoc): NameRun[] {
  const { values } = doc;
  // Each token is judged once; the runs below read the flags.
  const named = values.map((_, i) => isNameToken(doc, i));
  const inner = new Set<string>();
  for (let i = 0; i < values.length; i++)
    if (named[i] && !doc.initial[i]) inner.add(values[i]!.toLowerCase());
  const runs: NameRun[] = [];
  for (let i = 0; i < values.length; i++) {
    if (!named[i]) continue;
    let j = i;
    while (j + 1 < values.length) {
      if (named[j + 1]) j++;
      else if (CONNECTORS.has(values[j + 1]!.toLowerCase()) && named[j + 2]) j += 2;
      else break;
    }
    const run = trimRun(values, i, j);
    const kept = run ? judgeRun(doc, run, inner) : null;
    if (run && kept) runs.push({ from: run[0], to: run[1], weak: kept === 'weak' });
    i = j;
  }
  return runs;
}

function isRunEdge(value: string): boolean {
  return isEdgeWord(value) || CONNECTORS.has(value.toLowerCase());
}

function trimRun(values: readonly string[], from: number, to: number): [number, number] | null {
  while (from <= to && isRunEdge(values[from]!)) from++;
  while (to >= from && isRunEdge(values[to]!)) to--;
  if (from > to || to - from + 1 > MAX_NAME_TOKENS) return null;
  return [from, to];
}

/**
 * A capitalised word at the start of a sentence may be capitalised by position only ("Family's
 * great", "Glad to hear it"). It is a name when it is no English word or is used as a name
 * elsewhere in the text; when it is the subject of a verb or has a possessive ("Caroline said",
 * "Docker runs") it is kept as weak: the graph trusts it once some item names it mid-sentence.
 * Anything else is dropped.
 */
function judgeRun(
  doc: NlpDoc,
  [from, to]: [number, number],
  inner: ReadonlySet<string>,
): 'strong' | 'weak' | null {
  const { values } = doc;
  if (!values.slice(from, to + 1).some((v) => UPPER.test(v))) return null;
  const first = values[from]!;
  if (from !== to || !doc.initial[from]) return 'strong';
  const lower = first.toLowerCase();
  if (first.length > 1 && first === first.toUpperCase()) return 'strong';
  if (doc.isOOV(lower) || inner.has(lower)) return 'strong';
  const next = values[from + 1];
  return next !== undefined && (doc.pos[from + 1] === 'VERB' || /^['’]s$/u.test(next))
    ? 'weak'
    : null;
}

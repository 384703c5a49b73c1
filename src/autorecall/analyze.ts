/**
 * Message analysis for auto-recall (§6 step 1), without an LLM: topics, entities and key phrases
 * from wink-nlp (part of speech, lemmas, named entities) plus pattern rules for technical tokens,
 * and the decision whether to search memory now, with its reason:
 *
 *   small_talk / no_content  — nothing to look up (greetings, thanks, "ok cool")    no
 *   memory_reference         — "remember when…", "last time", "did we…"              yes
 *   question                 — a question about something ("how do I deploy…?")     yes
 *   topic_shift              — the topics share nothing with recent history          yes
 *   sustained_discussion     — a topic runs through the recent messages and this one yes
 *   same_topic               — continues the current topic without a new need        no
 */
import { STOP_WORDS } from '../domain/text.js';
import { stemWord } from '../lifecycle/terms.js';
import { type ParsedText, parseText, type Token } from './nlp.js';

/** Why the analysis did or did not trigger a recall. */
export type TriggerReason =
  | 'memory_reference'
  | 'question'
  | 'topic_shift'
  | 'sustained_discussion'
  | 'same_topic'
  | 'small_talk'
  | 'no_content';

/** An entity found in a message. */
export interface MessageEntity {
  text: string;
  /** Library types (DATE, URL, EMAIL, HASHTAG, ...), `name` (proper nouns) or a technical type. */
  type: string;
}

/** The analysis of one message (`analyze_for_recall`). */
export interface RecallAnalysis {
  topics: string[];
  entities: MessageEntity[];
  key_phrases: string[];
  is_question: boolean;
  trigger: { should_recall: boolean; reason: TriggerReason; detail: string };
  /** Terms used to search memory (topics, content verbs, entity words), most telling first. */
  search_terms: string[];
  /** Stemmed topic terms, as compared with history. */
  topic_stems: string[];
}

const WH_WORDS = new Set(['what', 'when', 'where', 'which', 'who', 'whom', 'whose', 'why', 'how']);
const AUX_START = new Set(
  'do does did is are was were can could should would will shall have has had may might must am'.split(
    ' ',
  ),
);
const SMALL_TALK = new Set(
  `hi hello hey hiya yo howdy greetings morning evening afternoon night good great nice cool ok okay
  k fine thanks thank thx ty cheers welcome sorry please yes yeah yep yup no nope nah sure bye goodbye
  see later lol haha hahaha hmm hm wow awesome perfect alright right well doing going how are you
  what's whats up sup day today weekend lovely glad happy too much lot appreciate it that's`
    .split(/\s+/u)
    .filter(Boolean),
);
const GENERIC_VERBS = new Set(
  'be have do get make go know think want need like say tell let see take give come try feel seem look mean keep put'.split(
    ' ',
  ),
);
const MEMORY_REFERENCE =
  /\b(remember|remind me|recall|last time|earlier|previously|before we|we (?:discussed|talked|decided|agreed|said)|you (?:said|told|mentioned)|i (?:told|mentioned)|did (?:we|i|you)|what was (?:the|our|my)|as we)\b/iu;
const URL_NOISE = new Set(['http', 'https', 'www', 'com', 'org', 'net', 'io']);
const NOISE_ENTITY_TYPES = new Set(['EMOTICON', 'EMOJI', 'CARDINAL', 'ORDINAL', 'PUNCTUATION']);
const TECHNICAL: { type: string; re: RegExp }[] = [
  { type: 'url', re: /\bhttps?:\/\/[^\s<>"')]+/gu },
  {
    type: 'path',
    re: /(?:^|[\s(])((?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]+)+|[\w.-]+\/[\w.-]+\.[a-z0-9]{1,5})\b/gu,
  },
  { type: 'version', re: /\bv?\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?\b/gu },
  { type: 'identifier', re: /\b[a-z]+(?:[A-Z][a-z0-9]+)+\b|\b[a-z0-9]+(?:[_-][a-z0-9]+)+\b/gu },
  { type: 'port', re: /(?<=[\s:])(?::|port\s+)(\d{2,5})\b/giu },
];

function isContent(t: Token): boolean {
  return (
    t.type === 'word' &&
    !t.stop &&
    !STOP_WORDS.has(t.normal) &&
    t.normal.length >= 2 &&
    !SMALL_TALK.has(t.normal)
  );
}

function topicsOf(tokens: readonly Token[]): string[] {
  const out = new Set<string>();
  for (const t of tokens)
    if ((t.pos === 'NOUN' || t.pos === 'PROPN') && isContent(t)) out.add(t.normal);
  return [...out];
}

function keyPhrases(tokens: readonly Token[]): string[] {
  const phrases = new Set<string>();
  let run: Token[] = [];
  const flush = () => {
    while (run.length && !['NOUN', 'PROPN'].includes(run[run.length - 1]!.pos)) run.pop();
    if (run.length >= 2 || (run.length === 1 && run[0]!.pos === 'PROPN'))
      phrases.add(run.map((t) => t.value).join(' '));
    run = [];
  };
  for (const t of tokens) {
    const fits = ['ADJ', 'NOUN', 'PROPN'].includes(t.pos) && isContent(t);
    if (fits && (run.length === 0 || run[run.length - 1]!.sentence === t.sentence)) run.push(t);
    else flush();
  }
  flush();
  return [...phrases];
}

function technicalEntities(text: string): { text: string; type: string }[] {
  const out: { text: string; type: string }[] = [];
  for (const { type, re } of TECHNICAL)
    for (const m of text.matchAll(re)) {
      const value = (m[1] ?? m[0]).trim();
      if (value.length >= 2) out.push({ text: value, type });
    }
  return out;
}

function entitiesOf(text: string, parsed: ParsedText): MessageEntity[] {
  const seen = new Set<string>();
  const out: MessageEntity[] = [];
  const add = (e: MessageEntity) => {
    const key = e.text.toLowerCase();
    // a library entity inside a technical token (a number in a version) adds nothing; a name does
    if (seen.has(key) || (e.type !== 'name' && [...seen].some((s) => s.includes(key)))) return;
    seen.add(key);
    out.push(e);
  };
  technicalEntities(text).forEach(add);
  for (const e of parsed.entities)
    if (!NOISE_ENTITY_TYPES.has(e.type)) add({ text: e.value, type: e.type });
  let run: Token[] = [];
  const flush = () => {
    if (run.length) add({ text: run.map((t) => t.value).join(' '), type: 'name' });
    run = [];
  };
  for (const t of parsed.tokens) {
    if (t.pos === 'PROPN' && isContent(t) && (!run.length || run[0]!.sentence === t.sentence))
      run.push(t);
    else flush();
  }
  flush();
  return out;
}

function isQuestion(text: string, tokens: readonly Token[]): boolean {
  if (/\?\s*$/u.test(text) || /\?\s/u.test(text)) return true;
  const firsts = new Map<number, Token[]>();
  for (const t of tokens) {
    if (t.type !== 'word') continue;
    const list = firsts.get(t.sentence) ?? [];
    if (list.length < 2) list.push(t);
    firsts.set(t.sentence, list);
  }
  for (const [first, second] of firsts.values()) {
    if (!first) continue;
    if (WH_WORDS.has(first.normal)) return true;
    if (
      AUX_START.has(first.normal) &&
      second &&
      ['PRON', 'PROPN', 'NOUN', 'DET'].includes(second.pos)
    )
      return true;
  }
  return false;
}

function searchTerms(
  tokens: readonly Token[],
  topics: readonly string[],
  entities: readonly MessageEntity[],
) {
  const verbs = tokens
    .filter((t) => t.pos === 'VERB' && isContent(t) && !GENERIC_VERBS.has(t.lemma))
    .map((t) => t.normal);
  const entityWords = entities.flatMap((e) => e.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const telling = entityWords.filter(
    (w) => !STOP_WORDS.has(w) && !SMALL_TALK.has(w) && !URL_NOISE.has(w),
  );
  return [...new Set([...telling, ...topics, ...verbs])];
}

/** A message of the recent history: its text (the role does not change the analysis). */
export type HistoryMessage = string | { role?: string; text: string };

/** The stemmed topics of one text (for history comparison). */
export function topicStems(text: string): string[] {
  return [...new Set(topicsOf(parseText(text).tokens).map(stemWord))];
}

/**
 * Analyses a message against the topics of the recent history (most recent last). `history`
 * holds the stemmed topics of each earlier message; an empty history is a conversation start.
 */
export function analyzeMessage(text: string, history: readonly string[][]): RecallAnalysis {
  const parsed = parseText(text);
  const topics = topicsOf(parsed.tokens);
  const entities = entitiesOf(text, parsed);
  const phrases = keyPhrases(parsed.tokens);
  const terms = searchTerms(parsed.tokens, topics, entities);
  const stems = [...new Set(topics.map(stemWord))];
  const question = isQuestion(text, parsed.tokens);
  const base = {
    topics,
    entities,
    key_phrases: phrases,
    is_question: question,
    search_terms: terms,
    topic_stems: stems,
  };
  return { ...base, trigger: decide(text, parsed, terms, stems, question, history) };
}

function decide(
  text: string,
  parsed: ParsedText,
  terms: readonly string[],
  stems: readonly string[],
  question: boolean,
  history: readonly string[][],
): RecallAnalysis['trigger'] {
  if (terms.length === 0) {
    const chatty = parsed.tokens.some((t) => SMALL_TALK.has(t.normal) || t.type === 'emoticon');
    return chatty
      ? {
          should_recall: false,
          reason: 'small_talk',
          detail: 'greeting, thanks or acknowledgement',
        }
      : { should_recall: false, reason: 'no_content', detail: 'no topic, entity or key term' };
  }
  if (MEMORY_REFERENCE.test(text))
    return {
      should_recall: true,
      reason: 'memory_reference',
      detail: 'refers to something said or decided before',
    };
  if (question)
    return {
      should_recall: true,
      reason: 'question',
      detail: `asks about ${terms.slice(0, 3).join(', ')}`,
    };
  const recent = history.filter((h) => h.length > 0);
  if (recent.length === 0)
    return stems.length
      ? {
          should_recall: true,
          reason: 'topic_shift',
          detail: 'opens the conversation with a topic',
        }
      : { should_recall: false, reason: 'same_topic', detail: 'no topic to look up yet' };
  const seen = new Set(recent.flat());
  if (stems.length > 0 && !stems.some((s) => seen.has(s)))
    return {
      should_recall: true,
      reason: 'topic_shift',
      detail: `new topic: ${stems.slice(0, 3).join(', ')}`,
    };
  const lastThree = recent.slice(-3);
  const sustained = stems.find((s) => lastThree.filter((h) => h.includes(s)).length >= 2);
  if (sustained)
    return {
      should_recall: true,
      reason: 'sustained_discussion',
      detail: `"${sustained}" runs through the recent messages`,
    };
  return { should_recall: false, reason: 'same_topic', detail: 'continues the current topic' };
}

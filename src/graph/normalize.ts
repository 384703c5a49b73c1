/**
 * Entity normalisation and the noise filter: one key per entity whatever its case, quotes,
 * possessive or surrounding punctuation, and the words that are never entities (stop-words,
 * pronouns, greetings, calendar words, generic nouns, bare numbers).
 */
import type { EntityType } from '../domain/graph.js';
import { STOP_WORDS } from '../domain/text.js';

function words(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/u).filter(Boolean));
}

/** Pronouns and quantifier pronouns: never entities. */
export const PRONOUNS =
  words(`i me my mine myself you your yours yourself yourselves he him his himself she her hers
herself it its itself we us our ours ourselves they them their theirs themselves this that these those who whom whose
someone anyone everyone somebody anybody everybody nobody something anything everything nothing one ones y'all ya`);

/** Greetings, interjections and chat fillers: capitalised by position or style, naming nothing. */
export const DISCOURSE_WORDS =
  words(`hey hi hello hiya howdy bye goodbye cheers thanks thank thx ty congrats
congratulations welcome sorry please yes yeah yep yup yea no nope nah ok okay k sure wow woah whoa oh ooh ah aw aww
awesome cool nice great good glad fine amazing wonderful lovely perfect excellent fantastic incredible brilliant super
sweet cute beautiful haha hahaha lol lmao omg btw fyi imo imho tbh idk brb ttyl gonna wanna gotta lemme dunno kinda
sorta yay phew hmm hm um uh well so also anyway anyways still just really actually totally definitely absolutely
exactly true right dear`);

/** Days, months, seasons and relative time words: dates, not entities. */
export const CALENDAR_WORDS =
  words(`monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur
thurs fri sat sun january february march april may june july august september october november december jan feb mar
apr jun jul aug sep sept oct nov dec spring summer autumn fall winter today tomorrow yesterday tonight morning
afternoon evening night weekend week month year day days weeks months years hour hours minute minutes second seconds
ms sec min hr hrs`);

/** Generic nouns and address terms: part of a longer name ("Vega Team"), never a name alone. */
export const GENERIC_WORDS =
  words(`mom mum dad mother father mommy daddy mama papa grandma grandpa granny sis bro dude
guys folks everyone buddy pal sir madam mr mrs ms dr prof team guy man woman girl boy kids kid baby
thing things stuff item items way time times lot lots bit part kind sort type example note notes info information
idea ideas question questions answer answers problem problems issue issues task tasks step steps
first second third last next new old other another same different
release releases version versions build builds patch update upgrade`);

// One lookup instead of four or five: these run for every capitalised word extraction reads.
const EDGE_WORDS: ReadonlySet<string> = new Set([
  ...STOP_WORDS,
  ...PRONOUNS,
  ...DISCOURSE_WORDS,
  ...CALENDAR_WORDS,
]);
const COMMON_WORDS: ReadonlySet<string> = new Set([...EDGE_WORDS, ...GENERIC_WORDS]);

/** Words that may start or end a capitalised run without being part of the name. */
export function isEdgeWord(word: string): boolean {
  return EDGE_WORDS.has(word.toLowerCase());
}

/** Common English words that are never entities on their own (stop-words plus the lists above). */
export function isCommonWord(word: string): boolean {
  return COMMON_WORDS.has(word.toLowerCase());
}

const EDGE_JUNK =
  /^[\s"'`“”‘’„«»‹›()[\]{}<>*_~|,;:!?.…-]+|[\s"'`“”‘’„«»‹›()[\]{}<>*_~|,;:!?.…]+$/gu;
const POSSESSIVE = /(?:['’]s|(?<=s)['’])$/u;

/** Surface form as shown: NFKC, trimmed of quotes and punctuation, whitespace collapsed. */
export function cleanSurface(surface: string, type: EntityType): string {
  let s = surface.normalize('NFKC').replace(/\s+/gu, ' ');
  if (type === 'name' || type === 'identifier') s = s.replace(EDGE_JUNK, '');
  else s = s.replace(/^[\s"'`“”‘’«»([{<]+|[\s"'`“”‘’«»)\]}>,;:!?.]+$/gu, '');
  if (type === 'name') s = s.replace(POSSESSIVE, '').replace(/^the\s+/iu, '');
  return s.trim();
}

/** The normalised key of an entity: the cleaned surface, case-folded. */
export function entityKey(surface: string, type: EntityType): string {
  const s = cleanSurface(surface, type).toLowerCase();
  if (type === 'url') return s.replace(/\/+$/u, '');
  if (type === 'identifier') return s.replace(/\(\)$/u, '');
  if (type === 'version') return s.replace(/(^|\s)v(?=\d)/u, '$1');
  return s;
}

/** True when a key cannot be an entity: too short, no letters, or only common words. */
export function isNoiseKey(key: string, type: EntityType): boolean {
  if (key.length < 2 || key.length > 200) return true;
  if (type !== 'name' && type !== 'identifier') return false;
  if (!/\p{L}/u.test(key)) return true;
  const parts = key.split(' ');
  return parts.every((p) => isCommonWord(p) || /^[\p{N}\p{P}\p{S}]+$/u.test(p));
}

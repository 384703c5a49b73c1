import { describe, expect, it } from 'vitest';

import {
  inflectionStems,
  STEM_MARK,
  termWords,
  toldLanguages,
  withoutStems,
  wordStems,
} from './inflection.js';
import { indexText } from './segment.js';
import { keywordTerms } from './text.js';

const stems = (text: string) => inflectionStems(text).map((s) => s.slice(0, -STEM_MARK.length));

describe('stems of inflected languages', () => {
  it('adds nothing to English, or to Latin text whose language is not told', () => {
    expect(inflectionStems('I went to the park with my kids yesterday.')).toEqual([]);
    expect(inflectionStems('Die hard fan!')).toEqual([]);
    // "in" and "am" are German and English function words alike: no telling word.
    expect(inflectionStems('Jonas am Hamburg in')).toEqual([]);
    expect(indexText('Caroline is going to the pottery class')).toBeNull();
  });

  it('tells Latin languages apart by the function words only one of them has', () => {
    expect(stems('Lucía tiene dos perros y un gato.')).toEqual(['luc', 'perr', 'gat']);
    expect(stems('Lena hat einen Hund und zwei Katzen.')).toContain('katz');
    expect(stems('Marie habite à Lyon avec ses chiens.')).toContain('chien');
  });

  it('stems Cyrillic as Russian unless Ukrainian is told, and leaves function words out', () => {
    expect(stems('Кто живёт в Казани?')).toEqual(['живет', 'казан']);
    expect(stems('Анна переехала в Казань')).toContain('казан');
    expect(wordStems(termWords('я живу в Києві'))[3]).toBe('києв');
    // "назад" is on the Bulgarian list only; "рыбалку" and "выходные" are written in Russian only.
    expect(stems('Наталья два года назад ездила на рыбалку и в выходные')).toContain('рыбалк');
  });

  it('tells the language per script, English where English lists more of the words', () => {
    expect(toldLanguages('¿Quién tiene un perro en casa?')).toEqual(['spanish']);
    expect(toldLanguages('Кто живёт в Казани?')).toEqual(['russian']);
    expect(toldLanguages('Who walks the dogs?')).toEqual(['english']);
    // "go" is on the Irish list only, but "do", "all" and "of" are English function words.
    expect(toldLanguages("Do all of Dave's car restoration projects go smoothly?")).toEqual([
      'english',
    ]);
    expect(toldLanguages('Hamburg')).toEqual([]);
    // "kim" is a Turkish function word: one telling word is enough for stems, not for two.
    expect(toldLanguages("Kim's new job")).toEqual(['turkish']);
    expect(toldLanguages("Kim's new job", 2)).toEqual([]);
    expect(toldLanguages('¿Quién tiene un perro en casa?', 2)).toEqual(['spanish']);
    expect(toldLanguages('Кто живёт в Казани?', 5)).toEqual(['russian']);
    expect(toldLanguages('Meeting with Анна about the Казань trip')).toEqual([
      'english',
      'russian',
    ]);
  });

  it('marks every stem, so it never meets a word spelled like it', () => {
    const marked = inflectionStems('Lucía tiene un perro.');
    expect(marked).toEqual([`luc${STEM_MARK}`, `perr${STEM_MARK}`]);
    expect(STEM_MARK.normalize('NFKC')).toBe(STEM_MARK);
    expect(/^\p{L}$/u.test(STEM_MARK)).toBe(true);
  });

  it('gives a query its words and their stems, as the index holds them', () => {
    expect(keywordTerms('¿Quién tiene perros?')).toEqual([
      'quién',
      'tiene',
      'perros',
      `perr${STEM_MARK}`,
    ]);
    const indexed = termWords(indexText('Lucía tiene un perro.')!);
    expect(indexed).toEqual(expect.arrayContaining(['perro', `perr${STEM_MARK}`]));
  });

  it('takes the stems back out of a snippet of indexed text', () => {
    expect(withoutStems(`Lucía tiene un **perro**. luc${STEM_MARK} **perr${STEM_MARK}**`)).toBe(
      'Lucía tiene un **perro**.',
    );
    expect(withoutStems(`… **perr${STEM_MARK}** gat${STEM_MARK}`)).toBeNull();
    expect(withoutStems('no stems here')).toBe('no stems here');
    expect(withoutStems(null)).toBeNull();
  });
});

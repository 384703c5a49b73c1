import { describe, expect, it } from 'vitest';

import { STEM_MARK } from './inflection.js';
import {
  characterBigrams,
  hasUnspacedScript,
  indexText,
  leadingParts,
  segmentText,
} from './segment.js';
import { keywordTerms } from './text.js';

/** The words a full-text engine sees in indexed text: runs of letters, marks and digits. */
function indexTokens(text: string): string[] {
  return (indexText(text) ?? text).toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/**
 * Per script: a memory, a query sharing a word with it, and that word. Segmentation at write time
 * (indexTokens) and at query time (keywordTerms) must both produce it.
 */
const AGREEMENT: { script: string; memory: string; query: string; word: string }[] = [
  {
    script: 'zh',
    memory: '王芳去年搬到了杭州，现在在那边租房子住。',
    query: '谁住在杭州？',
    word: '杭州',
  },
  {
    script: 'ja',
    memory: '佐藤さんは去年京都に引っ越して、駅の近くに住んでいる。',
    query: '京都に住んでいるのは誰？',
    word: '京都',
  },
  {
    script: 'ja (katakana)',
    memory: '鈴木さんは毎朝コーヒーを一杯飲む。',
    query: 'コーヒーが好きなのは誰',
    word: 'コーヒー',
  },
  {
    script: 'ko',
    memory: '민준 씨는 작년에 부산으로 이사했어요.',
    query: '부산에 사는 사람이 누구예요?',
    word: '부산',
  },
  {
    script: 'th',
    memory: 'คุณสมชายย้ายไปอยู่เชียงใหม่เมื่อปีที่แล้ว',
    query: 'ใครอยู่ที่เชียงใหม่บ้าง',
    word: 'เชียงใหม่',
  },
  { script: 'lo', memory: 'ຂ້ອຍມັກກິນເຂົ້າໜຽວ', query: 'ໃຜມັກກິນເຂົ້າໜຽວ', word: 'ມັກ' },
  {
    script: 'km',
    memory: 'ខ្ញុំចូលចិត្តញ៉ាំបាយ',
    query: 'អ្នកណាចូលចិត្តញ៉ាំបាយ',
    word: 'ចូលចិត្ត',
  },
  {
    script: 'my',
    memory: 'ကျွန်တော် ထမင်းစားတယ်',
    query: 'ဘယ်သူ ထမင်းစားလဲ',
    word: 'ထမင်းစား',
  },
  {
    script: 'de',
    memory: 'Lena ist letztes Jahr nach München gezogen.',
    query: 'Wer wohnt in München?',
    word: 'münchen',
  },
  {
    script: 'hi',
    memory: 'प्रिया दिल्ली में रहती है',
    query: 'दिल्ली में कौन रहता है',
    word: 'दिल्ली',
  },
];

describe('segmentation at write and query time', () => {
  it.each(AGREEMENT)('agrees on a shared word ($script)', ({ memory, query, word }) => {
    expect(indexTokens(memory)).toContain(word);
    expect(keywordTerms(query)).toContain(word);
  });

  it('gives a query the same words as the same text indexed', () => {
    for (const { memory } of AGREEMENT)
      expect(new Set(keywordTerms(memory))).toEqual(new Set(indexTokens(memory.normalize('NFKC'))));
  });

  it('splits a run of Han characters into dictionary words', () => {
    expect(segmentText('我喜欢吃北京烤鸭')).toBe('我 喜欢 吃 北京 烤鸭');
    expect(keywordTerms('我喜欢吃北京烤鸭')).toEqual(['我', '喜欢', '吃', '北京', '烤鸭']);
  });

  it('adds the pieces of long Han and Hangul words, so a part of one finds it', () => {
    expect(segmentText('哈尔滨')).toBe('哈尔滨 哈尔 尔滨');
    expect(characterBigrams('图书馆')).toEqual(['图书', '书馆']);
    // Korean particles and endings are suffixes: a word adds its leading parts.
    expect(segmentText('서울에서')).toBe('서울에서 서울 서울에');
    expect(leadingParts('김치찌개를')).toEqual(['김치', '김치찌', '김치찌개']);
    expect(indexTokens('민준 씨는 서울에서 살아요')).toContain('서울');
    expect(keywordTerms('서울에 사는 사람')).toContain('서울');
    // Kana words are not cut into bigrams: ICU's dictionary already splits them.
    expect(segmentText('コーヒー')).toBe('コーヒー');
  });

  it('normalises full-width forms in text it segments, as queries are', () => {
    expect(indexTokens('ＡＢＣ社の２０２４年')).toEqual(
      expect.arrayContaining(keywordTerms('ABC社の2024年')),
    );
  });

  it('leaves text without an unspaced script exactly as it is', () => {
    // English: nothing kept beside the text. The others keep their words and gain their stems.
    const english = [
      'Caroline said, "I went to the LGBTQ support group yesterday!"',
      'Cafe\u0301 au lait, naïve façade — ﬁne   spacing\tand tabs',
      '🙂 emoji and 12,345.67 numbers',
      '',
    ];
    const inflected = [
      'Ich wohne in München und esse gern Käsespätzle.',
      'Москва — столица России.',
      'Η Αθήνα είναι η πρωτεύουσα.',
      'مرحبا بالعالم',
      'प्रिया दिल्ली में रहती है',
    ];
    for (const text of [...english, ...inflected]) {
      expect(hasUnspacedScript(text)).toBe(false);
      expect(segmentText(text)).toBe(text);
    }
    for (const text of english) expect(indexText(text)).toBeNull();
    for (const text of inflected) {
      expect(indexText(text)!.startsWith(`${text} `)).toBe(true);
      expect(indexText(text)).toContain(STEM_MARK);
    }
    expect(indexText(null)).toBeNull();
  });

  it('sets apart only the words of unspaced scripts in mixed text', () => {
    expect(segmentText('Meeting with 田中さん about the API')).toBe(
      'Meeting with 田中 さん about the API',
    );
    expect(keywordTerms('田中さん API')).toEqual(['田中', 'さん', 'api']);
  });
});

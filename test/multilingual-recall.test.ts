/**
 * Recall in every script through the library, on SQLite always and on PostgreSQL when
 * ENGRAM_TEST_PG_URL names a server: memories in Chinese, Japanese, Korean, Thai, Lao, Khmer,
 * Burmese, Hindi and German are found by a query sharing a word with them (keyword channel alone
 * and the default recall); a query outside the embedder's vocabulary gets keyword hits and the
 * vector channel's explicit `query_not_embeddable`, never an error; function words that half the
 * memories hold weigh next to nothing against a name on both backends; a revision re-indexes the
 * segmented text; session turns are segmented too.
 */
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { type Backend, BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';

const KEYWORD_ONLY = { weights: { vector: 0, graph: 0, time: 0 }, rerank: false } as const;

/** Memories, and for each a query in its language sharing a word with it (and no other memory). */
const CASES: { lang: string; memory: string; query: string }[] = [
  { lang: 'zh', memory: '王芳去年搬到了杭州，现在在那边租房子住。', query: '谁住在杭州？' },
  { lang: 'zh', memory: '李伟最喜欢吃北京烤鸭，每次聚餐都会点。', query: '谁爱吃烤鸭' },
  {
    lang: 'ja',
    memory: '佐藤さんは去年札幌に引っ越して、駅の近くのマンションに住んでいる。',
    query: '札幌に住んでいるのは誰？',
  },
  {
    lang: 'ja',
    memory: '鈴木さんの大好物はラーメンで、週に一度は食べに行く。',
    query: 'ラーメンが好きな人',
  },
  {
    lang: 'ko',
    memory: '민준 씨는 작년에 부산으로 이사해서 지금은 역 근처에 살아요.',
    query: '부산에 사는 사람이 누구예요?',
  },
  {
    lang: 'th',
    memory: 'คุณสมชายชอบกินข้าวซอยที่สุด ไปร้านไหนก็สั่งทุกครั้ง',
    query: 'ใครชอบกินข้าวซอย',
  },
  { lang: 'lo', memory: 'ທ້າວສົມພອນມັກກິນເຂົ້າໜຽວກັບປີ້ງໄກ່', query: 'ໃຜມັກປີ້ງໄກ່' },
  { lang: 'km', memory: 'សុខាចូលចិត្តញ៉ាំអាម៉ុកត្រី', query: 'អ្នកណាចូលចិត្តអាម៉ុក' },
  { lang: 'my', memory: 'မောင်မောင် ရန်ကုန်မှာ နေတယ်', query: 'ဘယ်သူ ရန်ကုန်မှာ နေလဲ' },
  {
    lang: 'hi',
    memory: 'प्रिया दिल्ली में रहती है और रोज़ मेट्रो से दफ़्तर जाती है',
    query: 'दिल्ली में कौन रहता है',
  },
  {
    lang: 'de',
    memory: 'Lena ist letztes Jahr nach Hamburg gezogen.',
    query: 'Wer wohnt in Hamburg?',
  },
];

async function bodies(engram: Engram, query: string, extra: object = {}): Promise<string[]> {
  return (await engram.recall({ query, ...extra })).hits.map((h) => h.body);
}

function engramOn(backend: Backend): Engram {
  return testEngram({ config: { ...backend.fresh() } });
}

describe.each(BACKENDS)('recall in every script ($name)', (backend) => {
  it('finds each memory by a word it shares with the query', async () => {
    const engram = engramOn(backend);
    const stored = await engram.rememberMany(CASES.map((c) => ({ body: c.memory })));
    expect(stored.every((r) => r.ok)).toBe(true);
    for (const c of CASES) {
      expect((await bodies(engram, c.query, KEYWORD_ONLY))[0], c.lang).toBe(c.memory);
      expect(await bodies(engram, c.query), c.lang).toContain(c.memory);
    }
  });

  it('keeps the vector channel degradation explicit for text outside the word vectors', async () => {
    const engram = engramOn(backend);
    await engram.rememberMany(CASES.map((c) => ({ body: c.memory })));
    const answer = await engram.recall({ query: '谁住在杭州？' });
    expect(answer.hits[0]?.body).toBe(CASES[0]!.memory);
    expect(answer.degraded).toContainEqual({ channel: 'vector', reason: 'query_not_embeddable' });
  });

  it('leaves the English word vectors out of a question told to be in another language', async () => {
    const engram = engramOn(backend);
    await engram.rememberMany([
      { body: 'Lucía tiene dos perros y un gato.' },
      { body: 'Lucia walks her two dogs every morning.' },
    ]);
    // Many Spanish spellings are in the English vocabulary, but their vectors mean little there.
    const spanish = await engram.recall({ query: '¿Quién tiene un perro en casa?' });
    expect(spanish.hits[0]?.body).toBe('Lucía tiene dos perros y un gato.');
    expect(spanish.degraded).toContainEqual({ channel: 'vector', reason: 'query_not_embeddable' });
    const english = await engram.recall({ query: 'Who walks the dogs?' });
    expect(english.degraded).toEqual([]);
    expect(english.hits[0]?.channels.vector).toBeDefined();
    // One word of another language's list ("kim", Turkish) does not take the vectors away.
    const named = await engram.recall({ query: "Kim's dogs" });
    expect(named.degraded).toEqual([]);
  });

  it('lets a name outweigh function words that half the memories hold (Portuguese)', async () => {
    // "o", "da", "é" and "que" are each in half the 12 memories or more: FTS5's idf gives them next
    // to nothing on both backends. With 1 added inside PostgreSQL's logarithm they outweighed the
    // name.
    const engram = engramOn(backend);
    const trip = 'Vanessa está viajando pelo Chile e manda fotos todo dia.';
    const others = [
      'O prato preferido da Carolina é o churrasco que a avó faz.',
      'O hobby da Mariana é pescar, coisa que ela leva a sério.',
      'O irmão da Larissa é dono de um café que abriu no centro.',
      'O cachorro da Beatriz é um vira-lata que se chama Thor.',
      'O aniversário da Aline é em julho, e ela disse que quer livros.',
      'O chefe da Camila é o mesmo que contratou o Pedro.',
      'Bruno mora em Recife desde o ano passado.',
      'Comprar pão e leite amanhã cedo.',
      'Reunião com o banco na quinta às nove.',
      'Renovar o passaporte antes de março.',
      'Lucas joga vôlei às terças.',
    ];
    await engram.rememberMany([trip, ...others].map((body) => ({ body })));
    const query = 'Qual é o destino da viagem que a Vanessa fez?';
    expect((await bodies(engram, query, KEYWORD_ONLY))[0]).toBe(trip);
  });

  it('folds Latin diacritics alike at write and query time, in memories and session turns', async () => {
    const engram = engramOn(backend);
    const [paulo, jose, cafe] = [
      'Ana mora em São Paulo e trabalha numa livraria.',
      'José always orders the crème brûlée.',
      'Cafe Central opens at eight on Sundays.',
    ];
    // Each query's one word is written with a diacritic on one side only. Written together, the
    // memories are write neighbours that lend each other some evidence: only the first hit counts.
    await engram.rememberMany([paulo, jose, cafe].map((body) => ({ body })));
    expect((await bodies(engram, 'Sao', KEYWORD_ONLY))[0]).toBe(paulo);
    expect((await bodies(engram, 'brulee', KEYWORD_ONLY))[0]).toBe(jose);
    expect((await bodies(engram, 'Jose', KEYWORD_ONLY))[0]).toBe(jose);
    expect((await bodies(engram, 'Café', KEYWORD_ONLY))[0]).toBe(cafe);
    // Decomposed text ("e" and a combining acute) folds as the composed letter does.
    expect((await bodies(engram, 'Jose\u0301', KEYWORD_ONLY))[0]).toBe(jose);
    await engram.importSessions([
      {
        id: 'plans',
        turns: [
          { role: 'user', text: 'Nos vemos no café da esquina às três.' },
          { role: 'assistant', text: 'Or the cafe by the station, if it rains.' },
        ],
      },
    ]);
    for (const query of ['cafe', 'café']) {
      const turns = await engram.searchSessions({ query });
      expect(turns.hits.map((h) => h.turn_index).sort(), query).toEqual([0, 1]);
    }
  });

  it('re-indexes a revised memory: the new words are found, the old ones no longer', async () => {
    const engram = engramOn(backend);
    const [first] = await engram.rememberMany([{ body: '王芳去年搬到了杭州。' }]);
    if (!first?.ok) throw new Error('not stored');
    await engram.revise(first.memory.id, { body: '王芳今年搬到了成都。' });
    expect(await bodies(engram, '成都', KEYWORD_ONLY)).toEqual(['王芳今年搬到了成都。']);
    expect(await bodies(engram, '杭州', KEYWORD_ONLY)).toEqual([]);
  });

  it('segments session turns: a Japanese or Thai word finds its turn', async () => {
    const engram = engramOn(backend);
    await engram.importSessions([
      {
        id: 'trip',
        turns: [
          { role: 'user', text: '来月、金沢へ旅行に行きたいです。' },
          { role: 'assistant', text: 'ถ้าไปเชียงใหม่ ลองกินข้าวซอยดูนะ' },
        ],
      },
    ]);
    const ja = await engram.searchSessions({ query: '金沢' });
    expect(ja.hits.map((h) => h.turn_index)).toEqual([0]);
    expect(ja.hits[0]!.text).toBe('来月、金沢へ旅行に行きたいです。');
    const th = await engram.searchSessions({ query: 'ข้าวซอย' });
    expect(th.hits.map((h) => h.turn_index)).toEqual([1]);
  });
});

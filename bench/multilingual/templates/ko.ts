/** Korean templates of the multilingual recall set (text written for engram's benchmark). */
import { DAYS, fact, type LanguageTemplates, peopleOf } from './types.js';

const people = peopleOf(
  [
    ['민준', false],
    ['서연', true],
    ['지훈', false],
    ['하은', true],
    ['도윤', false],
    ['수빈', true],
    ['현우', false],
    ['지아', true],
    ['준호', false],
    ['예린', true],
    ['성민', false],
    ['유진', true],
    ['태윤', false],
    ['다은', true],
    ['재원', false],
    ['소희', true],
    ['승현', false],
    ['은지', true],
    ['동현', false],
    ['나연', true],
    ['시우', false],
    ['가은', true],
    ['건우', false],
    ['채원', true],
    ['우진', false],
    ['윤서', true],
    ['민재', false],
    ['지수', true],
    ['진호', false],
    ['서윤', true],
    ['상훈', false],
    ['혜진', true],
    ['영호', false],
    ['미나', true],
    ['정우', false],
    ['수아', true],
    ['태민', false],
    ['하린', true],
    ['경민', false],
    ['보람', true],
  ],
  (name) => `${name} 씨`,
);

/** The final consonant index of a word's last Hangul syllable (0: none). */
function coda(word: string): number {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  return code >= 0 && code < 11172 ? code % 28 : 0;
}

/** 은/는, 을/를, 이/가, (으)로, 이에요/예요, (이)라는 after a word. */
const eun = (w: string) => w + (coda(w) ? '은' : '는');
const eul = (w: string) => w + (coda(w) ? '을' : '를');
const ga = (w: string) => w + (coda(w) ? '이' : '가');
const ro = (w: string) => w + (coda(w) && coda(w) !== 8 ? '으로' : '로');
const ieyo = (w: string) => w + (coda(w) ? '이에요' : '예요');
const ira = (w: string) => w + (coda(w) ? '이라는' : '라는');

const cities = [
  '부산',
  '대구',
  '인천',
  '광주',
  '대전',
  '울산',
  '수원',
  '전주',
  '춘천',
  '제주',
  '강릉',
  '포항',
  '청주',
  '여수',
  '경주',
];

const foods = [
  '김치찌개',
  '비빔밥',
  '불고기',
  '떡볶이',
  '삼겹살',
  '냉면',
  '된장찌개',
  '순두부찌개',
  '잡채',
  '갈비탕',
  '칼국수',
  '김밥',
  '해물파전',
  '닭갈비',
  '감자탕',
];

const jobs = [
  { place: '병원', job: '간호사' },
  { place: '초등학교', job: '선생님' },
  { place: '은행', job: '은행원' },
  { place: 'IT 회사', job: '개발자' },
  { place: '출판사', job: '편집자' },
  { place: '법률 사무소', job: '변호사' },
  { place: '식당', job: '요리사' },
  { place: '약국', job: '약사' },
  { place: '건축 사무소', job: '건축가' },
  { place: '신문사', job: '기자' },
  { place: '어린이집', job: '보육교사' },
  { place: '미용실', job: '미용사' },
  { place: '구청', job: '공무원' },
  { place: '회계 법인', job: '회계사' },
];

const pets = [
  { animal: '고양이', name: '나비' },
  { animal: '강아지', name: '초코' },
  { animal: '토끼', name: '솜이' },
  { animal: '앵무새', name: '짹짹이' },
  { animal: '햄스터', name: '콩이' },
  { animal: '금붕어', name: '방울이' },
  { animal: '진돗개', name: '백구' },
  { animal: '거북이', name: '느림보' },
  { animal: '고슴도치', name: '밤톨이' },
];

const hobbies = [
  { noun: '테니스', weekend: '주말마다 테니스를 치러 가요' },
  { noun: '등산', weekend: '주말마다 등산을 가요' },
  { noun: '낚시', weekend: '주말마다 낚시하러 바다에 가요' },
  { noun: '기타', weekend: '주말마다 기타 연습을 해요' },
  { noun: '수채화', weekend: '주말마다 수채화를 그려요' },
  { noun: '바둑', weekend: '주말마다 기원에 가서 바둑을 둬요' },
  { noun: '수영', weekend: '주말마다 수영장에 가요' },
  { noun: '마라톤', weekend: '주말마다 마라톤 연습으로 한강을 달려요' },
  { noun: '사진', weekend: '주말마다 카메라를 들고 사진을 찍으러 다녀요' },
  { noun: '베이킹', weekend: '주말마다 빵이랑 쿠키를 구워요' },
  { noun: '요가', weekend: '주말마다 요가 수업을 들어요' },
  { noun: '자전거', weekend: '주말마다 자전거를 타고 멀리까지 나가요' },
  { noun: '텃밭', weekend: '주말마다 텃밭에 가서 채소를 가꿔요' },
  { noun: '서예', weekend: '주말마다 서예 학원에 다녀요' },
  { noun: '클라이밍', weekend: '주말마다 클라이밍장에 가요' },
];

const allergies = ['땅콩', '새우', '복숭아', '우유', '달걀', '밀가루', '고양이 털', '꽃가루'];

const trips = [
  '일본',
  '태국',
  '베트남',
  '이탈리아',
  '프랑스',
  '스페인',
  '호주',
  '하와이',
  '대만',
  '몽골',
  '뉴질랜드',
  '캐나다',
];

const relatives = [
  { who: '딸', news: '올봄에 초등학교에 입학해서 매일 신나게 학교에 가요' },
  { who: '아들', news: '대학교에서 기계공학을 공부하고 기숙사에 살아요' },
  { who: '여동생', news: '다음 달에 결혼해서 요즘 준비하느라 바빠요' },
  { who: '형', news: '고향에서 작은 카페를 열었는데 주말마다 줄을 서요' },
  { who: '어머니', news: '지난달에 무릎 수술을 받으시고 재활 치료를 다니세요' },
  { who: '아버지', news: '얼마 전에 정년퇴직하시고 아침마다 공원을 산책하세요' },
];

const drinks = ['녹차', '아메리카노', '보리차', '홍차', '두유', '탄산수', '유자차', '핫초코'];

/** The Korean templates. */
export const ko: LanguageTemplates = {
  lang: 'ko',
  label: 'Korean',
  people,
  facts: [
    fact({
      kind: 'city',
      values: cities,
      memories: [
        (p, c) => `${eun(p.name)} 작년에 ${ro(c)} 이사해서 지금은 역 근처 아파트에 살아요.`,
        (p, c) => `${eun(p.name)} ${c}에 살고 매일 자전거로 출근해요.`,
        (p, c) => `${eun(p.name)} 계속 ${c}에서 지내고 고향에는 명절에만 내려가요.`,
      ],
      ask: (p) => `${eun(p.name)} 지금 어디에 살아요?`,
      askWho: (c) => `${c}에 사는 사람이 누구예요?`,
    }),
    fact({
      kind: 'food',
      values: foods,
      memories: [
        (p, f) => `${ga(p.name)} 제일 좋아하는 음식은 ${ieyo(f)}. 회식 때마다 꼭 시켜요.`,
        (p, f) => `${eun(p.name)} ${eul(f)} 정말 좋아해서 일주일에 한 번은 꼭 먹어요.`,
      ],
      ask: (p) => `${ga(p.name)} 좋아하는 음식이 뭐예요?`,
      askWho: (f) => `${f} 좋아하는 사람이 누구였지?`,
    }),
    fact({
      kind: 'job',
      values: jobs,
      memories: [
        (p, j) => `${eun(p.name)} ${j.place}에서 ${ro(j.job)} 일한 지 벌써 오 년이 됐어요.`,
        (p, j) => `${p.name} 직업은 ${j.job}인데 ${j.place} 일이 요즘 많아서 야근이 잦대요.`,
      ],
      ask: (p) => `${eun(p.name)} 무슨 일을 해요?`,
      askWho: (j) => `${j.place}에서 일하는 사람이 누구예요?`,
      key: (j) => j.place,
    }),
    fact({
      kind: 'pet',
      values: pets,
      memories: [
        (p, v) => `${eun(p.name)} ${ira(v.name)} 이름의 ${eul(v.animal)} 키워요.`,
        (p, v) => `${p.name}네 ${v.animal} ${ga(v.name)} 요즘 살이 좀 쪘대요.`,
      ],
      ask: (p) => `${p.name} 반려동물 이름이 뭐예요?`,
      askWho: (v) => `${v.animal} 키우는 사람이 누구예요?`,
      key: (v) => v.animal,
    }),
    fact({
      kind: 'hobby',
      values: hobbies,
      memories: [
        (p, h) => `${eun(p.name)} ${h.weekend}. 벌써 이 년째래요.`,
        (p, h) => `${eun(p.name)} 요즘 ${h.noun}에 푹 빠져서 학원까지 다니기 시작했어요.`,
      ],
      ask: (p) => `${p.name} 취미가 뭐예요?`,
      askWho: (h) => `${h.noun} 좋아하는 사람이 누구더라?`,
      key: (h) => h.noun,
    }),
    fact({
      kind: 'birthday',
      values: DAYS,
      memories: [
        (p, d) => `${p.name} 생일은 ${d.month}월 ${d.day}일이에요. 선물로는 책을 좋아해요.`,
        (p, d) => `${d.month}월 ${d.day}일이 ${p.name} 생일이니까 케이크를 미리 주문해야 해요.`,
      ],
      ask: (p) => `${p.name} 생일이 언제예요?`,
    }),
    fact({
      kind: 'allergy',
      values: allergies,
      memories: [
        (p, a) => `${eun(p.name)} ${a} 알레르기가 있어서 식당 고를 때 조심해야 해요.`,
        (p, a) => `의사 말로는 ${p.name}한테 ${a} 알레르기가 심하게 있대요.`,
      ],
      ask: (p) => `${eun(p.name)} 무슨 알레르기가 있어요?`,
      askWho: (a) => `${a} 알레르기 있는 사람이 누구예요?`,
    }),
    fact({
      kind: 'trip',
      values: trips,
      memories: [
        (p, t) => `${eun(p.name)} 여름휴가 때 ${ro(t)} 여행 갈 예정이라 비행기표를 벌써 샀어요.`,
        (p, t) => `${ga(p.name)} ${t} 여행에서 막 돌아와서 사진을 잔뜩 보여 줬어요.`,
      ],
      ask: (p) => `${eun(p.name)} 어디로 여행 가요?`,
      askWho: (t) => `${t} 여행 가는 사람이 누구예요?`,
    }),
    fact({
      kind: 'family',
      values: relatives,
      memories: [
        (p, r) => `${p.name} ${eun(r.who)} ${r.news}.`,
        (p, r) => `${p.name} 말로는 ${ga(r.who)} ${r.news}.`,
      ],
      ask: (p, r) => `${p.name} ${eun(r.who)} 요즘 어떻게 지내요?`,
    }),
    fact({
      kind: 'drink',
      values: drinks,
      memories: [
        (p, d) => `${eun(p.name)} 아침마다 ${eul(d)} 꼭 한 잔 마셔요. 안 마시면 정신이 없대요.`,
        (p, d) => `${eun(p.name)} 회의 때마다 ${eul(d)} 들고 와요.`,
      ],
      ask: (p) => `${eun(p.name)} 평소에 뭘 마셔요?`,
      askWho: (d) => `${d} 자주 마시는 사람이 누구예요?`,
    }),
  ],
  events: [
    (a, b) => `금요일 저녁에 ${a.name}, ${b.name}와 고깃집에 가서 늦게까지 이야기했어요.`,
    (a, b) => `${a.name}와 ${b.name}는 지난달에 같이 콘서트에 갔대요.`,
    (a, b) => `${a.name}가 ${b.name}를 소개해 줬는데, ${b.name}도 집을 구하는 중이래요.`,
    (a, b) => `다음 주 수요일에 ${a.name}, ${b.name}와 카페에서 기획안을 논의하기로 했어요.`,
    (a, b) => `${a.name} 결혼식에서 ${b.name}를 몇 년 만에 만났어요.`,
    (a, b) => `${a.name}가 ${b.name}한테 소설책을 빌려줬는데 다 읽으면 돌려받기로 했대요.`,
    (a, b) => `${a.name}와 통화하다가 ${b.name}가 최근에 이직했다는 얘기를 들었어요.`,
    (a, b) => `${a.name}와 ${b.name}가 주말 캠핑을 준비해서 여덟 명이 다녀왔어요.`,
    (a, b) => `설날에 ${a.name}가 ${b.name}와 저를 집으로 초대해서 떡국을 먹었어요.`,
    (a, b) => `${a.name}가 ${b.name} 이사를 도와주고 이틀 동안 허리가 아팠대요.`,
    (a, b) => `${a.name}와 ${b.name}는 회사 테니스 대회에 복식으로 나가요.`,
    (a, b) => `지하철에서 우연히 ${a.name}를 만났는데 ${b.name}와 점심을 먹고 오는 길이래요.`,
  ],
  notes: [
    '내일 오후 세 시에 거래처와 미팅이 있으니 계약서를 꼭 챙기기.',
    '이번 달 월세는 십오 일까지 집주인에게 보내야 한다.',
    '토요일 오전에 아이 예방 접종이 있어서 앱으로 먼저 예약하기.',
    '차 정기 점검 시기라 다음 주 화요일로 정비소를 예약했다.',
    '카드 명세서에 모르는 결제가 있어서 카드사에 전화해야 한다.',
    '세탁기에서 물이 새서 목요일에 수리 기사님이 오신다.',
    '여권이 내년 삼월에 만료되니까 미리 갱신 신청하기.',
    '회사 송년회는 십이월 이십 일, 호텔 삼 층 연회장에서 한다.',
    '역 앞에 새 빵집이 생겼는데 통밀빵이 정말 맛있었다.',
    '베란다 방울토마토가 빨갛게 익었다. 물은 이틀에 한 번이면 충분하다.',
    '다음 주까지 분기 보고서를 내야 하는데 영업팀 숫자가 아직 안 왔다.',
    '휴대폰 액정이 깨졌다. 수리비가 십오만 원 정도 든다고 한다.',
    '연말까지 서재 책장을 정리하고 싶다.',
    '헬스장 이용권이 열 번 남아서 올해 안에 다 써야 한다.',
    '냉장고 우유 유통기한이 모레라서 아침에 먼저 마시기.',
    '이번 달 전기 요금이 지난달보다 훨씬 많이 나왔다. 에어컨을 너무 많이 튼 것 같다.',
    '주말에 새로 개봉한 공상과학 영화를 보고 싶으니 표를 미리 사 두기.',
    '동창회가 다음 달 첫째 토요일로 바뀌었다.',
    '인터넷으로 주문한 소파는 배송까지 사 주나 걸린다.',
    '사무실 프린터에 또 종이가 걸려서 총무팀에 연락했다.',
    '할아버지께 전화해서 혈압은 괜찮으신지 여쭤보기.',
    '아파트 무인 택배함 비밀번호는 지난주에 온 문자에 있다.',
    '요리를 배우고 싶어서 계란말이부터 연습하기로 했다.',
    '연차가 오 일 남아서 가을 연휴에 붙여 쓸 생각이다.',
    '보조 열쇠를 하나 만들어서 옆집에 맡겨 두었다.',
    '내년에는 운전면허를 따고 싶어서 근처 운전 학원 가격을 알아보기.',
    '지하철 막차 시간이 다음 달부터 삼십 분 늦춰진다고 한다.',
    '매일 자기 전에 책을 이십 쪽씩 읽는 습관을 계속하기.',
    '건강 검진에서 짜게 먹지 말고 운동을 더 하라는 말을 들었다.',
    '이사할 때 인터넷 이전 신청도 잊지 말기.',
  ],
};

// Entity extraction (§4): a table of sentences with the entities they must and must not yield.
import { describe, expect, it } from 'vitest';

import type { EntityType } from '../src/domain/graph.js';
import { extract, extractMany } from '../src/graph/extract.js';

const BOUNDS = { maxChars: 20_000, maxEntities: 24 };

function found(text: string, bounds = BOUNDS): Map<string, EntityType> {
  return new Map(extract(text, bounds).entities.map((e) => [e.key, e.type]));
}

/** [sentence, expected entities (key -> type), keys that must not be entities]. */
const TABLE: [string, Record<string, EntityType>, string[]][] = [
  [
    'Alice Johnson from Acme Corp met Bob in Paris on Monday to discuss Project Phoenix.',
    {
      'alice johnson': 'name',
      'acme corp': 'name',
      bob: 'name',
      paris: 'name',
      'project phoenix': 'name',
    },
    ['monday', 'from', 'the', 'discuss'],
  ],
  [
    'We use PostgreSQL, Redis and Kubernetes; the getUserById function in user_service.py is slow.',
    {
      postgresql: 'name',
      redis: 'name',
      kubernetes: 'name',
      getuserbyid: 'identifier',
      'user_service.py': 'path',
    },
    ['we', 'function', 'slow'],
  ],
  [
    'Deploy api.example.com:8443 with node v20.11.1, fix JIRA-1234 in src/store/sqlite.ts; see https://github.com/foo/bar.',
    {
      'api.example.com:8443': 'endpoint',
      'api.example.com': 'host',
      'port 8443': 'port',
      'node 20.11.1': 'version',
      'jira-1234': 'issue',
      'src/store/sqlite.ts': 'path',
      'https://github.com/foo/bar': 'url',
      'github.com': 'host',
    },
    ['8443', 'deploy', 'see'],
  ],
  [
    'The cache runs on redis:6379, the database on port 5432 at 10.0.0.12; logs go to /var/log/engram/app.log.',
    {
      'redis:6379': 'endpoint',
      redis: 'host',
      'port 6379': 'port',
      'port 5432': 'port',
      '10.0.0.12': 'host',
      '/var/log/engram/app.log': 'path',
    },
    ['5432', 'cache', 'database'],
  ],
  [
    'Upgrade to Python 3.12 before release v2.4.0-rc.1; ENG-42 and acme/web#17 track it, mail ops@example.org.',
    {
      'python 3.12': 'version',
      '2.4.0-rc.1': 'version',
      'eng-42': 'issue',
      'acme/web#17': 'issue',
      'ops@example.org': 'email',
    },
    ['upgrade', 'release'],
  ],
  [
    'Call `loadConfig` and MAX_RETRIES from config.yaml, then ping @alice_b in #infra about issue #88.',
    {
      loadconfig: 'identifier',
      max_retries: 'identifier',
      'config.yaml': 'path',
      '@alice_b': 'handle',
      '#infra': 'tag',
      '#88': 'issue',
    },
    ['call', 'then'],
  ],
  [
    'I told her that they and we would meet you there; it was 42 and maybe 3.5 of those things.',
    {},
    ['i', 'her', 'they', 'we', 'you', 'it', '42', '3.5', 'things', 'those'],
  ],
  [
    'Glad to hear it! Thanks so much. Yesterday was great, see you on Friday in December.',
    {},
    ['glad', 'thanks', 'yesterday', 'great', 'friday', 'december'],
  ],
  ['spent 3 hours->last week on it', {}, ['hours', 'last', 'week', '3']],
  [
    'UTF-8 and COVID-19 are not tracker issues, but Node.js is a runtime.',
    { 'utf-8': 'name', 'covid-19': 'name', 'node.js': 'name' },
    ['issues', 'runtime'],
  ],
];

describe('entity extraction table', () => {
  for (const [text, expected, absent] of TABLE) {
    it(text, () => {
      const entities = found(text);
      for (const [key, type] of Object.entries(expected)) expect(entities.get(key), key).toBe(type);
      for (const key of absent) expect(entities.has(key), key).toBe(false);
    });
  }

  it('normalises case, possessives, quotes and surrounding punctuation to one key', () => {
    const a = extract(`Melanie's kids love it. "MELANIE" said hi to (Melanie).`, BOUNDS);
    expect(a.entities.filter((e) => e.key === 'melanie')).toHaveLength(1);
    expect(a.entities.find((e) => e.key === 'melanie')?.count).toBe(3);
    const b = found(`He said 'O'Brien's "Project X" is great' — “Zoë Smith” agreed.`);
    expect(b.get("o'brien")).toBe('name');
    expect(b.get('project x')).toBe('name');
    expect(b.get('zoë smith')).toBe('name');
  });

  it('keys a multi-word name ending in a plural in the singular, and leaves other names alone', () => {
    const e = found(
      'We met the LGBTQ Activists, then the Support Group, then visited Paris and Kubernetes.',
    );
    expect(e.get('lgbtq activist')).toBe('name');
    expect(e.get('support group')).toBe('name');
    expect(e.get('paris')).toBe('name');
    expect(e.get('kubernetes')).toBe('name');
    expect(e.has('lgbtq activists')).toBe(false);
  });

  it('keeps a capitalised sentence start only when it names something', () => {
    const e = found('Painting is relaxing. Caroline said it helps. Docker runs our builds.');
    expect(e.has('painting')).toBe(false);
    expect(e.get('caroline')).toBe('name');
    expect(e.get('docker')).toBe('name');
  });

  it('marks a name seen only as a capitalised sentence start as weak (maybe a common word)', () => {
    const weak = (text: string) =>
      Object.fromEntries(extract(text, BOUNDS).entities.map((e) => [e.key, e.weak]));
    expect(weak("Family's super important. Docker runs our builds.")).toEqual({
      family: true,
      docker: true,
    });
    expect(weak('Caroline said hi. Thanks, Caroline!')).toEqual({ caroline: false });
    expect(weak('Melanie said hi.')).toEqual({ melanie: false });
  });

  it('reads aliases and arrows between entities, and drops arrows between ordinary words', () => {
    const e = extract(
      'The Large Language Model (LLM) team; Kubernetes aka K8s; auth-service -> postgres; UserService => PostgreSQL; 3 hours->last week',
      BOUNDS,
    );
    expect(e.statements).toEqual(
      expect.arrayContaining([
        { a: 'large language model', b: 'llm', type: 'alias' },
        { a: 'kubernetes', b: 'k8s', type: 'alias' },
        { a: 'auth-service', b: 'postgres', type: 'arrow' },
        { a: 'userservice', b: 'postgresql', type: 'arrow' },
      ]),
    );
    expect(e.statements.some((s) => s.a === 'hours' || s.b === 'last')).toBe(false);
    expect(e.statements).toHaveLength(4);
  });

  it('finds nothing in text without entities, and never fails on empty or odd text', () => {
    for (const text of ['', '   ', 'ok', '😀😀😀', '--->', '"""', '\u0000\u0001', 'a -> b -> c'])
      expect(() => extract(text, BOUNDS)).not.toThrow();
    expect(extract('the cat sat on the mat and it was fine', BOUNDS).entities).toEqual([]);
  });

  it('handles non-English text without failing and keeps names it can tell', () => {
    for (const text of [
      '東京で会議がありました。',
      'Привет, Мир! Как дела?',
      '¿Dónde está la estación?',
    ]) {
      const e = extract(text, BOUNDS);
      for (const x of e.entities) expect(x.key).toMatch(/^\S(.*\S)?$/u);
    }
    const e = found('Yesterday François Dupont visited Zürich with Ana and Şahin.');
    expect(e.get('françois dupont')).toBe('name');
    expect(e.get('zürich')).toBe('name');
    expect(e.has('yesterday')).toBe(false);
  });

  it('finds names after long sentences without any', () => {
    const filler = 'and it was all about the weather and nothing much else happened there. '.repeat(
      20,
    );
    const e = found(`It rained. ${filler}Then Quentin Blake arrived with Zora Neale.`);
    expect(e.get('quentin blake')).toBe('name');
    expect(e.get('zora neale')).toBe('name');
  });

  it('reads at most maxChars of a huge text and says it truncated', () => {
    const head = 'Project Phoenix ships on Kubernetes. ';
    const tail = ' Zanzibar Station appears only at the end.';
    const text = head + 'plain words and more plain words. '.repeat(30_000) + tail;
    const e = extract(text, { maxChars: 5_000, maxEntities: 24 });
    expect(e.truncated).toBe(true);
    const keys = e.entities.map((x) => x.key);
    expect(keys).toContain('project phoenix');
    expect(keys).not.toContain('zanzibar station');
  });

  it('keeps at most maxEntities, the most frequent first', () => {
    const e = extract(
      'Zeta Corp, Alpha Labs, Alpha Labs, Beta Inc, Beta Inc, Beta Inc, Gamma Works.',
      {
        maxChars: 1_000,
        maxEntities: 2,
      },
    );
    expect(e.entities.map((x) => x.key)).toEqual(['beta inc', 'alpha lab']);
  });

  it('is deterministic', () => {
    const text =
      'Alice Johnson -> Project Phoenix (PP) runs on Kubernetes v1.29.3 at k8s.example.com:6443';
    expect(extract(text, BOUNDS)).toEqual(extract(text, BOUNDS));
  });

  it('extracts a batch exactly as text by text, repeated lines and nameless texts included', () => {
    const texts = [
      'Caroline said, "Thanks, Mel! See you soon."',
      'Melanie said, "Thanks, Mel! See you soon."',
      'Caroline said, "Thanks, Mel! See you soon."',
      'ok. Caroline said, "Thanks, Mel!"',
      'Caroline said, "Thanks, Mel!"\nthat was fun.',
      'nothing here is capitalised at all.',
      'I think so. Yes.',
      '',
      'Alice Johnson -> Project Phoenix (PP) runs on Kubernetes v1.29.3',
    ];
    const batch = extractMany(texts, BOUNDS);
    expect(batch).toEqual(texts.map((t) => extract(t, BOUNDS)));
    expect(batch[0]!.entities.map((e) => e.key)).toEqual(['caroline', 'mel']);
    expect(batch[5]!.entities).toEqual([]);
    expect(batch[6]!.entities).toEqual([]);
  });
});

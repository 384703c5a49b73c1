/**
 * Synthetic, deterministic data for the lifecycle benchmark: memories built from templates over a
 * vocabulary of people, services and topics, and conversation messages about them (questions,
 * statements, small talk), so the analysis, search and relevance stages do realistic work.
 */
import { mulberry32 } from '../lib/random.js';

const PEOPLE = [
  'Alice',
  'Bob',
  'Carol',
  'Dmitri',
  'Erin',
  'Farah',
  'Gustavo',
  'Hana',
  'Ivan',
  'Jun',
  'Kemal',
  'Lucia',
  'Mateo',
  'Nadia',
  'Oskar',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tomoko',
  'Ugo',
  'Valeria',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zora',
  'Amara',
  'Bruno',
  'Chiara',
  'Diego',
];
const DOMAINS = [
  'billing',
  'payments',
  'search',
  'auth',
  'orders',
  'notification',
  'reporting',
  'inventory',
  'media',
  'profile',
  'ledger',
  'pricing',
  'catalog',
  'shipping',
  'fraud',
  'reviews',
  'loyalty',
  'checkout',
  'analytics',
  'onboarding',
];
const SUFFIXES = ['api', 'worker', 'service', 'etl', 'gateway'];
const SERVICES = DOMAINS.flatMap((d) => SUFFIXES.map((s) => `${d}-${s}`));
const TOPICS = [
  'deployment pipeline',
  'database migration',
  'consumer lag',
  'cache invalidation',
  'rate limits',
  'feature flags',
  'incident review',
  'on-call rotation',
  'load testing',
  'schema change',
  'backup restore',
  'log retention',
  'access tokens',
  'release notes',
  'cost report',
  'memory leak',
  'connection pool',
  'retry policy',
  'dead letter queue',
  'index rebuild',
  'certificate renewal',
  'dns failover',
  'canary rollout',
  'error budget',
  'quota increase',
  'data export',
  'audit trail',
  'encryption keys',
  'latency spike',
  'disk pressure',
  'webhook signing',
  'batch window',
  'timezone bug',
  'currency rounding',
  'locale fallback',
  'thumbnail cache',
  'search relevance',
  'spam filter',
  'password reset',
  'session timeout',
];
const DETAILS = [
  'after the March outage',
  'since the vendor switch',
  'per the security review',
  'until the new cluster is ready',
  'as agreed with finance',
  'because of the GDPR request',
  'ever since the Kubernetes upgrade',
  'for the enterprise tier only',
  'during the holiday freeze',
  'pending legal sign-off',
  'to keep the SLO at 99.9%',
  'which the auditors asked for',
  'on the EU region first',
  'behind a kill switch',
  'with a weekly report to the CTO',
];
const FACTS = [
  (p: string, s: string, t: string, d: string) => `${p} owns the ${t} for ${s} ${d}.`,
  (p: string, s: string, t: string, d: string) =>
    `The ${s} ${t} runs every night at 02:00 UTC ${d}; ${p} gets paged when it fails.`,
  (p: string, s: string, t: string) => `${p} prefers to discuss ${t} of ${s} in the Tuesday sync.`,
  (_p: string, s: string, t: string, d: string) =>
    `Known issue: ${t} in ${s} doubles latency under peak traffic ${d}.`,
  (p: string, s: string, t: string, d: string) =>
    `Decision: ${s} moves its ${t} to the shared platform ${d}; ${p} drives it.`,
  (_p: string, s: string, t: string) =>
    `Runbook for ${t} on ${s}: drain traffic, apply, verify dashboards, then resume.`,
  (p: string, s: string, t: string, d: string) =>
    `${p} wrote the postmortem on the ${t} in ${s} ${d}.`,
  (_p: string, s: string, t: string, d: string) =>
    `${s} keeps its ${t} configuration in the platform repo ${d}.`,
  (p: string, _s: string, t: string) => `${p} is the best person to ask about ${t}.`,
  (p: string, s: string, t: string, d: string) =>
    `Budget for ${t} on ${s} was approved by ${p} ${d}.`,
];
const KINDS = ['fact', 'note', 'episode', 'procedure', 'preference', 'working', 'rule'] as const;
const SMALL_TALK = ['thanks!', 'ok cool', 'good morning', 'haha nice', 'see you tomorrow'];
const QUESTIONS = [
  (p: string, s: string, t: string) => `Who owns the ${t} for ${s}? ${p} mentioned it once.`,
  (_p: string, s: string, t: string) => `How do we handle ${t} on ${s}?`,
  (p: string, s: string) => `Remember what ${p} decided about ${s}?`,
  (_p: string, s: string, t: string) => `When does the ${s} ${t} run?`,
];
const STATEMENTS = [
  (_p: string, s: string, t: string) => `I am looking into the ${t} of ${s} this afternoon.`,
  (p: string, s: string) => `${p} asked me to check ${s} before the release.`,
];

/** Seeded generator shared by every synthetic corpus. */
export const rng = mulberry32;

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** One synthetic memory. */
export interface SyntheticMemory {
  body: string;
  kind: (typeof KINDS)[number];
  tags: string[];
  area: string;
  importance: number;
  status: 'active' | 'candidate';
  pinned: boolean;
  created_at: string;
}

/** `n` memories created over the `days` before `now`. */
export function memories(n: number, now: number, days: number, seed = 1): SyntheticMemory[] {
  const random = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const [p, s, t] = [pick(random, PEOPLE), pick(random, SERVICES), pick(random, TOPICS)];
    return {
      body: `${pick(random, FACTS)(p, s, t, pick(random, DETAILS))} (#${i})`,
      kind: pick(random, KINDS),
      tags: [s.split('-')[0]!, t.split(' ')[0]!],
      area: `projects/${s}`,
      importance: Math.round(random() * 10) / 10,
      status: random() < 0.05 ? 'candidate' : 'active',
      pinned: random() < 0.02,
      created_at: new Date(now - Math.floor(random() * days * 86_400_000)).toISOString(),
    };
  });
}

/** `n` conversation messages: about 60% questions, 25% statements, 15% small talk. */
export function messages(n: number, seed = 2): string[] {
  const random = rng(seed);
  return Array.from({ length: n }, () => {
    const r = random();
    const [p, s, t] = [pick(random, PEOPLE), pick(random, SERVICES), pick(random, TOPICS)];
    if (r < 0.15) return pick(random, SMALL_TALK);
    if (r < 0.4) return pick(random, STATEMENTS)(p, s, t);
    return pick(random, QUESTIONS)(p, s, t);
  });
}

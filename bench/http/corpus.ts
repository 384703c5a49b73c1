/**
 * A reproducible corpus of realistic agent-memory sentences (people, services, rules, routines,
 * procedures) and queries over the same vocabulary, from a seeded generator.
 */
import { mulberry32 } from '../lib/random.js';

/** Seeded generator shared by every synthetic corpus. */
export const rng = mulberry32;

const PEOPLE = [
  'Alex',
  'Priya',
  'Sam',
  'Jordan',
  'Mei',
  'Tomas',
  'Fatima',
  'Lena',
  'Omar',
  'Grace',
  'Ravi',
  'Noah',
  'Chloe',
  'Kenji',
  'Ines',
  'Daniel',
];
const SERVICES = [
  'billing',
  'search',
  'checkout',
  'auth',
  'notifications',
  'payments',
  'inventory',
  'reporting',
  'shipping',
  'analytics',
  'gateway',
  'catalog',
];
const DATABASES = [
  'PostgreSQL',
  'MySQL',
  'Redis',
  'Elasticsearch',
  'MongoDB',
  'ClickHouse',
  'SQLite',
  'Cassandra',
];
const TEAMS = [
  'payments',
  'platform',
  'mobile',
  'growth',
  'data',
  'infra',
  'security',
  'design',
  'support',
  'web',
];
const ROLES = [
  'tech lead',
  'product manager',
  'engineering manager',
  'designer',
  'on-call owner',
  'architect',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'September',
  'October',
  'November',
];
const LANGS = ['TypeScript', 'Python', 'Go', 'Rust', 'Kotlin', 'Java', 'Elixir', 'Ruby'];
const TOPICS = [
  'incident reports',
  'roadmap priorities',
  'hiring plans',
  'API changes',
  'cost reports',
  'customer feedback',
  'release notes',
  'security findings',
];
const CITIES = ['Lisbon', 'Berlin', 'Toronto', 'Osaka', 'Nairobi', 'Austin', 'Madrid', 'Dublin'];
const TOOLS = [
  'Grafana',
  'Terraform',
  'Kubernetes',
  'Sentry',
  'Datadog',
  'GitHub Actions',
  'Vault',
  'Jenkins',
];

type Pick = <T>(xs: readonly T[]) => T;

const TEMPLATES: ((p: Pick, n: (max: number) => number) => string)[] = [
  (p) => `${p(PEOPLE)} prefers ${p(LANGS)} over ${p(LANGS)} for ${p(SERVICES)} work.`,
  (p, n) =>
    `The ${p(SERVICES)} service runs on ${p(DATABASES)} ${10 + n(8)} and listens on port ${3000 + n(6000)}.`,
  (p) => `${p(PEOPLE)} is the ${p(ROLES)} of the ${p(TEAMS)} team.`,
  (p) => `Never deploy the ${p(SERVICES)} service on ${p(DAYS)}s without a rollback plan.`,
  (p, n) =>
    `The ${p(TEAMS)} team meets every ${p(DAYS)} at ${9 + n(8)}:${n(2) ? '30' : '00'} to review ${p(TOPICS)}.`,
  (p) => `${p(PEOPLE)} said the ${p(SERVICES)} migration is planned for ${p(MONTHS)}.`,
  (p) =>
    `To rotate the ${p(SERVICES)} credentials, update ${p(TOOLS)}, redeploy, then revoke the old secret.`,
  (p, n) =>
    `The ${p(SERVICES)} dashboard in ${p(TOOLS)} alerts when error rates exceed ${1 + n(9)} percent.`,
  (p) =>
    `${p(PEOPLE)} works from the ${p(CITIES)} office and prefers written updates over meetings.`,
  (p, n) => `Backups of the ${p(SERVICES)} database are kept for ${7 * (1 + n(8))} days.`,
  (p) => `The ${p(TEAMS)} offsite is planned for ${p(MONTHS)} in ${p(CITIES)}.`,
  (p) => `${p(PEOPLE)} owns the ${p(TOOLS)} setup for the ${p(TEAMS)} team.`,
  (p) =>
    `Use feature flags for every risky change to ${p(SERVICES)}; ${p(PEOPLE)} approves the rollout.`,
  (p, n) =>
    `The ${p(SERVICES)} API rate limit is ${100 * (1 + n(20))} requests per minute per customer.`,
  (p) => `${p(PEOPLE)} asked to be paged only for ${p(SERVICES)} incidents of severity one.`,
];

/** `count` memory sentences (duplicates are possible, as in real use). */
export function sentences(count: number, seed = 42): string[] {
  const r = rng(seed);
  const pick: Pick = (xs) => xs[Math.floor(r() * xs.length)]!;
  const n = (max: number) => Math.floor(r() * max);
  return Array.from({ length: count }, () => pick(TEMPLATES)(pick, n));
}

const QUERY_TEMPLATES: ((p: Pick) => string)[] = [
  (p) => `which database does the ${p(SERVICES)} service use`,
  (p) => `who is the ${p(ROLES)} of ${p(TEAMS)}`,
  (p) => `when does the ${p(TEAMS)} team meet`,
  (p) => `what language does ${p(PEOPLE)} like`,
  (p) => `how do I rotate ${p(SERVICES)} credentials`,
  (p) => `when can we deploy ${p(SERVICES)}`,
  (p) => `where is the ${p(TEAMS)} offsite`,
  (p) => `rate limit of the ${p(SERVICES)} api`,
  (p) => `how long are ${p(SERVICES)} backups kept`,
  (p) => `who owns ${p(TOOLS)}`,
];

/** `count` recall queries over the corpus vocabulary. */
export function queries(count: number, seed = 7): string[] {
  const r = rng(seed);
  const pick: Pick = (xs) => xs[Math.floor(r() * xs.length)]!;
  return Array.from({ length: count }, () => pick(QUERY_TEMPLATES)(pick));
}

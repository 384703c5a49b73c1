/**
 * Pattern rules for technical tokens an English NLP model does not see as one word: URLs, e-mail
 * addresses, host:port endpoints, ports, file paths, versions, issue keys, code identifiers,
 * hashtags and handles. Rules run in order over the raw text; each match masks its span so a
 * later, looser rule never re-reads it.
 */
import type { EntityType } from '../domain/graph.js';
import { isCommonWord } from './normalize.js';

/** One technical token found in the text (character offsets into the text). */
export interface PatternMatch {
  start: number;
  end: number;
  surface: string;
  type: EntityType;
}

interface Rule {
  type: EntityType;
  re: RegExp;
  /** A cheap test the text must pass before the expression runs (most chat text has no tokens). */
  needs?: RegExp;
  /** Turns a raw match into the tokens it yields (none to reject it). */
  accept?: (m: RegExpExecArray, text: string) => PatternMatch[] | null;
}

const FILE_EXT =
  'ts|tsx|js|mjs|cjs|jsx|py|pyi|go|rs|java|kt|kts|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|lua|r|md|mdx|rst|json|jsonl|ya?ml|toml|ini|cfg|conf|sql|sh|bash|zsh|ps1|txt|csv|tsv|html?|css|scss|less|xml|lock|env|log|db|sqlite|ipynb|tf|proto|graphql|gql|vue|svelte|dockerfile|gradle|pdf|png|jpe?g|gif|svg|zip|tar|gz|tgz|wasm';
const TLD =
  'com|org|net|io|dev|ai|app|co|edu|gov|info|biz|us|uk|de|fr|nl|jp|cn|in|ru|eu|ca|au|internal|local|localhost|cloud|tech|xyz|site|online';
/** Prefixes of KEY-123 shapes that are standards or names, not tracker issues. */
const NOT_ISSUE = new Set(
  'UTF SHA MD ISO COVID GPT RFC AES RSA IPV IP TLS SSL HTTP MP PS EC SARS ECMA ES TCP UDP ID API IEEE PEP'.split(
    ' ',
  ),
);

const TRAILING = /[.,;:!?'"”’)\]}>]+$/u;

function single(m: RegExpExecArray, type: EntityType, surface = m[0]): PatternMatch[] {
  return [{ start: m.index, end: m.index + surface.length, surface, type }];
}

function trimUrl(raw: string): string {
  let url = raw.replace(TRAILING, '');
  if (raw.slice(url.length).startsWith(')') && url.includes('(')) url += ')';
  return url;
}

function hostOfUrl(url: string): string | null {
  const m = /^[a-z]+:\/\/(?:[^@/\s]+@)?([^/:?#\s]+)/iu.exec(url);
  return m ? m[1]! : null;
}

function acceptUrl(m: RegExpExecArray): PatternMatch[] {
  const url = trimUrl(m[0]);
  const out = single(m, 'url', url);
  const host = hostOfUrl(url);
  if (host && /\p{L}/u.test(host) && host.includes('.'))
    out.push({ start: m.index, end: m.index + url.length, surface: host, type: 'host' });
  return out;
}

function acceptEndpoint(m: RegExpExecArray): PatternMatch[] | null {
  const host = m[1]!;
  const port = Number(m[2]);
  if (port > 65_535) return null;
  const named = /\p{L}/u.test(host);
  if (!named && !/^(?:\d{1,3}\.){3}\d{1,3}$/u.test(host)) return null;
  if (named && !host.includes('.') && host !== 'localhost' && isCommonWord(host)) return null;
  const out = single(m, 'endpoint');
  const at = { start: m.index, end: m.index + m[0].length };
  out.push({ ...at, surface: host, type: 'host' });
  out.push({ ...at, surface: `port ${port}`, type: 'port' });
  return out;
}

function acceptPath(m: RegExpExecArray): PatternMatch[] | null {
  const path = m[0].replace(TRAILING, '');
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0) return null;
  if (segments.every((s) => /^[\d.:-]+$/u.test(s))) return null;
  const rooted = /^(?:~|\.{1,2})?\//u.test(path);
  const slashes = (path.match(/\//gu) ?? []).length;
  const hasExt = new RegExp(`\\.(?:${FILE_EXT})$`, 'iu').test(path);
  if (!rooted && slashes < 2 && !hasExt) return null;
  if (rooted && segments.length < 2 && !hasExt) return null;
  return single(m, 'path', path);
}

function acceptFile(m: RegExpExecArray): PatternMatch[] | null {
  // "Node.js", "Vue.js": a capitalised stem with a .js suffix is a product name, not a file.
  if (/^[A-Z][\w]*\.js$/u.test(m[0])) return single(m, 'name');
  return single(m, 'path');
}

function acceptVersion(m: RegExpExecArray, text: string): PatternMatch[] | null {
  const version = m[0];
  if (/^\d{4}\./u.test(version) && Number(version.slice(0, 4)) >= 1900) return null;
  const before = /([\p{L}][\p{L}\p{N}+#-]*)[ \t]+$/u.exec(
    text.slice(Math.max(0, m.index - 40), m.index),
  );
  const strong = /^v/iu.test(version) || version.split('.').length >= 3;
  const word = before?.[1];
  if (word && !isCommonWord(word) && (strong || /^\p{Lu}/u.test(word))) {
    const start = m.index - before[0].length;
    return [
      { start, end: m.index + version.length, surface: `${before[1]} ${version}`, type: 'version' },
    ];
  }
  return strong ? single(m, 'version') : null;
}

function acceptIssue(m: RegExpExecArray): PatternMatch[] {
  const prefix = m[0].split('-')[0]!;
  return single(m, NOT_ISSUE.has(prefix) ? 'name' : 'issue');
}

function acceptBackticks(m: RegExpExecArray): PatternMatch[] | null {
  const inner = m[1]!.trim();
  if (inner === '' || /\s/u.test(inner) || !/\p{L}/u.test(inner)) return null;
  return [{ start: m.index, end: m.index + m[0].length, surface: inner, type: 'identifier' }];
}

function acceptDotted(m: RegExpExecArray): PatternMatch[] | null {
  const parts = m[0].replace(/\(\)$/u, '').split('.');
  if (parts.length > 1 && parts.some((p) => p.length < 2)) return null;
  return single(m, 'identifier');
}

/** The rules, in the order they run. */
const RULES: readonly Rule[] = [
  {
    type: 'url',
    needs: /:\/\/|www\./iu,
    re: /\b(?:https?|ftp|wss?):\/\/[^\s<>"'`]+|\bwww\.[^\s<>"'`]+/giu,
    accept: (m) => acceptUrl(m),
  },
  {
    type: 'email',
    needs: /@/u,
    re: /\b[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\b/gu,
  },
  { type: 'tag', needs: /#/u, re: /(?<![\p{L}\p{N}_&/#])#[\p{L}_][\p{L}\p{N}_-]{1,49}/gu },
  { type: 'handle', needs: /@/u, re: /(?<![\p{L}\p{N}_.@])@[A-Za-z0-9_][A-Za-z0-9_-]{1,38}/gu },
  {
    type: 'endpoint',
    needs: /:\d\d/u,
    re: /\b(localhost|(?:\d{1,3}\.){3}\d{1,3}|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*):(\d{2,5})\b(?![:.]\d)/giu,
    accept: (m) => acceptEndpoint(m),
  },
  {
    type: 'port',
    needs: /port\s+\d/iu,
    re: /\bport\s+\d{2,5}\b/giu,
    accept: (m) => single(m, 'port', m[0].replace(/\s+/gu, ' ')),
  },
  { type: 'host', needs: /\d\.\d/u, re: /\b(?:\d{1,3}\.){3}\d{1,3}\b/gu },
  { type: 'issue', needs: /\/.*#\d/u, re: /\b[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+#\d+\b/gu },
  {
    type: 'issue',
    needs: /#\d/u,
    re: /\b(?:issue|bug|ticket|PR|pull request|MR|merge request)\s*#\d+\b/giu,
    accept: (m) => {
      const n = /#\d+$/u.exec(m[0])![0];
      const end = m.index + m[0].length;
      return [{ start: end - n.length, end, surface: n, type: 'issue' }];
    },
  },
  {
    type: 'issue',
    needs: /[A-Z]-\d/u,
    re: /\b[A-Z][A-Z0-9]{1,9}-\d+\b/gu,
    accept: (m) => acceptIssue(m),
  },
  { type: 'identifier', needs: /`/u, re: /`([^`\n]{1,80})`/gu, accept: (m) => acceptBackticks(m) },
  {
    type: 'path',
    needs: /\//u,
    re: /(?<![\p{L}\p{N}_:/.@])(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w.@+-]*/gu,
    accept: (m) => acceptPath(m),
  },
  { type: 'path', needs: /:\\/u, re: /\b[A-Za-z]:\\(?:[^\\\s]+\\)*[^\\\s]*/gu },
  {
    type: 'path',
    needs: /\w\.\w/u,
    re: new RegExp(`(?<![\\w@.-])[\\w-]+(?:\\.[\\w-]+)*\\.(?:${FILE_EXT})\\b(?!\\.\\w)`, 'giu'),
    accept: (m) => acceptFile(m),
  },
  {
    type: 'host',
    needs: /\w\.\w/u,
    re: new RegExp(`\\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+(?:${TLD})\\b(?!\\.\\w)`, 'giu'),
  },
  {
    type: 'version',
    needs: /\d\.\d|v\d/iu,
    re: /\bv\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.]+)?\b|\b\d+\.\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.]+)?\b/giu,
    accept: (m, text) => acceptVersion(m, text),
  },
  {
    type: 'identifier',
    needs: /\(\)/u,
    re: /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\(\)/gu,
    accept: (m) => acceptDotted(m),
  },
  { type: 'identifier', needs: /[a-z][A-Z]/u, re: /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/gu },
  { type: 'identifier', needs: /\w_\w/u, re: /\b_?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/gu },
  {
    type: 'identifier',
    needs: /[a-z_]\.[a-z_]/u,
    re: /\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){1,4}\b(?!\.\w)/gu,
    accept: (m) => acceptDotted(m),
  },
];

/** Runs every rule over the text; returns the matches and the text with them blanked out. */
export function matchPatterns(text: string): { matches: PatternMatch[]; masked: string } {
  const taken = new Uint8Array(text.length);
  const matches: PatternMatch[] = [];
  for (const rule of RULES) {
    if (rule.needs && !rule.needs.test(text)) continue;
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m !== null; m = rule.re.exec(text)) {
      if (overlaps(taken, m.index, m.index + m[0].length)) continue;
      const found = rule.accept ? rule.accept(m, text) : single(m, rule.type);
      if (!found || found.length === 0) continue;
      for (const f of found) taken.fill(1, f.start, f.end);
      matches.push(...found);
    }
  }
  return { matches, masked: matches.length > 0 ? mask(text, taken) : text };
}

function overlaps(taken: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (taken[i]) return true;
  return false;
}

function mask(text: string, taken: Uint8Array): string {
  const chars = text.split('');
  for (let i = 0; i < chars.length; i++) if (taken[i]) chars[i] = ' ';
  return chars.join('');
}

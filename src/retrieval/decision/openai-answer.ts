/**
 * Reads a judgment out of a chat completion: P(yes) from the first token's log-probabilities when
 * the server sent them, else the answer's text (yes/no, or a score a model gave instead).
 */
import { DecisionError } from './adapter.js';

/** One alternative at a generated position: its text and natural-log probability. */
interface TokenLogprob {
  token: string;
  logprob: number;
}

/**
 * The relevance in 0..1 a chat completion gives: from logprobs when they name yes or no at the
 * first token, else from the content. Throws DecisionError `adapter_error` when neither can be read.
 */
export function relevanceOf(body: unknown): number {
  const choice = firstChoice(body);
  const tokens = firstTokenLogprobs(choice.logprobs);
  const fromLogprobs = tokens === undefined ? undefined : yesProbability(tokens);
  if (fromLogprobs !== undefined) return fromLogprobs;
  const content = contentOf(choice);
  const fromContent = parseAnswer(content);
  if (fromContent === undefined) {
    throw new DecisionError(
      'adapter_error',
      `openai-compatible judge: the model answered ${JSON.stringify(content.slice(0, 80))}, not yes, no or a 0..1 or 0..10 score`,
    );
  }
  return fromContent;
}

/** yes / (yes + no) over the alternatives that normalise to those words; undefined without both. */
export function yesProbability(tokens: readonly TokenLogprob[]): number | undefined {
  let yes = 0;
  let no = 0;
  for (const { token, logprob } of tokens) {
    const word = normalizeToken(token);
    if (word === 'yes') yes += Math.exp(logprob);
    else if (word === 'no') no += Math.exp(logprob);
  }
  // Both zero also when the logprobs underflow (vLLM's -9999 placeholder): read the content.
  return yes + no > 0 ? yes / (yes + no) : undefined;
}

/**
 * A token as a word: BPE/SentencePiece space markers, white space and punctuation removed,
 * lowercased (`" Yes"`, `"YES."`, `"Ġyes"` and `"▁yes"` are all `yes`).
 */
export function normalizeToken(token: string): string {
  return token
    .replace(/^[\u0120\u2581]+/u, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The relevance an answer's text states: `yes` 1, `no` 0 (first word, any case or punctuation);
 * else a number: `n%` on 0..100, `n/10` or a bare number up to 10 on 0..10, except a decimal up
 * to 1 (`0.7`, `1.0`) or `n/1`, read on 0..1. A bare integer (`1`, `7`) is on 0..10. Undefined
 * when the text is none of these.
 */
export function parseAnswer(content: string): number | undefined {
  const text = content
    .trim()
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .replace(/[^\p{L}\p{N}%]+$/u, '');
  const word = /^\p{L}+/u.exec(text)?.[0];
  if (word === 'yes') return 1;
  if (word === 'no') return 0;
  const score = /^(\d+(?:\.\d+)?)\s*(%|\/\s*10|\/\s*1)?$/.exec(text);
  if (score === null) return undefined;
  const value = Number(score[1]);
  const scale = score[2]?.replace(/\s+/g, '');
  const onUnit = scale === '/1' || (scale === undefined && score[1]!.includes('.') && value <= 1);
  const max = scale === '%' ? 100 : onUnit ? 1 : 10;
  return value <= max ? value / max : undefined;
}

interface Choice {
  logprobs?: unknown;
  message?: unknown;
}

function firstChoice(body: unknown): Choice {
  const choices = isObject(body) ? body.choices : undefined;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  if (!isObject(first)) {
    throw new DecisionError(
      'adapter_error',
      'openai-compatible judge: malformed response: no choices[0] in the chat completion',
    );
  }
  return first;
}

function contentOf(choice: Choice): string {
  const content = isObject(choice.message) ? choice.message.content : undefined;
  if (typeof content !== 'string') {
    throw new DecisionError(
      'adapter_error',
      `openai-compatible judge: malformed response: choices[0].message.content is ${content === null ? 'null' : typeof content}, not a string`,
    );
  }
  return content;
}

/**
 * The alternatives at the first generated token: OpenAI's chat shape (`content[0].top_logprobs`,
 * plus the chosen token) or the legacy completions shape some servers send on chat
 * (`top_logprobs[0]` as a token → logprob map). Undefined when absent.
 */
function firstTokenLogprobs(logprobs: unknown): TokenLogprob[] | undefined {
  if (!isObject(logprobs)) return undefined;
  const content = logprobs.content;
  if (Array.isArray(content) && isObject(content[0])) {
    const first = content[0];
    const tops = Array.isArray(first.top_logprobs) ? first.top_logprobs.filter(isTokenLogprob) : [];
    if (isTokenLogprob(first) && !tops.some((t) => t.token === first.token)) tops.push(first);
    return tops;
  }
  const legacy = logprobs.top_logprobs;
  if (Array.isArray(legacy) && isObject(legacy[0])) {
    return Object.entries(legacy[0])
      .filter((entry): entry is [string, number] => Number.isFinite(entry[1]))
      .map(([token, logprob]) => ({ token, logprob }));
  }
  return undefined;
}

function isTokenLogprob(value: unknown): value is TokenLogprob {
  return (
    isObject(value) && typeof value.token === 'string' && Number.isFinite(value.logprob as number)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

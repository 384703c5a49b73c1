/**
 * The chat request of the `openai-compatible` decision adapter: one yes/no question per candidate,
 * with the question, the candidate and its surrounding turns in tagged blocks so that the model
 * (and a test stand-in) can tell them apart whatever the texts contain.
 */
import type { RelevanceDocument } from '../rerank/relevance.js';

/** The system prompt: what to judge and the one-word answer expected. */
export const JUDGE_SYSTEM_PROMPT =
  'You judge whether a stored memory directly helps answer a question. ' +
  'The memory is in <memory>; turns from the conversation around it, if any, are in <context> ' +
  'and only help you read the memory. Answer with exactly one word: yes or no.';

/** Tokens the model may generate: "yes"/"no" take one; a number answer such as "0.75" needs a few. */
export const JUDGE_MAX_TOKENS = 4;
/** Alternatives asked for at the first generated token (enough to see both "yes" and "no"). */
export const JUDGE_TOP_LOGPROBS = 5;

/** The body of `POST /chat/completions` judging one candidate. */
export function judgeRequest(
  model: string,
  query: string,
  document: RelevanceDocument,
  logprobs: boolean,
): Record<string, unknown> {
  return {
    model,
    messages: [
      { role: 'system', content: JUDGE_SYSTEM_PROMPT },
      { role: 'user', content: judgeUserMessage(query, document) },
    ],
    temperature: 0,
    max_tokens: JUDGE_MAX_TOKENS,
    stream: false,
    ...(logprobs ? { logprobs: true, top_logprobs: JUDGE_TOP_LOGPROBS } : {}),
  };
}

/** The user message: question, candidate, then its context turns, labelled as context. */
export function judgeUserMessage(query: string, document: RelevanceDocument): string {
  const parts = [block('question', query), block('memory', document.text)];
  const context = (document.context ?? []).filter((turn) => turn.trim() !== '');
  if (context.length > 0) {
    const turns = context.map((turn) => `- ${turn.trim()}`).join('\n');
    parts.push(
      block(
        'context',
        `Conversation turns around the memory, for context only (they are not the memory):\n${turns}`,
      ),
    );
  }
  parts.push('Does the memory directly help answer the question? Answer yes or no.');
  return parts.join('\n\n');
}

/** The tags of the blocks, removed from the texts so that no text can close or open a block. */
const BLOCK_TAGS = /<\/?\s*(?:question|memory|context)\s*>/gi;

/** `<tag>\ntext\n</tag>`. */
function block(tag: string, text: string): string {
  return `<${tag}>\n${text.trim().replace(BLOCK_TAGS, '')}\n</${tag}>`;
}

/** The system prompt of a conflict judgment (§10): does a later memory make an earlier one untrue? */
export const CONFLICT_SYSTEM_PROMPT =
  'You judge whether two stored memories contradict each other: whether the later memory, in ' +
  '<later>, states something that makes the earlier memory, in <earlier>, no longer true. ' +
  'Answer with exactly one word: yes or no.';

/** The body of `POST /chat/completions` judging whether `later` contradicts `earlier`. */
export function conflictRequest(
  model: string,
  earlier: string,
  later: string,
  logprobs: boolean,
): Record<string, unknown> {
  const user = [
    `<earlier>\n${earlier.trim().replace(CONFLICT_TAGS, '')}\n</earlier>`,
    `<later>\n${later.trim().replace(CONFLICT_TAGS, '')}\n</later>`,
    'Does the later memory contradict the earlier one? Answer yes or no.',
  ].join('\n\n');
  return {
    model,
    messages: [
      { role: 'system', content: CONFLICT_SYSTEM_PROMPT },
      { role: 'user', content: user },
    ],
    temperature: 0,
    max_tokens: JUDGE_MAX_TOKENS,
    stream: false,
    ...(logprobs ? { logprobs: true, top_logprobs: JUDGE_TOP_LOGPROBS } : {}),
  };
}

const CONFLICT_TAGS = /<\/?\s*(?:earlier|later)\s*>/gi;

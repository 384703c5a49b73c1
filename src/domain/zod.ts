/** Turns zod validation issues into EngramErrors that name the field and the rule. */
import type { z } from 'zod';

import { EngramError, type ErrorCode } from './errors.js';

/** Dotted path of a zod issue, e.g. `recall.weights.keyword` or `items[3].body`. */
export function issuePath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

/** One readable sentence for a zod issue. */
export function describeIssue(
  issue: z.core.$ZodIssue,
  prefix = '',
): { field: string; rule: string } {
  const field = issuePath(issue.path, prefix);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => issuePath([...issue.path, k], prefix));
    return {
      field: keys[0] ?? field,
      rule: `unknown key${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`,
    };
  }
  return { field, rule: issue.message };
}

/** Converts a zod error into one EngramError with all issues listed; the first names the field. */
export function fromZodError(
  error: z.ZodError,
  code: ErrorCode = 'INVALID_INPUT',
  prefix = '',
): EngramError {
  const described = error.issues.map((i) => describeIssue(i, prefix));
  const first = described[0] ?? { field: prefix || '(root)', rule: 'invalid' };
  const message = described.map((d) => `${d.field}: ${d.rule}`).join('; ');
  return new EngramError(code, message, {
    field: first.field,
    rule: first.rule,
    issues: described,
  });
}

/** Parses with a zod schema, throwing an EngramError naming the field on failure. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix = '',
  code: ErrorCode = 'INVALID_INPUT',
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, code, prefix);
  return result.data;
}

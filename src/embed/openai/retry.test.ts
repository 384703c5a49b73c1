// Tests of the retry rules of OpenAI-compatible clients: Retry-After parsing, back-off with jitter,
// and reading a server's error text. Pure functions: no server, no clock.
import { describe, expect, it } from 'vitest';

import {
  MAX_BACKOFF_MS,
  MAX_ERROR_TEXT,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
  retryDelayMs,
  serverErrorText,
} from './retry.js';

describe('retry rules', () => {
  it('reads Retry-After in seconds or as a date, and retry-after-ms first', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:07 GMT' }), now)).toBe(
      7_000,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': '3', 'retry-after-ms': '150' }), now)).toBe(
      150,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('backs off exponentially with ±20% jitter, capped', () => {
    expect(retryDelayMs(0, 500, undefined, () => 0)).toBe(400);
    expect(retryDelayMs(0, 500, undefined, () => 1)).toBe(600);
    expect(retryDelayMs(2, 500, undefined, () => 0.5)).toBe(2_000);
    expect(retryDelayMs(20, 500, undefined, () => 1)).toBe(MAX_BACKOFF_MS);
  });

  it('prefers the server’s wish, capped', () => {
    expect(retryDelayMs(3, 500, 0)).toBe(0);
    expect(retryDelayMs(0, 500, 1_234)).toBe(1_234);
    expect(retryDelayMs(0, 500, 3_600_000)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('pulls the message out of the error shapes servers use', () => {
    expect(serverErrorText('{"error":{"message":"Bad model","type":"x"}}')).toBe('Bad model');
    expect(serverErrorText('{"error":"model not found"}')).toBe('model not found');
    expect(serverErrorText('{"object":"error","message":"vllm says no"}')).toBe('vllm says no');
    expect(serverErrorText('{"detail":"Not Found"}')).toBe('Not Found');
    expect(serverErrorText('  plain\n text  ')).toBe('plain text');
    expect(serverErrorText('')).toBe('(empty body)');
    expect(serverErrorText('x'.repeat(1_000))).toHaveLength(MAX_ERROR_TEXT);
    expect(serverErrorText('{"error":{"message":"bad key sk-123"}}', 'sk-123')).toBe(
      'bad key [redacted]',
    );
  });
});

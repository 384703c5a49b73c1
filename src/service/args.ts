/**
 * Shape checks of the public methods' arguments. A library caller can pass anything; a wrong
 * shape (a number where an object is expected, an object where an array is) is an INVALID_INPUT
 * naming the argument, never a TypeError from deep inside. Field contents are the schemas' work.
 */
import { invalidInput } from '../domain/errors.js';

/** What a value is, in an error message: `array`, `null`, or its typeof. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function wrongShape(field: string, expected: string, value: unknown) {
  return invalidInput(field, expected, `${field}: expected ${expected}, received ${kindOf(value)}`);
}

/** True for a non-null, non-array object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A required object argument. */
export function objectArg<T>(value: T, field: string): T {
  if (!isRecord(value)) throw wrongShape(field, 'an object', value);
  return value;
}

/** An optional object argument (options): absent is `{}`. */
export function optionsArg<T extends object>(value: T | undefined, field = 'options'): T {
  if (value === undefined) return {} as T;
  return objectArg(value, field);
}

/** A required array argument. */
export function arrayArg<T>(value: readonly T[], field: string): readonly T[] {
  if (!Array.isArray(value)) throw wrongShape(field, 'an array', value);
  return value;
}

/** An optional array argument: absent is `[]`. */
export function optionalArrayArg<T>(value: readonly T[] | undefined, field: string): readonly T[] {
  return value === undefined ? [] : arrayArg(value, field);
}

/** A required non-empty string argument (an id). */
export function stringArg(value: string, field: string): string {
  if (typeof value !== 'string') throw wrongShape(field, 'a string', value);
  if (value === '') throw invalidInput(field, 'must not be empty');
  return value;
}

/** An argument that is either a string or an object (a shorthand and its full input). */
export function stringOrObjectArg<T>(value: string | T, field: string): string | T {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) throw wrongShape(field, 'a string or an object', value);
  return value;
}

/** An optional callback argument (progress reports). */
export function callbackArg<F>(value: F | undefined, field = 'onProgress'): F | undefined {
  if (value !== undefined && typeof value !== 'function')
    throw wrongShape(field, 'a function', value);
  return value;
}

/** A required integer argument (a version number). */
export function integerArg(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw wrongShape(field, 'an integer', value);
  return value;
}

/** One of a fixed set of string values. */
export function choiceArg<T extends string>(value: T, choices: readonly T[], field: string): T {
  if (typeof value !== 'string') throw wrongShape(field, 'a string', value);
  if (!choices.includes(value)) throw invalidInput(field, `one of ${choices.join(', ')}`);
  return value;
}

/** An optional string argument. */
export function optionalStringArg(value: string | undefined, field: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw wrongShape(field, 'a string', value);
  if (value !== undefined && !value.isWellFormed())
    throw invalidInput(field, 'must be valid UTF-8 text', `${field}: must be valid UTF-8 text`);
  if (value?.includes('\u0000'))
    throw invalidInput(
      field,
      'must not contain NUL characters',
      `${field}: must not contain NUL characters`,
    );
  return value;
}

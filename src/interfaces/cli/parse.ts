/** Parsers of option and argument values; a bad value fails as a usage error naming the rule. */
import { InvalidArgumentError } from 'commander';

/** Parses an integer flag. */
export function int(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('must be an integer');
  return n;
}

/** Parses a number flag. */
export function num(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError('must be a number');
  return n;
}

/** Collects a repeatable flag whose values may also be comma-separated. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

/** Parses a repeatable, comma-separated flag whose values must be among `allowed`. */
export function oneOf<T extends string>(allowed: readonly T[]) {
  return (value: string, previous: T[] = []): T[] => {
    const values = collect(value, previous);
    const bad = values.find((v) => !allowed.includes(v as T));
    if (bad !== undefined)
      throw new InvalidArgumentError(`${bad}: must be one of ${allowed.join(', ')}`);
    return values as T[];
  };
}

/** Collects a repeatable flag whose values are taken whole (`--history "a, b"` is one value). */
export function repeat(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Collects a repeatable `NAME=NUMBER` flag (e.g. `--weight vector=0.5`) into an object. */
export function weight(
  value: string,
  previous: Record<string, number> = {},
): Record<string, number> {
  const match = /^([a-z_]+)=(.+)$/.exec(value.trim());
  const n = Number(match?.[2]);
  if (!match || !Number.isFinite(n))
    throw new InvalidArgumentError('must be CHANNEL=NUMBER, e.g. vector=0.5');
  return { ...previous, [match[1]!]: n };
}

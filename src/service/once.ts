/** A value built on first use, once: capabilities a short-lived process may never need load late. */

/** Returns a getter that builds the value on its first call and returns the same promise after. */
export function once<T>(build: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= build());
}

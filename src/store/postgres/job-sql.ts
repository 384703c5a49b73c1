/** SQL pieces the PostgreSQL job and item-failure stores share. */

/** The server's clock in epoch milliseconds, fixed for the transaction. */
export const NOW = 'floor(extract(epoch FROM now()) * 1000)::int8';

/** Whether PostgreSQL can hold the text (no NUL characters): other text names no row. */
export const storable = (text: string) => !text.includes('\u0000');

/** An error text PostgreSQL can hold (a NUL becomes U+FFFD). */
export const errorText = (text: string) => text.replaceAll('\u0000', '\uFFFD');

/** Milliseconds as the integer a bigint column takes. */
export const ms = (value: number) => Math.round(value);

/** A WHERE clause of the conditions, or nothing. */
export const whereOf = (conditions: readonly string[]) =>
  conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';

/**
 * Strict UTF-8 for what the CLI reads (stdin, import files): invalid bytes are an error naming
 * their byte offset, never silently replaced by U+FFFD (as the HTTP edge rejects them too).
 */

/** The second byte's range after a lead byte that narrows it (overlongs, surrogates, > U+10FFFF). */
const SECOND: Readonly<Record<number, readonly [number, number]>> = {
  0xe0: [0xa0, 0xbf],
  0xed: [0x80, 0x9f],
  0xf0: [0x90, 0xbf],
  0xf4: [0x80, 0x8f],
};

/** How many continuation bytes follow a lead byte; -1 for a byte no sequence starts with. */
function trailing(lead: number): number {
  if (lead < 0x80) return 0;
  if (lead >= 0xc2 && lead <= 0xdf) return 1;
  if (lead >= 0xe0 && lead <= 0xef) return 2;
  if (lead >= 0xf0 && lead <= 0xf4) return 3;
  return -1;
}

/** True when the sequence starting at `i` is complete and well-formed. */
function validAt(bytes: Uint8Array, i: number, n: number): boolean {
  const [lo, hi] = SECOND[bytes[i]!] ?? [0x80, 0xbf];
  for (let k = 1; k <= n; k++) {
    const b = bytes[i + k];
    if (b === undefined) return false;
    if (k === 1 ? b < lo || b > hi : b < 0x80 || b > 0xbf) return false;
  }
  return true;
}

/** Offset of the first byte that starts an invalid or truncated sequence; -1 when all is valid. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const n = trailing(bytes[i]!);
    if (n < 0 || (n > 0 && !validAt(bytes, i, n))) return i;
    i += n + 1;
  }
  return -1;
}

/** Decoded text, or the byte offset of the first invalid sequence. */
export type Decoded = { ok: true; text: string } | { ok: false; offset: number };

/** Decodes UTF-8 strictly (a leading byte-order mark is dropped, as TextDecoder does). */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, offset: Math.max(0, invalidUtf8Offset(bytes)) };
  }
}

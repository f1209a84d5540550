import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// API keys, paid and trial: `sl_<kind>_<32 base62 chars>` (190 bits of randomness). Only the SHA-256 hash and a short
// public prefix are stored; the plain key is shown once. The trial service issues trial keys with `generateKey`.

export type KeyKind = 'trial' | 'live';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
/** Characters of the random body kept in the public prefix (about 36 bits: enough for support, useless to guess). */
const PREFIX_BODY_CHARS = 6;
const KEY_PATTERN = /^sl_(trial|live)_([0-9A-Za-z]{32})$/;

export interface GeneratedKey {
  /** The secret. Goes into the email and nowhere else. */
  plain: string;
  prefix: string;
  hash: string;
}

/** Uniform base62 characters by rejection sampling (no modulo bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes at or above it would favour the first characters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateKey(kind: KeyKind): GeneratedKey {
  const plain = `sl_${kind}_${randomBase62(BODY_LENGTH)}`;
  return { plain, prefix: keyPrefix(plain), hash: hashKey(plain) };
}

export function keyPrefix(plain: string): string {
  const match = KEY_PATTERN.exec(plain);
  if (!match) throw new Error('Not an API key');
  return `sl_${match[1]}_${match[2]!.slice(0, PREFIX_BODY_CHARS)}`;
}

/** Hex SHA-256; keys carry enough entropy that a slow hash adds nothing. */
export function hashKey(plain: string): string {
  return createHash('sha256').update(plain, 'utf8').digest('hex');
}

export function looksLikeKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** Constant-time comparison of a presented key with a stored hash. */
export function verifyKey(plain: string, storedHash: string): boolean {
  const presented = Buffer.from(hashKey(plain), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Finds key-shaped substrings, so that tests and log checks can prove a key never leaked. */
export const KEY_IN_TEXT = /sl_(?:trial|live)_[0-9A-Za-z]{32}/g;

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, keyPrefix, looksLikeKey, verifyKey } from './key-format.ts';

describe('API keys', () => {
  it('makes trial keys with a readable prefix and at least 128 bits of randomness', () => {
    const key = generateKey('trial');
    expect(key.plain).toMatch(/^sl_trial_[0-9A-Za-z]{32}$/);
    // 32 base62 characters = 32 × log2(62) ≈ 190 bits.
    expect(32 * Math.log2(62)).toBeGreaterThan(128);
    expect(key.prefix).toBe(key.plain.slice(0, 'sl_trial_'.length + 6));
    expect(looksLikeKey(key.plain)).toBe(true);
  });

  it('stores a SHA-256 hash that verifies only the same key', () => {
    const key = generateKey('trial');
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.hash).not.toContain(key.plain.slice(9));
    expect(verifyKey(key.plain, key.hash)).toBe(true);
    expect(verifyKey(generateKey('trial').plain, key.hash)).toBe(false);
    expect(verifyKey(key.plain, 'abc')).toBe(false);
  });

  it('never repeats a key and uses every character of the alphabet', () => {
    const seen = new Set<string>();
    const chars = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const { plain } = generateKey('live');
      seen.add(plain);
      for (const char of plain.slice('sl_live_'.length)) chars.add(char);
    }
    expect(seen.size).toBe(2000);
    expect(chars.size).toBe(62);
  });

  it('hashes deterministically and rejects non-keys in keyPrefix', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(hashKey(value)).toBe(hashKey(value));
        if (!looksLikeKey(value)) expect(() => keyPrefix(value)).toThrow();
      }),
      { numRuns: 1000 },
    );
  });
});

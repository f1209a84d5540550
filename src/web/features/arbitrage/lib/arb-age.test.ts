import { describe, expect, it } from 'vitest';
import { arbAge, STALE_AFTER_MS } from './arb-age.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const FOUND = NOW / 1000;

describe('arbAge', () => {
  it('is null without a found_at (sample data) or with a broken one', () => {
    expect(arbAge(undefined, NOW)).toBeNull();
    expect(arbAge(Number.NaN, NOW)).toBeNull();
  });

  it('counts whole seconds under a minute', () => {
    expect(arbAge(FOUND, NOW)?.text).toBe('found 0 s ago');
    expect(arbAge(FOUND - 45, NOW + 999)?.text).toBe('found 45 s ago');
    expect(arbAge(FOUND - 59, NOW + 999)?.text).toBe('found 59 s ago');
  });

  it('switches to whole minutes at 60 s, hours at 60 min and days at 24 h', () => {
    expect(arbAge(FOUND - 60, NOW)?.text).toBe('found 1 min ago');
    expect(arbAge(FOUND - 3 * 60 - 59, NOW)?.text).toBe('found 3 min ago');
    expect(arbAge(FOUND - 3600, NOW)?.text).toBe('found 1 h ago');
    expect(arbAge(FOUND - 86_400 * 2 - 5, NOW)?.text).toBe('found 2 d ago');
  });

  it('reads a found_at ahead of the clock as 0 s, never a time in the future', () => {
    expect(arbAge(FOUND + 3, NOW)).toEqual({ text: 'found 0 s ago', ageMs: 0, stale: false });
  });

  it('marks an arb stale from 5 minutes', () => {
    expect(arbAge(FOUND - STALE_AFTER_MS / 1000 + 1, NOW)?.stale).toBe(false);
    expect(arbAge(FOUND - STALE_AFTER_MS / 1000, NOW)?.stale).toBe(true);
  });
});

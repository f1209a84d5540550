import { describe, expect, it } from 'vitest';
import { formatRelativeStart, relativeTime } from './relative-time.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

describe('relativeTime', () => {
  it('shows minutes under one hour: 59 minutes is "in 59m"', () => {
    expect(relativeTime(NOW + 59 * MIN, NOW)).toEqual({ value: 59, unit: 'm', past: false });
    expect(formatRelativeStart(at(59 * MIN + 59_000), NOW)).toBe('in 59m');
  });

  it('switches to hours at exactly 60 minutes', () => {
    expect(relativeTime(NOW + 60 * MIN, NOW)).toEqual({ value: 1, unit: 'h', past: false });
    expect(formatRelativeStart(at(60 * MIN), NOW)).toBe('in 1h');
  });

  it('shows hours under 24 hours: 23 hours is "in 23h"', () => {
    expect(formatRelativeStart(at(23 * HOUR), NOW)).toBe('in 23h');
    expect(formatRelativeStart(at(24 * HOUR - 1), NOW)).toBe('in 23h');
  });

  it('switches to days at exactly 24 hours', () => {
    expect(relativeTime(NOW + 24 * HOUR, NOW)).toEqual({ value: 1, unit: 'd', past: false });
    expect(formatRelativeStart(at(24 * HOUR), NOW)).toBe('in 1d');
    expect(formatRelativeStart(at(3 * 24 * HOUR + 5 * HOUR), NOW)).toBe('in 3d');
  });

  it('describes a start in the past with "ago", with the same boundaries', () => {
    expect(formatRelativeStart(at(-59 * MIN), NOW)).toBe('59m ago');
    expect(formatRelativeStart(at(-60 * MIN), NOW)).toBe('1h ago');
    expect(formatRelativeStart(at(-24 * HOUR), NOW)).toBe('1d ago');
  });

  it('says "now" within the first minute and nothing without a usable date', () => {
    expect(formatRelativeStart(at(30_000), NOW)).toBe('now');
    expect(formatRelativeStart(at(-30_000), NOW)).toBe('now');
    expect(formatRelativeStart(undefined, NOW)).toBeNull();
    expect(formatRelativeStart('not a date', NOW)).toBeNull();
  });
});

import { relativeTime } from './relative-time.ts';

// How long an arb has existed (issue 14, "Arb age"): the feed's `found_at` (unix seconds, the first time the engine
// published the arb key with a positive edge) against the page's clock. Seconds under a minute, then the relative-time
// helper's whole minutes, hours and days, rounded down. A clock a little behind the server reads as 0 s, never as a
// time in the future.

/** From this age on the row marks the arb as old: prices this old are often gone at the book. */
export const STALE_AFTER_MS = 5 * 60_000;

export interface ArbAge {
  /** "found 45 s ago", "found 3 min ago", "found 2 h ago", "found 1 d ago". */
  text: string;
  ageMs: number;
  stale: boolean;
}

const UNIT_TEXT = { m: 'min', h: 'h', d: 'd' } as const;

/** The arb's age; null when the feed carries no usable `found_at` (the sample data, an older server). */
export function arbAge(foundAtSec: number | undefined, nowMs: number): ArbAge | null {
  if (foundAtSec === undefined || !Number.isFinite(foundAtSec) || !Number.isFinite(nowMs)) return null;
  const ageMs = Math.max(0, nowMs - foundAtSec * 1000);
  if (ageMs < 60_000) return { text: `found ${Math.floor(ageMs / 1000)} s ago`, ageMs, stale: false };
  const { value, unit } = relativeTime(nowMs - ageMs, nowMs);
  return { text: `found ${value} ${UNIT_TEXT[unit]} ago`, ageMs, stale: ageMs >= STALE_AFTER_MS };
}

// Relative event start time (docs/product.md §2 "Arbitrage tool screen"): minutes under 1 hour, hours under 24 hours,
// otherwise days. Whole units, rounded down, so 59 min 59 s is still "59m" and exactly 60 min is "1h".

export type RelativeUnit = 'm' | 'h' | 'd';

export interface RelativeTime {
  value: number;
  unit: RelativeUnit;
  /** True when the start time is in the past (the event has started). */
  past: boolean;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export function relativeTime(startMs: number, nowMs: number): RelativeTime {
  const diff = startMs - nowMs;
  const abs = Math.abs(diff);
  const past = diff < 0;
  if (abs < HOUR_MS) return { value: Math.floor(abs / MINUTE_MS), unit: 'm', past };
  if (abs < DAY_MS) return { value: Math.floor(abs / HOUR_MS), unit: 'h', past };
  return { value: Math.floor(abs / DAY_MS), unit: 'd', past };
}

/** "in 45m", "in 3h", "in 2d", "12m ago"; "now" within the first minute either side. Null without a valid date. */
export function formatRelativeStart(date: string | undefined, nowMs: number): string | null {
  if (!date) return null;
  const startMs = Date.parse(date);
  if (!Number.isFinite(startMs)) return null;
  const { value, unit, past } = relativeTime(startMs, nowMs);
  if (unit === 'm' && value === 0) return 'now';
  return past ? `${value}${unit} ago` : `in ${value}${unit}`;
}

// The account page's requests-per-day chart (decision 156), as numbers: the scale, the bars in the SVG's own units
// (one slot per day, drawn stretched to the card's width), the total and the busiest day. The component draws them.

export interface DayCount {
  /** `YYYY-MM-DD`, a UTC day. */
  date: string;
  requests: number;
}

export interface Bar {
  date: string;
  value: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface UsageChart {
  bars: Bar[];
  /** The top of the scale: the smallest 1, 2 or 5 × 10ⁿ at or above the busiest day (1 when every day is 0). */
  max: number;
  /** Gridline values, bottom to top: 0, half the scale when it is a whole number, the scale. */
  ticks: number[];
  total: number;
  /** The busiest day (the latest of equals), or null when no day has a request. */
  busiest: DayCount | null;
  /** The SVG's viewBox size: SLOT units per day, HEIGHT units tall. */
  width: number;
  height: number;
}

export const SLOT = 10;
export const BAR_WIDTH = 7;
export const HEIGHT = 100;

/** The smallest 1, 2 or 5 × 10ⁿ at or above `value` (at least 1). */
export function niceMax(value: number): number {
  if (!(value > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= value) return step * magnitude;
  }
  return 10 * magnitude;
}

export function usageChart(days: readonly DayCount[]): UsageChart {
  const total = days.reduce((sum, day) => sum + day.requests, 0);
  let busiest: DayCount | null = null;
  for (const day of days) if (day.requests > 0 && day.requests >= (busiest?.requests ?? 0)) busiest = day;
  const max = niceMax(busiest?.requests ?? 0);
  const bars = days.map((day, index) => {
    // A day with requests is at least one unit tall, so that 1 request on a scale of 10,000 still shows.
    const height = day.requests === 0 ? 0 : Math.max(1, (day.requests / max) * HEIGHT);
    return {
      date: day.date,
      value: day.requests,
      x: index * SLOT + (SLOT - BAR_WIDTH) / 2,
      y: HEIGHT - height,
      width: BAR_WIDTH,
      height,
    };
  });
  return {
    bars,
    max,
    // Requests are whole: a half-way line only where it falls on a whole number (not at 2.5 of 5).
    ticks: Number.isInteger(max / 2) ? [0, max / 2, max] : [0, max],
    total,
    busiest,
    width: days.length * SLOT,
    height: HEIGHT,
  };
}

import {
  decimalToAmerican,
  formatAmerican,
  parseAmerican,
  type AmericanOdds,
  type DecimalOdds,
} from '#domain/odds.ts';
import type { HistoryPoint, HistoryTeaser } from '#domain/schemas/history-teaser.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import { getSportsbook } from '#domain/sportsbooks.ts';

// What the price-history panel of an arb row shows, worked out from the teaser (GET /tools/history.json): one line
// per side the history knows, in the row's order, named as the row names it (the book's display name and the
// selection), and a sentence per side for the text summary. A point without a price is a gap: it is never given a
// price, in the chart or in the words.

export interface PriceLine {
  sideId: string;
  /** The book as the page names it, e.g. "FanDuel". */
  book: string;
  /** The selection as the row shows it, e.g. "Boston Celtics". */
  selection: string;
  /** `[unix seconds, American odds or null]`, oldest first. */
  prices: readonly (readonly [number, number | null])[];
}

/** American odds of a point, from its American or its decimal price; null for a gap. */
export function pointAmerican([, american, decimal]: HistoryPoint): number | null {
  if (american !== null && Number.isFinite(american)) return american;
  if (decimal !== null && decimal > 1) return decimalToAmerican(decimal as DecimalOdds);
  return null;
}

/** The row's price of a side in American odds (its American text, else its decimal odds); null when unreadable. */
function rowAmerican(side: Arb['sides'][number]): number | null {
  const american = parseAmerican(side.price);
  if (american !== null) return american;
  return side.decimal_odds > 1 ? decimalToAmerican(side.decimal_odds as DecimalOdds) : null;
}

/**
 * The lines to draw: the arb's sides that the history knows, in the row's order. The history's last minute is
 * closed at the row's own price (issue 34: the panel said "1.80 now" while the row showed 1.83): the minute's
 * point becomes the row's price, or a point at `history.to` is added when the history ends earlier.
 */
export function priceLines(arb: Arb, history: HistoryTeaser): PriceLine[] {
  const byId = new Map(history.sides.map((side) => [side.id, side]));
  const lines: PriceLine[] = [];
  for (const side of arb.sides) {
    const known = byId.get(side.id);
    if (!known) continue;
    const book = getSportsbook(side.sportsbook)?.displayName ?? side.sportsbook;
    const points = [...known.points].sort((a, b) => a[0] - b[0]);
    const prices: (readonly [number, number | null])[] = points.map(
      (point) => [point[0], pointAmerican(point)] as const,
    );
    const now = rowAmerican(side);
    if (now !== null) {
      const last = prices.at(-1);
      if (last && last[0] >= history.to) prices[prices.length - 1] = [last[0], now];
      else prices.push([history.to, now]);
    }
    lines.push({ sideId: side.id, book, selection: side.name || side.selection.name, prices });
  }
  return lines;
}

/** "+155" / "-140", as the rows show prices. */
export function americanText(american: number): string {
  return formatAmerican(american as AmericanOdds);
}

/** How long before the last minute of the history, in words: "now", "1 minute ago", "an hour ago". */
export function minutesAgo(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes <= 0) return 'now';
  if (minutes >= 60) return 'an hour ago';
  return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
}

/**
 * One side's history in a sentence, e.g. "FanDuel Boston Celtics: +150 an hour ago, +155 now", prices written by
 * `price` (the page's odds format; American by default). A gap is never spoken
 * as a price: a side without a price at the last minute says "no price now" and the minutes without a price are
 * counted.
 */
export function lineSummary(
  line: PriceLine,
  to: number,
  price: (american: number) => string = americanText,
): string {
  const label = `${line.book} ${line.selection}`;
  const priced = line.prices.filter((point): point is readonly [number, number] => point[1] !== null);
  const first = priced[0];
  const last = priced.at(-1);
  if (!first || !last) return `${label}: no price in the last hour`;
  const final = line.prices.at(-1)!;
  const parts: string[] = [];
  if (first !== final) parts.push(`${price(first[1])} ${minutesAgo(to - first[0])}`);
  if (final[1] !== null) parts.push(`${price(final[1])} now`);
  else {
    if (last !== first) parts.push(`${price(last[1])} ${minutesAgo(to - last[0])}`);
    parts.push('no price now');
  }
  const best = priced.reduce((top, point) => (point[1] > top[1] ? point : top), first);
  const extras: string[] = [];
  if (best[1] > first[1] && best[1] > last[1]) extras.push(`best ${price(best[1])}`);
  const gaps = line.prices.length - priced.length;
  if (gaps > 0) extras.push(`no price for ${gaps} ${gaps === 1 ? 'minute' : 'minutes'}`);
  return `${label}: ${parts.join(', ')}${extras.length > 0 ? ` (${extras.join('; ')})` : ''}`;
}

/** Implied probability of American odds (1 / decimal). */
export function americanToProbability(american: number): number {
  return american > 0 ? 100 / (american + 100) : -american / (-american + 100);
}

/** American odds of an implied probability (the inverse of americanToProbability). */
export function probabilityToAmerican(probability: number): number {
  return probability <= 0.5
    ? (100 * (1 - probability)) / probability
    : (-100 * probability) / (1 - probability);
}

/**
 * The chart's data: the minutes (unix seconds) and, per line, the implied probability at each minute or null (a gap,
 * drawn as a break in the line).
 */
export function chartColumns(lines: readonly PriceLine[]): [number[], ...(number | null)[][]] {
  const times = [...new Set(lines.flatMap((line) => line.prices.map(([at]) => at)))].sort((a, b) => a - b);
  const columns = lines.map((line) => {
    const byTime = new Map(line.prices.map(([at, american]) => [at, american]));
    return times.map((at) => {
      const american = byTime.get(at);
      return american === null || american === undefined ? null : americanToProbability(american);
    });
  });
  return [times, ...columns];
}

const STEPS = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2500, 5000];

/**
 * Ticks of the price axis: round American odds (±100 and multiples of a step away from it) placed on the
 * implied-probability scale between `low` and `high`, at most `max` of them, as probabilities.
 */
export function americanTicks(low: number, high: number, max = 5): number[] {
  if (!(high > low)) return [low];
  for (const step of STEPS) {
    const ticks: number[] = [];
    // Favourites (probability above ½): -100, -100-step, …; underdogs: +100, +100+step, …
    for (let american = -100; ; american -= step) {
      const probability = americanToProbability(american);
      if (probability > high) break;
      if (probability >= low) ticks.push(probability);
    }
    for (let american = 100 + step; ; american += step) {
      const probability = americanToProbability(american);
      if (probability < low || american > 100_000) break;
      if (probability <= high) ticks.push(probability);
    }
    if (ticks.length === 0) return [(low + high) / 2]; // no larger step would find one
    if (ticks.length <= max) return ticks.sort((a, b) => a - b);
  }
  return [low, high];
}

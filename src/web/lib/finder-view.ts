import type { FinderFeedHead } from '#domain/schemas/finder-feed.ts';

// What the finder pages' views share (positive EV, middles; decisions 163 and 169): reading filters from the URL's
// query, writing money, and saying why a delayed feed has no row yet. Pure functions, tested with each page's view.

/** A number from the query within [min, max], or null (absent, empty, not a number, out of range). */
export function numberParam(raw: string | null, min: number, max: number): number | null {
  if (raw === null || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) && value >= min && value <= max ? value : null;
}

/** A key from the query (league, market type, book), or null when it cannot be one. */
export function tokenParam(raw: string | null): string | null {
  return raw && /^[a-z0-9_-]{1,40}$/.test(raw) ? raw : null;
}

/** The value itself when `allowed` has it, else null (a select's options from the query). */
export function oneOf<T extends string>(raw: string | null, allowed: readonly T[]): T | null {
  return allowed.find((value) => value === raw) ?? null;
}

export function formatDollars(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

/** "+$12.50", "−$3.00" (a true minus sign), "$0.00". */
export function signedDollars(cents: number): string {
  const text = (Math.abs(cents) / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  return cents > 0 ? `+${text}` : cents < 0 ? `−${text}` : text;
}

/**
 * What a page says when no row is left. A delayed feed with nothing at all is most often a server that started less
 * than its delay ago (the view shows the board as it was then): say so, rather than only "nothing matches".
 * `none` is the plain sentence; `noneYet` opens the delayed one ("No middle in this view yet.").
 */
export function emptyFeedText(
  feed: Pick<FinderFeedHead, 'total' | 'delay_seconds'>,
  none: string,
  noneYet: string,
  things: string,
): string {
  if (feed.total > 0 || feed.delay_seconds <= 0) return none;
  const minutes = feed.delay_seconds / 60;
  const delay = Number.isInteger(minutes)
    ? `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
    : `${feed.delay_seconds} seconds`;
  return `${noneYet} It shows the market as it was ${delay} ago: on a server that has just started, ${things} appear once it has run for ${delay}.`;
}

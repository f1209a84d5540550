// Arb list rules of the arbitrage page (docs/product.md §4, §5 "Arb visibility", §9 "Edge badge and ordering").
import type { Arb } from '#domain/schemas/feed.ts';
import { isSportsbookKey } from '#domain/sportsbooks.ts';

export type ArbMode = 'prematch' | 'live';

/** Every side's book is known and selected. */
export function usesSelectedBooks(arb: Pick<Arb, 'sides'>, selected: ReadonlySet<string>): boolean {
  return arb.sides.every((side) => isSportsbookKey(side.sportsbook) && selected.has(side.sportsbook));
}

/** Sorted by edge_pct descending (ties keep feed order); the list itself when it is already in that order. */
export function sortByEdge<T extends Pick<Arb, 'edge_pct'>>(arbs: readonly T[]): readonly T[] {
  for (let i = 1; i < arbs.length; i++) {
    if (arbs[i]!.edge_pct > arbs[i - 1]!.edge_pct) return [...arbs].sort((a, b) => b.edge_pct - a.edge_pct);
  }
  return arbs;
}

/**
 * One market of one event. The feed carries, per market, the best combination for each distinct set of books
^ * (docs/product.md §10), so that a visitor who deselects a book still sees the best arb among the books they kept; the page
 * shows one row per market: the best combination whose books are all selected.
 */
export function marketKey(arb: Pick<Arb, 'event' | 'market'>): string {
  return `${arb.event.id}|${arb.market}`;
}

/**
 * The arbs each tab shows with the selected books (docs/product.md §5): best first, one per market. The length of each list is
 * the tab's count. One sort and one pass serve both tabs and their counts.
 */
export function arbsByTab<T extends Pick<Arb, 'event' | 'market' | 'sides' | 'edge_pct'>>(
  arbs: readonly T[],
  selected: ReadonlySet<string>,
): Record<ArbMode, T[]> {
  const tabs: Record<ArbMode, T[]> = { prematch: [], live: [] };
  const seen = new Set<string>();
  for (const arb of sortByEdge(arbs)) {
    if (!usesSelectedBooks(arb, selected)) continue;
    const key = marketKey(arb);
    if (seen.has(key)) continue;
    seen.add(key);
    tabs[arb.event.live ? 'live' : 'prematch'].push(arb);
  }
  return tabs;
}

/**
 * Keys (`arbKey`) present now and absent from the previous fetch; nothing is new on the first fetch (`previous`
 * null).
 */
export function findNewArbKeys(
  previous: { has(key: string): boolean } | null,
  keys: readonly string[],
): string[] {
  if (!previous) return [];
  return keys.filter((key) => !previous.has(key));
}

/** docs/product.md §9: 2 stars per new arb, at most 10 at a time (the arbitrage screen hands them out row by row). */
export const MAX_STARS = 10;
export const STARS_PER_NEW_ARB = 2;

/** docs/product.md §9 "Timing". */
export const HIGHLIGHT_MS = 2500;
export const REFRESH_MS = 1000;
export const REFRESH_WHILE_HIGHLIGHT_MS = 1800;

export function refreshInterval(highlightActive: boolean): number {
  return highlightActive ? REFRESH_WHILE_HIGHLIGHT_MS : REFRESH_MS;
}

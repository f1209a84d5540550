import { describe, expect, it } from 'vitest';
import { arbKey } from '#domain/arb-feed.ts';
import {
  arbsByTab,
  findNewArbKeys,
  MAX_STARS,
  refreshInterval,
  sortByEdge,
  STARS_PER_NEW_ARB,
} from './arbs.ts';
import type { Arb, Side } from '#domain/schemas/feed.ts';

const side = (id: string, sportsbook: string): Side => ({
  id,
  sportsbook,
  name: id,
  price: '+100',
  selection: { name: id },
  decimal_odds: 2,
  implied_prob: 0.5,
  links: {},
});

const arb = (
  eventId: string,
  books: [string, string],
  opts: { live?: boolean; edge?: number; ids?: [string, string] } = {},
): Arb => ({
  event: {
    id: eventId,
    live: opts.live ?? false,
    teams: {
      away: { id: 'a', name: 'Away', abbreviation: 'AWY' },
      home: { id: 'h', name: 'Home', abbreviation: 'HOM' },
    },
  },
  market: 'Moneyline',
  sides: [side(opts.ids?.[0] ?? `${eventId}-1`, books[0]), side(opts.ids?.[1] ?? `${eventId}-2`, books[1])],
  edge_pct: opts.edge ?? 1,
});

describe('arb visibility (docs/product.md §5)', () => {
  const all = new Set(['fanduel', 'draftkings', 'betmgm']);
  const prematch = arb('e', ['fanduel', 'draftkings']);
  const live = arb('e', ['fanduel', 'draftkings'], { live: true });

  it('shows an arb whose every book is known and selected, on its own tab', () => {
    expect(arbsByTab([prematch], all).prematch).toEqual([prematch]);
    expect(arbsByTab([live], all).live).toEqual([live]);
  });

  it('hides it on the other tab', () => {
    expect(arbsByTab([prematch], all).live).toEqual([]);
    expect(arbsByTab([live], all).prematch).toEqual([]);
  });

  it('hides it when one book is deselected or unknown', () => {
    expect(arbsByTab([prematch], new Set(['fanduel'])).prematch).toEqual([]);
    expect(arbsByTab([arb('e', ['fanduel', 'pinnacle'])], new Set(['fanduel', 'pinnacle'])).prematch).toEqual(
      [],
    );
  });
});

/** How many arbs each tab shows: the lengths of `arbsByTab`'s lists. */
function tabCounts(...args: Parameters<typeof arbsByTab>) {
  const tabs = arbsByTab(...args);
  return { prematch: tabs.prematch.length, live: tabs.live.length };
}

describe('sortByEdge and the tab counts', () => {
  it('sorts by edge_pct descending without touching the input', () => {
    const input = [
      arb('a', ['fanduel', 'betmgm'], { edge: -0.3 }),
      arb('b', ['fanduel', 'betmgm'], { edge: 2.1 }),
      arb('c', ['fanduel', 'betmgm'], { edge: 0.4 }),
    ];
    expect(sortByEdge(input).map((x) => x.event.id)).toEqual(['b', 'c', 'a']);
    expect(input.map((x) => x.event.id)).toEqual(['a', 'b', 'c']);
  });

  it('gives a list already in order (the feed is) back as it is, ties included', () => {
    const sorted = [
      arb('b', ['fanduel', 'betmgm'], { edge: 2.1 }),
      arb('c', ['fanduel', 'betmgm'], { edge: 0.4 }),
      arb('d', ['fanduel', 'betmgm'], { edge: 0.4 }),
    ];
    expect(sortByEdge(sorted)).toBe(sorted);
  });

  it('counts what each tab would show with the selected books', () => {
    const list = [
      arb('a', ['fanduel', 'betmgm']),
      arb('b', ['fanduel', 'betmgm'], { live: true }),
      arb('c', ['fanduel', 'draftkings'], { live: true }),
      arb('d', ['fanduel', 'nope']),
    ];
    expect(tabCounts(list, new Set(['fanduel', 'betmgm', 'draftkings']))).toEqual({ prematch: 1, live: 2 });
    expect(tabCounts(list, new Set(['fanduel', 'betmgm']))).toEqual({ prematch: 1, live: 1 });
  });
});

describe('findNewArbKeys', () => {
  const first = [arb('a', ['fanduel', 'betmgm']), arb('b', ['fanduel', 'betmgm'])];

  it('finds nothing new on the first fetch', () => {
    expect(findNewArbKeys(null, first.map(arbKey))).toEqual([]);
  });

  it('finds arbs whose key was absent from the previous fetch', () => {
    const previous = new Set(first.map(arbKey));
    const next = [...first, arb('c', ['fanduel', 'betmgm'])];
    expect(findNewArbKeys(previous, next.map(arbKey))).toEqual(['c:c-1,c-2']);
  });

  it('does not count a price change on the same event and sides as new', () => {
    const previous = new Set(first.map(arbKey));
    const repriced = first.map((a) => ({ ...a, edge_pct: a.edge_pct + 0.5 }));
    expect(findNewArbKeys(previous, repriced.map(arbKey))).toEqual([]);
  });
});

describe('timing constants', () => {
  it('gives 2 stars per new arb and at most 10', () => {
    expect(STARS_PER_NEW_ARB).toBe(2);
    expect(MAX_STARS).toBe(10);
  });

  it('refreshes every 1000 ms, or 1800 ms while a highlight is shown', () => {
    expect(refreshInterval(false)).toBe(1000);
    expect(refreshInterval(true)).toBe(1800);
  });
});

describe('arbsByTab', () => {
  const market = (id: string, event: string, books: [string, string], edge: number, live = false) => ({
    ...arb(event, books, { edge, live }),
    market: 'Moneyline',
    sides: books.map((book, index) => side(`${id}-${index}`, book)),
  });

  it('shows one row per market: the best combination whose books are all selected', () => {
    const best = market('a', 'e1', ['fanduel', 'betmgm'], 2.5);
    const fallback = market('b', 'e1', ['fanduel', 'draftkings'], 1.2);
    const other = market('c', 'e2', ['caesars', 'betmgm'], 0.4);
    const all = new Set(['fanduel', 'betmgm', 'draftkings', 'caesars']);
    expect(arbsByTab([fallback, other, best], all).prematch).toEqual([best, other]);
    expect(tabCounts([fallback, other, best], all)).toEqual({ prematch: 2, live: 0 });
    const withoutMgm = new Set(['fanduel', 'draftkings', 'caesars']);
    expect(arbsByTab([fallback, other, best], withoutMgm).prematch).toEqual([fallback]);
    expect(tabCounts([fallback, other, best], withoutMgm)).toEqual({ prematch: 1, live: 0 });
  });

  it('keeps live and pre-match apart', () => {
    const live = market('l', 'e3', ['fanduel', 'betmgm'], 1, true);
    expect(arbsByTab([live], new Set(['fanduel', 'betmgm'])).prematch).toEqual([]);
    expect(arbsByTab([live], new Set(['fanduel', 'betmgm'])).live).toEqual([live]);
  });
});

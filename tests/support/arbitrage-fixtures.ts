import type { Arb, ArbFeed, Side } from '#domain/schemas/feed.ts';

// Small builders of feed arbs for the arbitrage page's tests (src/web/features/arbitrage).

export function side(
  id: string,
  sportsbook: string,
  price: string,
  decimal: number,
  overrides: Partial<Side> = {},
): Side {
  return {
    id,
    sportsbook,
    name: id,
    price,
    selection: { name: id },
    decimal_odds: decimal,
    implied_prob: 1 / decimal,
    links: {},
    ...overrides,
  };
}

export function arb(
  id: string,
  sides: Side[],
  {
    live = false,
    edge = 1,
    market = 'Moneyline',
    date,
    suspect,
  }: { live?: boolean; edge?: number; market?: string; date?: string; suspect?: boolean } = {},
): Arb {
  return {
    event: {
      id,
      live,
      date,
      teams: {
        away: { id: `${id}-a`, name: `${id} Away`, abbreviation: `${id.slice(0, 3).toUpperCase()}A` },
        home: { id: `${id}-h`, name: `${id} Home`, abbreviation: `${id.slice(0, 3).toUpperCase()}H` },
      },
    },
    market,
    sides,
    edge_pct: edge,
    ...(suspect === undefined ? {} : { suspect }),
  };
}

export const fdLinks = {
  desktop: 'https://nj.sportsbook.fanduel.com/addToBetslip?marketId=1&selectionId=2',
  mobile: 'fanduelsportsbook://addToBetslip?marketId=1&selectionId=2',
};
export const dkLinks = {
  desktop: 'https://sportsbook.draftkings.com/event/9?outcomes=0ML1',
  mobile: 'dksb://sb/addbet/0ML1',
};

/** A moneyline FanDuel +155 / DraftKings -140 (the sample's prices). */
export function moneyline(id = 'celtics', edge = 2.51, live = false, suspect?: boolean): Arb {
  return arb(
    id,
    [
      side(`${id}-fd`, 'fanduel', '+155', 2.55, {
        name: 'Boston Celtics',
        selection: { name: 'Boston Celtics' },
        links: fdLinks,
      }),
      side(`${id}-dk`, 'draftkings', '-140', 1.7142857, {
        name: 'New York Knicks',
        selection: { name: 'New York Knicks' },
        links: dkLinks,
      }),
    ],
    { edge, live, suspect },
  );
}

export function feed(arbs: Arb[], source: ArbFeed['source'] = 'replay'): ArbFeed {
  return { generated_at: 1_763_700_000, arbs, source };
}

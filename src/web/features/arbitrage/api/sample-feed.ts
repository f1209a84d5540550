import type { ArbFeed } from '#domain/schemas/feed.ts';

// The built-in sample data of docs/product.md §7: two arbs, a moneyline and a live spread. It is shown when the feed cannot be
// reached, always labelled as demo data. Start times are relative to `nowMs` so the page reads sensibly at any hour.

const HOUR_MS = 3_600_000;

export function sampleFeed(nowMs: number): ArbFeed {
  return {
    generated_at: Math.floor(nowMs / 1000),
    source: 'sample',
    arbs: [
      {
        event: {
          id: 'sample-nba-bos-nyk',
          teams: {
            away: { id: 'bos', name: 'Boston Celtics', abbreviation: 'BOS' },
            home: { id: 'nyk', name: 'New York Knicks', abbreviation: 'NYK' },
          },
          live: false,
          date: new Date(nowMs + 3 * HOUR_MS).toISOString(),
        },
        market: 'Moneyline',
        edge_pct: 2.51,
        sides: [
          {
            id: 'sample-bos-ml-fanduel',
            sportsbook: 'fanduel',
            name: 'Boston Celtics',
            price: '+155',
            selection: { name: 'Boston Celtics' },
            decimal_odds: 2.55,
            implied_prob: 0.392157,
            links: {
              desktop: 'https://nj.sportsbook.fanduel.com/addToBetslip?marketId=734.1001&selectionId=5501',
              mobile: 'fanduelsportsbook://addToBetslip?marketId=734.1001&selectionId=5501',
            },
          },
          {
            id: 'sample-nyk-ml-draftkings',
            sportsbook: 'draftkings',
            name: 'New York Knicks',
            price: '-140',
            selection: { name: 'New York Knicks' },
            decimal_odds: 1.714286,
            implied_prob: 0.583333,
            links: {
              desktop: 'https://sportsbook.draftkings.com/event/31877412?outcomes=0ML77452814_3',
              mobile: 'dksb://sb/addbet/0ML77452814_3',
            },
          },
        ],
      },
      {
        event: {
          id: 'sample-nba-lal-gsw',
          teams: {
            away: { id: 'lal', name: 'Los Angeles Lakers', abbreviation: 'LAL' },
            home: { id: 'gsw', name: 'Golden State Warriors', abbreviation: 'GSW' },
          },
          live: true,
          date: new Date(nowMs - HOUR_MS).toISOString(),
        },
        market: 'Spread',
        edge_pct: 2.32,
        sides: [
          {
            id: 'sample-lal-sp-betmgm',
            sportsbook: 'betmgm',
            name: 'Los Angeles Lakers +3.5',
            price: '-105',
            selection: { name: 'Los Angeles Lakers +3.5' },
            decimal_odds: 1.952381,
            implied_prob: 0.512195,
            links: {
              desktop:
                'https://sports.nj.betmgm.com/en/sports/events/2:7655123?options=2:7655123-1123-44&type=Single',
              mobile: null,
            },
          },
          {
            id: 'sample-gsw-sp-caesars',
            sportsbook: 'caesars',
            name: 'Golden State Warriors -3.5',
            price: '+115',
            selection: { name: 'Golden State Warriors -3.5' },
            decimal_odds: 2.15,
            implied_prob: 0.465116,
            links: {
              desktop: 'https://sportsbook.caesars.com/us/nj/bet/betslip?selectionIds=8a1c-44f2-9d01',
              mobile: null,
            },
          },
        ],
      },
    ],
  };
}

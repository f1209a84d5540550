import type { OutcomeKey } from './markets.ts';

// The fair close of a finished game's markets (issue 57, decision 289): what CLV is measured against. The server makes
// the list from the odds history's closing lines (`closingMarkets` in src/server/history-api/history-reads.ts: the
// reference book's or the consensus's fair probabilities, devigged as POST /v1/clv does) and POST /v1/grade and the
// public GET /tools/closing.json both carry it; the bet tracker and POST /v1/grade both find a bet's close in it with
// `closingProbability`, so a bet's CLV is the same whichever grades it.

/**
 * One market's fair close: its type (`moneyline`, `spread`, `total`, `1x2`, `prop`), period and line (a spread's is
 * the home team's, as market keys have it; null for a market without one), a prop's stat and player id, and the fair
 * closing probability of each outcome to 6 places (an outcome whose probability came out 0 is left out).
 */
export interface ClosingMarket {
  market: string;
  period: string;
  line: number | null;
  stat?: string | undefined;
  player?: string | undefined;
  fair: Record<string, number>;
}

/** A leg as its close is looked up: a spread's `line` is the home team's; a prop's stat and player id. */
export interface ClosingLeg {
  market: string;
  period: string;
  line: number | null;
  outcome: OutcomeKey | string;
  stat?: string | undefined;
  playerId?: string | undefined;
}

/**
 * The fair closing probability of the leg's outcome (6 places), or null when the game's close has none: the market,
 * or its line, was not priced before the start by a book pricing every outcome, or the outcome is not the market's.
 * Its market: the type and period, the line when the leg has one (a market without a line matches whatever line), a
 * prop's stat and player.
 */
export function closingProbability(markets: readonly ClosingMarket[], leg: ClosingLeg): number | null {
  const market = markets.find(
    (m) =>
      m.market === leg.market &&
      m.period === leg.period &&
      (leg.line === null || m.line === leg.line) &&
      (leg.playerId === undefined || (m.stat === leg.stat && m.player === leg.playerId)) &&
      m.fair[leg.outcome] !== undefined,
  );
  return market?.fair[leg.outcome] ?? null;
}

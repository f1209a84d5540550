import type { ParlayLeg, TrackedBet } from '#domain/bet-tracker.ts';
import type { ResultsFeedGame } from '#domain/schemas/results-feed.ts';

// What the bet tracker's tests (src/domain/bet-tracker.test.ts, tests/e2e/bet-tracker.spec.ts, and the closing
// tests src/server/results/closing-feed.test.ts, bet-tracker-clv-page.test.ts) build bets and legs from: a game of
// the public results (GET /tools/results.json).

/** The full-game home moneyline of a game of the results: the fields a tracked bet and a parlay leg share. */
export function homeMoneylineOf(game: ResultsFeedGame): Pick<ParlayLeg & TrackedBet, HomeMoneylineFields> {
  return {
    sport: game.sport,
    league: game.league,
    event_id: game.event_id,
    home: game.home_team,
    away: game.away_team,
    starts_at: game.commence_time,
    market: 'moneyline',
    period: 'full',
    line: null,
    outcome: 'home',
    selection: game.home_team,
  };
}

type HomeMoneylineFields =
  | 'sport'
  | 'league'
  | 'event_id'
  | 'home'
  | 'away'
  | 'starts_at'
  | 'market'
  | 'period'
  | 'line'
  | 'outcome'
  | 'selection';

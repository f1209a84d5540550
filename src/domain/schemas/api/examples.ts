import { DEFAULT_DEVIG_METHOD, devigImplied } from '../../devig.ts';
import type { OutcomeKey } from '../../markets.ts';
import { roundTo } from '../../odds.ts';

// The examples of the OpenAPI document (shown by /docs beside each answer): one per answer that has one, each
// attached to its schema with `.meta({ examples })` in the module of its family.

/**
 * One outcome of an example market: its one book's price, with the implied probability
 * worked out from the decimal odds (6 places) and no links.
 */
function exampleOutcome(
  outcome: OutcomeKey,
  name: string,
  price: { book: string; american: string; decimal: number; updated_at: string; suspended: boolean },
) {
  const { book, american, decimal, updated_at, suspended } = price;
  const implied_prob = Math.round(1e6 / decimal) / 1e6;
  const links = { desktop: null, mobile: null };
  return { outcome, name, prices: [{ book, american, decimal, implied_prob, updated_at, suspended, links }] };
}

/**
 * An example's fair probabilities (the `Fair` schema), worked out from its inputs by the default method, so that the
 * document shows what the API would answer for them. `exact` holds the probabilities at full precision.
 */
function exampleFair(fair: {
  reference: string;
  reference_fallback: 'book_not_carried' | 'book_missing_outcomes' | 'no_sharp_book' | null;
  books: string[];
  implied: Record<string, number>;
}) {
  const outcomes = Object.keys(fair.implied);
  const exact = devigImplied(
    outcomes.map((outcome) => fair.implied[outcome]!),
    DEFAULT_DEVIG_METHOD,
  );
  const probabilities = Object.fromEntries(outcomes.map((outcome, i) => [outcome, roundTo(exact[i]!, 6)]));
  return {
    dto: { ...fair, method: DEFAULT_DEVIG_METHOD, probabilities },
    exact: Object.fromEntries(outcomes.map((outcome, i) => [outcome, exact[i]!])),
  };
}

/** A /v1/odds answer with one game line and one player prop, for the documentation. */
const ODDS_EXAMPLE_PRICE = { updated_at: '2026-11-21T23:58:12.000Z', suspended: false };
export const ODDS_EXAMPLE = {
  as_of: '2026-11-22T00:00:00.000Z',
  delay_seconds: 0,
  events: [
    {
      event: {
        id: 'nba-bos-lal-20261122',
        league: 'nba',
        sport: 'basketball',
        home: { id: 'lal', name: 'Los Angeles Lakers', abbreviation: 'LAL' },
        away: { id: 'bos', name: 'Boston Celtics', abbreviation: 'BOS' },
        starts_at: '2026-11-22T03:30:00.000Z',
        live: false,
      },
      markets: [
        {
          key: 'nba-bos-lal-20261122|moneyline|full|',
          type: 'moneyline',
          period: 'full',
          point: null,
          label: 'Moneyline',
          main: true,
          outcomes: [
            exampleOutcome('away', 'Boston Celtics', {
              book: 'fanduel',
              american: '-135',
              decimal: 1.7407,
              ...ODDS_EXAMPLE_PRICE,
            }),
            exampleOutcome('home', 'Los Angeles Lakers', {
              book: 'fanduel',
              american: '+115',
              decimal: 2.15,
              ...ODDS_EXAMPLE_PRICE,
            }),
          ],
        },
        {
          key: 'nba-bos-lal-20261122|prop|player_points|full|p-lebron|27.5',
          type: 'prop',
          period: 'full',
          stat: 'player_points',
          player: { id: 'p-lebron', name: 'LeBron James', team: 'home' },
          point: 27.5,
          label: 'LeBron James Points Over/Under 27.5',
          main: true,
          outcomes: [
            exampleOutcome('over', 'LeBron James Points Over 27.5', {
              book: 'draftkings',
              american: '-110',
              decimal: 1.9091,
              ...ODDS_EXAMPLE_PRICE,
            }),
            exampleOutcome('under', 'LeBron James Points Under 27.5', {
              book: 'draftkings',
              american: '-110',
              decimal: 1.9091,
              ...ODDS_EXAMPLE_PRICE,
            }),
          ],
        },
      ],
    },
  ],
};

const EXAMPLE_EVENT_ID = 'nba-bos-nyk-20261122';

/** The event of the history examples, live (an answer about it after the game is over says so in `ended_at`). */
const EXAMPLE_HISTORY_EVENT = {
  id: EXAMPLE_EVENT_ID,
  league: 'nba',
  sport: 'basketball',
  home: { id: 'nyk', name: 'New York Knicks', abbreviation: 'NYK' },
  away: { id: 'bos', name: 'Boston Celtics', abbreviation: 'BOS' },
  starts_at: '2026-11-22T00:30:00.000Z',
  live: true,
  first_seen_at: '2026-11-21T09:00:00.000Z',
  live_at: '2026-11-22T00:30:02.000Z',
  ended_at: null as string | null,
  closed_at: '2026-11-22T00:30:00.000Z',
};

/** GET /v1/events/{eventId}/movement: one series' changes over a finished game. */
export const MOVEMENT_EXAMPLE = {
  event: { ...EXAMPLE_HISTORY_EVENT, live: false, ended_at: '2026-11-22T03:05:41.000Z' },
  from: '2026-11-21T09:00:00.000Z',
  to: '2026-11-22T03:05:41.000Z',
  interval: null,
  series: [
    {
      market: `${EXAMPLE_EVENT_ID}|moneyline|full|`,
      market_type: 'moneyline',
      period: 'full',
      line: null,
      stat: null,
      player: null,
      outcome: 'home',
      book: 'fanduel',
      points: [
        { at: '2026-11-21T09:00:01.250Z', price: '+120', decimal_odds: 2.2, state: 'open' },
        { at: '2026-11-21T14:12:09.031Z', price: '+115', decimal_odds: 2.15, state: 'open' },
        { at: '2026-11-21T14:12:40.002Z', price: '+115', decimal_odds: 2.15, state: 'suspended' },
        { at: '2026-11-21T14:13:02.500Z', price: '+110', decimal_odds: 2.1, state: 'open' },
      ],
    },
  ],
  gaps: [],
  next_cursor: 'eyJ2IjoxLCJtIjoicCIsInMiOjQyLCJ1IjoxNzk0MDc5NTgyNTAwMDAwfQ',
};

/** GET /v1/events/{eventId}/lines: one market's opening, current and closing prices, and their fair probabilities. */
// The example market's fair probabilities: fanduel alone priced it, so the default reference (`sharp`) falls back to
// the consensus of that one book: its own 1/decimal per outcome, de-vigged.
const EXAMPLE_FAIR_OPENING = exampleFair({
  reference: 'consensus',
  reference_fallback: 'no_sharp_book',
  books: ['fanduel'],
  implied: { away: 1 / 1.909, home: 1 / 1.909 },
});
const EXAMPLE_FAIR_CLOSING = exampleFair({
  reference: 'consensus',
  reference_fallback: 'no_sharp_book',
  books: ['fanduel'],
  implied: { away: 1 / 1.8695, home: 1 / 1.9523 },
});

export const LINES_EXAMPLE = {
  event: EXAMPLE_HISTORY_EVENT,
  reference_book: 'sharp',
  reference: 'sharp',
  devig: DEFAULT_DEVIG_METHOD,
  markets: [
    {
      market: `${EXAMPLE_EVENT_ID}|moneyline|full|`,
      market_type: 'moneyline',
      period: 'full',
      line: null,
      stat: null,
      player: null,
      label: 'Moneyline',
      outcomes: [
        {
          outcome: 'away',
          name: 'Boston Celtics',
          books: [
            {
              book: 'fanduel',
              opening: {
                price: '-110',
                decimal_odds: 1.909,
                at: '2026-11-21T09:00:01.250Z',
                in_play: false,
              },
              current: {
                price: '-130',
                decimal_odds: 1.7692,
                at: '2026-11-22T00:41:17.906Z',
                state: 'open',
              },
              closing: { price: '-115', decimal_odds: 1.8695, at: '2026-11-22T00:28:55.120Z' },
            },
          ],
        },
        {
          outcome: 'home',
          name: 'New York Knicks',
          books: [
            {
              book: 'fanduel',
              opening: {
                price: '-110',
                decimal_odds: 1.909,
                at: '2026-11-21T09:00:01.250Z',
                in_play: false,
              },
              current: {
                price: '+110',
                decimal_odds: 2.1,
                at: '2026-11-22T00:41:17.906Z',
                state: 'open',
              },
              closing: { price: '-105', decimal_odds: 1.9523, at: '2026-11-22T00:28:55.120Z' },
            },
          ],
        },
      ],
      fair: { opening: EXAMPLE_FAIR_OPENING.dto, closing: EXAMPLE_FAIR_CLOSING.dto },
    },
  ],
};

/** POST /v1/clv: a bet named by market type and American odds, and one by line and decimal odds. */
export const CLV_REQUEST_EXAMPLE = {
  bets: [
    {
      event_id: EXAMPLE_EVENT_ID,
      market: 'moneyline',
      outcome: 'home',
      price: '+150',
      book: 'fanduel',
    },
    { event_id: EXAMPLE_EVENT_ID, market: 'spread', line: -3.5, outcome: 'away', decimal_odds: 1.95 },
  ],
};

/**
 * POST /v1/clv's answer to the request example: the moneyline bet, and the spread whose prices were all first seen
 * after the start (in-play prices: no closing line, no OLV; docs/decisions/161).
 */
export const CLV_RESPONSE_EXAMPLE = {
  reference_book: 'sharp',
  reference: 'sharp',
  devig: DEFAULT_DEVIG_METHOD,
  results: [
    {
      index: 0,
      event_id: EXAMPLE_EVENT_ID,
      market: `${EXAMPLE_EVENT_ID}|moneyline|full|`,
      outcome: 'home',
      book: 'fanduel',
      placed_at: null,
      decimal_odds: 2.5,
      status: 'ok',
      reference: 'consensus',
      opening_reference: 'consensus',
      closing: { price: '-105', decimal_odds: 1.9523, at: '2026-11-22T00:28:55.120Z' },
      fair_opening_probability: EXAMPLE_FAIR_OPENING.dto.probabilities.home,
      fair_closing_probability: EXAMPLE_FAIR_CLOSING.dto.probabilities.home,
      fair_opening: EXAMPLE_FAIR_OPENING.dto,
      fair_closing: EXAMPLE_FAIR_CLOSING.dto,
      clv_pct: roundTo((2.5 * EXAMPLE_FAIR_CLOSING.exact.home! - 1) * 100, 3),
      olv_pct: roundTo((2.5 * EXAMPLE_FAIR_OPENING.exact.home! - 1) * 100, 3),
      olv_reason: null,
    },
    {
      index: 1,
      event_id: EXAMPLE_EVENT_ID,
      market: `${EXAMPLE_EVENT_ID}|spread|full|-3.5`,
      outcome: 'away',
      book: null,
      placed_at: null,
      decimal_odds: 1.95,
      status: 'no_closing_line',
      reference: null,
      opening_reference: null,
      closing: null,
      fair_opening_probability: null,
      fair_closing_probability: null,
      fair_opening: null,
      fair_closing: null,
      clv_pct: null,
      olv_pct: null,
      olv_reason: 'opening_in_play',
    },
  ],
};

/** GET /v1/historical/odds: one event's moneyline at an instant. */
export const HISTORICAL_ODDS_EXAMPLE = {
  as_of: '2026-11-21T18:00:00.000Z',
  delay_seconds: 0,
  at: '2026-11-21T18:00:00.000Z',
  previous_change_at: '2026-11-21T17:59:58.412Z',
  next_change_at: '2026-11-21T18:00:03.005Z',
  next_cursor: null,
  events: [
    {
      event: {
        id: EXAMPLE_EVENT_ID,
        league: 'nba',
        sport: 'basketball',
        home: { id: 'nyk', name: 'New York Knicks', abbreviation: 'NYK' },
        away: { id: 'bos', name: 'Boston Celtics', abbreviation: 'BOS' },
        starts_at: '2026-11-22T00:30:00.000Z',
        live: false,
      },
      markets: [
        {
          key: `${EXAMPLE_EVENT_ID}|moneyline|full|`,
          type: 'moneyline',
          period: 'full',
          point: null,
          label: 'Moneyline',
          main: true,
          outcomes: [
            exampleOutcome('away', 'Boston Celtics', {
              book: 'fanduel',
              american: '-115',
              decimal: 1.8695,
              updated_at: '2026-11-21T17:41:09.230Z',
              suspended: false,
            }),
            exampleOutcome('home', 'New York Knicks', {
              book: 'fanduel',
              american: '-105',
              decimal: 1.9523,
              updated_at: '2026-11-21T17:59:58.412Z',
              suspended: true,
            }),
          ],
        },
      ],
    },
  ],
};

/** GET /v1/sports: one sport of the catalogue. */
export const SPORTS_EXAMPLE = {
  sports: [
    {
      key: 'basketball',
      name: 'Basketball',
      leagues: [
        { key: 'nba', name: 'NBA', sport: 'basketball', has_draws: false },
        { key: 'ncaab', name: 'NCAAB', sport: 'basketball', has_draws: false },
      ],
    },
  ],
};

/** GET /v1/leagues: two leagues of the catalogue, one with draws. */
export const LEAGUES_EXAMPLE = {
  leagues: [
    { key: 'nba', name: 'NBA', sport: 'basketball', has_draws: false },
    { key: 'epl', name: 'EPL', sport: 'soccer', has_draws: true },
  ],
};

const ODDS_EXAMPLE_EVENT = ODDS_EXAMPLE.events[0]!.event;

/** GET /v1/events. */
export const EVENTS_EXAMPLE = { events: [ODDS_EXAMPLE_EVENT] };

/** GET /v1/events/{eventId}: the event and the players its props name. */
export const EVENT_EXAMPLE = {
  event: ODDS_EXAMPLE_EVENT,
  players: [
    { id: 'p-lebron', name: 'LeBron James', team: 'home' },
    { id: 'p-tatum', name: 'Jayson Tatum', team: 'away' },
  ],
};

/** An arb side of the examples (American price, decimal odds, implied probability to 6 places). */
function exampleSide(
  id: string,
  sportsbook: string,
  name: string,
  price: string,
  decimal: number,
  url: string,
) {
  return {
    id,
    sportsbook,
    name,
    price,
    selection: { name },
    decimal_odds: decimal,
    implied_prob: Math.round(1e6 / decimal) / 1e6,
    links: { desktop: url, mobile: url },
  };
}

const ARB_EXAMPLE_EVENT = {
  id: ODDS_EXAMPLE_EVENT.id,
  teams: {
    away: { id: 'boston-celtics', name: 'Boston Celtics', abbreviation: 'BOS' },
    home: { id: 'los-angeles-lakers', name: 'Los Angeles Lakers', abbreviation: 'LAL' },
  },
  live: false,
  date: ODDS_EXAMPLE_EVENT.starts_at,
  sport: 'basketball',
  league: 'nba',
};

/**
 * An arb: Celtics at 1.8333 (DraftKings −120) and Lakers at 2.25 (FanDuel +125). S = 1/1.8333 + 1/2.25 = 0.9899, so
 * edge_pct = (1/S − 1) × 100 = 1.019 (rounded down to 3 places): $200 staked $110.20 / $89.80 returns $202.04 either way.
 */
export const ARB_EXAMPLE = {
  event: ARB_EXAMPLE_EVENT,
  market: 'Moneyline',
  market_type: 'moneyline',
  sides: [
    exampleSide(
      'draftkings-3kq0v8d1m2x7aa',
      'draftkings',
      'Boston Celtics',
      '-120',
      1.8333,
      'https://sportsbook.draftkings.com/event/10000042',
    ),
    exampleSide(
      'fanduel-0p5c7u1k9w3ebb',
      'fanduel',
      'Los Angeles Lakers',
      '+125',
      2.25,
      'https://sportsbook.fanduel.com/basketball/nba/event/10000042',
    ),
  ],
  edge_pct: 1.019,
  found_at: 1795741160,
};

/** A near-arb: Over 221.5 at 2.0 (+100) and Under at 1.9804 (−102): S = 1.0049, edge_pct −0.493 (a loss of 0.49 %). */
const NEAR_ARB_EXAMPLE = {
  event: ARB_EXAMPLE_EVENT,
  market: 'Total 221.5',
  market_type: 'total',
  sides: [
    exampleSide(
      'betmgm-7hd2k0q9z1c4cc',
      'betmgm',
      'Over 221.5',
      '+100',
      2,
      'https://sports.betmgm.com/en/sports/events/10000042',
    ),
    exampleSide(
      'caesars-5mv8r2t6y0b1dd',
      'caesars',
      'Under 221.5',
      '-102',
      1.9804,
      'https://sportsbook.caesars.com/us/nj/bet/betslip',
    ),
  ],
  edge_pct: -0.493,
};

/** GET /v1/arbs: an arb and a near-arb (edge ≤ 0: no `found_at`), best edge first. */
export const ARBS_EXAMPLE = {
  generated_at: 1795741172,
  realtime_generated_at: 1795741172,
  source: 'simulator',
  delay_seconds: 0,
  delayed_above_edge_pct: null,
  arbs: [ARB_EXAMPLE, NEAR_ARB_EXAMPLE],
};

/** GET /v1/me: a trial key (Pro limits, 15 s delay) two requests into its window. */
export const ME_EXAMPLE = {
  key: {
    prefix: 'sl_trial_CXBaIJ',
    kind: 'trial',
    created_at: '2026-11-21T10:15:36.340Z',
    expires_at: '2026-11-28T10:15:36.340Z',
  },
  plan: { id: 'pro', name: 'Pro', real_time: false, delay_seconds: 15 },
  limits: { requests_per_minute: 100, stream_connections: 5 },
  usage: { used: 2, remaining: 98, resets_in_seconds: 41 },
  features: [],
  sgp_credits: { limit: 0, used: 0, remaining: 0, resets_at: '2026-12-01T00:00:00.000Z' },
  // A trial key has no subscription (a paid key's: { status, renews_at, cancel_at_period_end }).
  subscription: null,
  streams: { open: 1, limit: 5 },
};

/**
 * POST /v1/sgp's answer to the request example (the worked example of its description: Celtics −4.5, over 221.5,
 * Tatum over 27.5 points; the model's joint probability 0.1791 against 0.1248 independent).
 */
export const SGP_RESPONSE_EXAMPLE = {
  event_id: 'nba-bos-lal-20261122',
  legs: [
    {
      market: 'nba-bos-lal-20261122|spread|full|-4.5',
      outcome: 'home',
      name: 'Los Angeles Lakers -4.5',
      line: -4.5,
      fair_probability: 0.52,
      fair_decimal_odds: 1.9231,
      books: 2,
      fair: exampleFair({
        reference: 'sharp',
        reference_fallback: null,
        books: ['betonline', 'circa'],
        implied: { away: 0.4936, home: 0.5336 },
      }).dto,
    },
    {
      market: 'nba-bos-lal-20261122|total|full|221.5',
      outcome: 'over',
      name: 'Over 221.5',
      line: 221.5,
      fair_probability: 0.5,
      fair_decimal_odds: 2,
      books: 2,
      fair: exampleFair({
        reference: 'sharp',
        reference_fallback: null,
        books: ['betonline', 'circa'],
        implied: { over: 0.5125, under: 0.5125 },
      }).dto,
    },
    {
      market: 'nba-bos-lal-20261122|prop|player_points|full|p-tatum|27.5',
      outcome: 'over',
      name: 'Jayson Tatum Points Over 27.5',
      line: 27.5,
      fair_probability: 0.48,
      fair_decimal_odds: 2.0833,
      books: 1,
      fair: exampleFair({
        reference: 'sharp',
        reference_fallback: null,
        books: ['betonline'],
        implied: { over: 0.5, under: 0.54 },
      }).dto,
    },
  ],
  fair: { probability: 0.179084, decimal_odds: 5.5839, price: '+458', model: 'scores' },
  naive: { probability: 0.1248, decimal_odds: 8.0128 },
  correlation_ratio: 1.435,
  prices: [
    {
      book: 'fanduel',
      price: '+365',
      decimal_odds: 4.65,
      margin_pct: 20.08,
      legs: [
        { desktop: null, mobile: null },
        { desktop: null, mobile: null },
        { desktop: null, mobile: null },
      ],
    },
    {
      book: 'draftkings',
      price: '+362',
      decimal_odds: 4.62,
      margin_pct: 20.86,
      legs: [
        { desktop: null, mobile: null },
        { desktop: null, mobile: null },
        { desktop: null, mobile: null },
      ],
    },
  ],
  reference: 'sharp',
  devig: DEFAULT_DEVIG_METHOD,
  prices_note: null,
  credits: { used: 1, remaining: 9999, resets_at: '2026-12-01T00:00:00.000Z' },
};

/** GET /v1/stream: the first events of a stream (`data` lines shortened to one market here). */
export const STREAM_EXAMPLE = [
  'retry: 2000',
  '',
  'id: mwytq84ng0ii-113387',
  'event: snapshot',
  `data: ${JSON.stringify({ as_of: '2026-11-22T00:00:00.000Z', delay_seconds: 0, events: [{ event: ODDS_EXAMPLE_EVENT, markets: [ODDS_EXAMPLE.events[0]!.markets[0]] }], arbs: [] })}`,
  '',
  'id: mwytq84ng0ii-113388',
  'event: price',
  `data: ${JSON.stringify({
    event_id: ODDS_EXAMPLE_EVENT.id,
    league: 'nba',
    market: {
      key: 'nba-bos-lal-20261122|moneyline|full|',
      type: 'moneyline',
      period: 'full',
      point: null,
      label: 'Moneyline',
    },
    outcome: 'home',
    name: 'Los Angeles Lakers',
    price: {
      book: 'fanduel',
      american: '+125',
      decimal: 2.25,
      implied_prob: 0.444444,
      updated_at: '2026-11-22T00:00:01.250Z',
      suspended: false,
      links: { desktop: null, mobile: null },
    },
  })}`,
  '',
  'id: mwytq84ng0ii-113389',
  'event: arb',
  `data: ${JSON.stringify({ key: 'nba-bos-lal-20261122:draftkings-3kq0v8d1m2x7aa,fanduel-0p5c7u1k9w3ebb', arb: ARB_EXAMPLE })}`,
  '',
  ': heartbeat',
  '',
  'id: mwytq84ng0ii-113402',
  'event: arb_removed',
  `data: ${JSON.stringify({ key: 'nba-bos-lal-20261122:draftkings-3kq0v8d1m2x7aa,fanduel-0p5c7u1k9w3ebb', event_id: ODDS_EXAMPLE_EVENT.id })}`,
  '',
  'id: mwytq84ng0ii-113410',
  'event: score',
  `data: ${JSON.stringify({ event_id: ODDS_EXAMPLE_EVENT.id, league: 'nba', home_team: 'Los Angeles Lakers', away_team: 'Boston Celtics', commence_time: '2026-11-22T00:30:00.000Z', status: 'live', score: { home: 31, away: 28 }, periods: { q1: { home: 28, away: 26 }, q2: { home: 3, away: 2 }, h1: { home: 31, away: 28 }, full: { home: 31, away: 28 } }, clock: 'Q2', updated_at: '2026-11-22T01:02:10.000Z', completed_at: null, periods_reported: true, players: null })}`,
  '',
  '',
].join('\n');

const usageDay = (date: string, odds: number, arbs: number, stream_minutes: number, sgp_credits: number) => ({
  date,
  requests: odds + arbs + sgp_credits + 3,
  by_family: {
    odds,
    arbs,
    ev: 0,
    middles: 0,
    events: 2,
    history: 0,
    sgp: sgp_credits,
    stream: 1,
    account: 0,
    other: 0,
  },
  stream_minutes,
  sgp_credits,
});

/** A GET /v1/me/usage?days=3 answer. */
export const USAGE_EXAMPLE = {
  from: '2026-11-20',
  to: '2026-11-22',
  retention_days: 90,
  days: [
    usageDay('2026-11-20', 1840, 212, 1440, 31),
    usageDay('2026-11-21', 2215, 190, 1380, 44),
    usageDay('2026-11-22', 903, 88, 610, 12),
  ],
};

/** A POST /v1/me/rotate answer. */
/** POST /v1/me/portal (issue 56, decision 220). */
export const PORTAL_EXAMPLE = {
  url: 'https://billing.stripe.com/p/session/test_YWNjdF8xTjVQ',
  opened_at: '2026-11-22T18:04:55.000Z',
};

export const ROTATION_EXAMPLE = {
  key: 'sl_live_Qm4TQ0xw1b9KpZr7VdE2sH8uYc3NnJ6a',
  prefix: 'sl_live_Qm4TQ0',
  old_prefix: 'sl_live_7Hq2Zk',
  rotated_at: '2026-11-22T18:04:55.000Z',
};

/**
 * GET /v1/ev: one price with positive EV. Seven books price both sides of the moneyline; their consensus puts the
 * Lakers at 47 %, so BetMGM's +125 (2.25) is worth 0.47 × 2.25 − 1 = +5.75 % per unit staked.
 */
export const EV_EXAMPLE = {
  as_of: '2026-11-22T00:00:00.000Z',
  delay_seconds: 0,
  source: 'the-odds-api',
  method: 'shin',
  reference: 'consensus',
  min_books: 3,
  total: 1,
  prices: [
    {
      id: 'nba-bos-lal-20261122|moneyline|full||home|betmgm',
      event: {
        id: 'nba-bos-lal-20261122',
        league: 'nba',
        sport: 'basketball',
        home: { id: 'lal', name: 'Los Angeles Lakers', abbreviation: 'LAL' },
        away: { id: 'bos', name: 'Boston Celtics', abbreviation: 'BOS' },
        starts_at: '2026-11-22T03:30:00.000Z',
        live: false,
      },
      market: {
        key: 'nba-bos-lal-20261122|moneyline|full|',
        type: 'moneyline',
        period: 'full',
        point: null,
        label: 'Moneyline',
      },
      outcome: { outcome: 'home', name: 'Los Angeles Lakers' },
      book: 'betmgm',
      price: {
        american: '+125',
        decimal: 2.25,
        updated_at: '2026-11-21T23:59:48.000Z',
        age_seconds: 12,
        links: { desktop: 'https://sports.betmgm.com/en/sports/events/10000042', mobile: null },
      },
      fair: {
        probability: 0.47,
        decimal: 2.1276,
        american: '+112',
        books: 7,
        method: 'shin',
        reference: 'consensus',
        reference_fallback: null,
      },
      ev_pct: 5.75,
    },
  ],
};

const MIDDLE_EVENT = {
  id: 'nfl-buf-kc-20261122',
  league: 'nfl',
  sport: 'football',
  home: { id: 'kc', name: 'Kansas City Chiefs', abbreviation: 'KC' },
  away: { id: 'buf', name: 'Buffalo Bills', abbreviation: 'BUF' },
  starts_at: '2026-11-22T21:25:00.000Z',
  live: false,
};

/**
 * GET /v1/middles: one NFL spread middle. FanDuel has the Chiefs −2.5 at −105 (1.9524), DraftKings the Bills +3.5 at
 * −110 (1.9091): both win when the Chiefs win by exactly 3. The market centres the margin on Chiefs by 3 (total 44);
 * the NFL key-number model gives that landing 8.70 %. A miss loses 3.475 % of the total, a hit wins 93.05 %: EV
 * +4.9 %.
 */
export const MIDDLES_EXAMPLE = {
  as_of: '2026-11-22T00:00:00.000Z',
  delay_seconds: 0,
  source: 'the-odds-api',
  method: 'multiplicative',
  reference: 'consensus',
  min_books: 3,
  total: 1,
  middles: [
    {
      id: 'nfl-buf-kc-20261122|spread|full|fanduel:2.5|draftkings:3.5',
      event: MIDDLE_EVENT,
      market: { type: 'spread', period: 'full', variable: 'margin', label: 'Spread' },
      high: {
        book: 'fanduel',
        market_key: 'nfl-buf-kc-20261122|spread|full|-2.5',
        point: -2.5,
        outcome: { outcome: 'home', name: 'Kansas City Chiefs -2.5' },
        line: 2.5,
        price: {
          american: '-105',
          decimal: 1.9524,
          updated_at: '2026-11-21T23:59:50.000Z',
          age_seconds: 10,
          links: { desktop: 'https://sportsbook.fanduel.com/navigation/nfl', mobile: null },
        },
        stake_share: 0.494393,
      },
      low: {
        book: 'draftkings',
        market_key: 'nfl-buf-kc-20261122|spread|full|-3.5',
        point: -3.5,
        outcome: { outcome: 'away', name: 'Buffalo Bills +3.5' },
        line: 3.5,
        price: {
          american: '-110',
          decimal: 1.9091,
          updated_at: '2026-11-21T23:59:41.000Z',
          age_seconds: 19,
          links: { desktop: 'https://sportsbook.draftkings.com/leagues/football/nfl', mobile: null },
        },
        stake_share: 0.505607,
      },
      gap: { from: 3, to: 3 },
      pushes: { high: null, low: null },
      probability: { middle: 0.086955, push_high: 0, push_low: 0, miss: 0.913045 },
      returns_pct: { middle: 93.05, push_high: 45.964, push_low: 47.086, miss: -3.475 },
      worst_case_pct: -3.475,
      ev_pct: 4.918,
      stakes: { total_cents: 10_000, high_cents: 4944, low_cents: 5056 },
      model: 'nfl-key-numbers',
      centre: 3,
      centre_from: { method: 'multiplicative', reference: 'consensus', reference_fallback: null },
    },
  ],
};

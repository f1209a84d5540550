import { z } from 'zod';
import { LEAGUES, MARKET_TYPES, OUTCOME_KEYS, PERIODS, type OutcomeKey } from '../markets.ts';
import { PROP_STAT_KEYS } from '../props.ts';
import { SPORTSBOOK_KEYS } from '../sportsbooks.ts';
import { ArbSchema, FEED_SOURCES, TeamSchema } from './feed.ts';

// DTOs of the paid odds API (docs/decisions/080-086): written once here, used by the server's route schemas (and so by the
// generated OpenAPI document) and available to any client in this repository.

const LEAGUE_KEYS = Object.keys(LEAGUES) as [keyof typeof LEAGUES, ...(keyof typeof LEAGUES)[]];
export const LeagueKeySchema = z.enum(LEAGUE_KEYS).describe('League key, e.g. `nba`.');
export const MarketTypeSchema = z
  .enum(MARKET_TYPES)
  .describe(
    '`moneyline`, `spread`, `total`, `1x2`, or `prop` (a player prop: one player, stat, period and line).',
  );
/** Every outcome: the game lines' home / away / draw / over / under and the props' over / under / yes / no. */
export const OutcomeKeySchema = z.enum(OUTCOME_KEYS as [OutcomeKey, ...OutcomeKey[]]);
/** A prop's stat: The Odds API's player-prop market key (`player_points`, `player_pass_yds`, `player_anytime_td`…). */
export const PropStatSchema = z.enum(PROP_STAT_KEYS);
/** A prop's player: the event roster's id and the name books show. */
export const PlayerSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    team: z
      .enum(['home', 'away'])
      .nullable()
      .describe(
        "The player's team in this event; null when unknown (a source that names players without their team, such as The Odds API).",
      ),
  })
  .meta({ id: 'Player' });
export const PeriodSchema = z
  .enum(PERIODS)
  .describe('`full` is the whole game; `h1` first half, `q1` first quarter…');
export const BookKeySchema = z.enum(SPORTSBOOK_KEYS);
export const PlanIdSchema = z.enum(['starter', 'pro', 'elite', 'enterprise']);

export const LeagueSchema = z
  .object({
    key: LeagueKeySchema,
    name: z.string(),
    sport: z.string(),
    has_draws: z.boolean().describe('True when the full-game result market is 1X2 rather than a moneyline.'),
  })
  .meta({ id: 'League' });

export const SportSchema = z
  .object({ key: z.string(), name: z.string(), leagues: z.array(LeagueSchema) })
  .meta({ id: 'Sport' });

export const SportsResponseSchema = z.object({ sports: z.array(SportSchema) });
export const LeaguesResponseSchema = z.object({ leagues: z.array(LeagueSchema) });

export const EventSchema = z
  .object({
    id: z.string(),
    league: LeagueKeySchema,
    sport: z.string(),
    home: TeamSchema,
    away: TeamSchema,
    starts_at: z.iso.datetime().describe('Scheduled start (ISO 8601, UTC).'),
    live: z.boolean(),
  })
  .meta({ id: 'Event' });

export const EventsResponseSchema = z.object({ events: z.array(EventSchema) });
export const EventResponseSchema = z.object({
  event: EventSchema,
  players: z
    .array(PlayerSchema)
    .describe(
      "The event's roster as the odds engine holds it (the players its props can name), in the order they joined; empty when no source sent one. Filter /v1/odds by a player's `id` or name with `player`.",
    ),
});

export const PriceLinksSchema = z.object({ desktop: z.string().nullable(), mobile: z.string().nullable() });

export const PriceSchema = z
  .object({
    book: BookKeySchema,
    american: z.string().describe('American odds as text: "+150", "-110".'),
    decimal: z.number().gt(1).describe('Decimal odds (4 places).'),
    implied_prob: z.number().gt(0).lt(1),
    updated_at: z.iso.datetime().describe('When the book last changed this price.'),
    suspended: z.boolean(),
    links: PriceLinksSchema,
  })
  .meta({ id: 'Price' });

export const OutcomeSchema = z
  .object({
    outcome: OutcomeKeySchema,
    name: z
      .string()
      .describe(
        'As the book shows it: "Boston Celtics -3.5", "Over 221.5", "LeBron James Points Over 27.5", "Travis Kelce Anytime TD — Yes".',
      ),
    prices: z.array(PriceSchema),
  })
  .meta({ id: 'Outcome' });

export const MarketSchema = z
  .object({
    key: z.string(),
    type: MarketTypeSchema,
    period: PeriodSchema,
    stat: PropStatSchema.optional().describe(
      'Props only (absent for game lines): the stat, e.g. `player_points`.',
    ),
    player: PlayerSchema.optional().describe("Props only (absent for game lines): the prop's player."),
    point: z
      .number()
      .nullable()
      .describe(
        "Home team's line for spreads, the line for totals and over/under props, null otherwise (moneyline, 1X2, yes/no props).",
      ),
    label: z.string().describe('"Moneyline", "Total 221.5", "LeBron James Points Over/Under 27.5".'),
    main: z
      .boolean()
      .describe(
        'The main line of its type and period (the one most books quote); for props, of its player, stat and period. Always true for moneyline, 1X2 and yes/no props.',
      ),
    outcomes: z
      .array(OutcomeSchema)
      .describe(
        'home / away (/ draw) for game lines, over / under for totals and over/under props, yes / no for yes/no props.',
      ),
  })
  .meta({ id: 'Market' });

export const EventOddsSchema = z
  .object({ event: EventSchema, markets: z.array(MarketSchema) })
  .meta({ id: 'EventOdds' });

/**
 * One outcome of an example market (the OpenAPI examples): its one book's price, with the implied probability
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

/** A /v1/odds answer with one game line and one player prop, for the documentation. */
const ODDS_EXAMPLE_PRICE = { updated_at: '2026-11-21T23:58:12.000Z', suspended: false };
const ODDS_EXAMPLE = {
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

export const OddsResponseSchema = z
  .object({
    as_of: z.iso
      .datetime()
      .describe(
        "The instant the data reflects: now for real-time plans, now minus the plan's delay otherwise.",
      ),
    delay_seconds: z.number().int().nonnegative(),
    events: z.array(EventOddsSchema),
  })
  .meta({ id: 'OddsResponse', examples: [ODDS_EXAMPLE] });

export const ArbsResponseSchema = z
  .object({
    generated_at: z
      .number()
      .int()
      .nonnegative()
      .describe('Unix seconds: when this set of arbs was computed.'),
    source: z.enum(FEED_SOURCES).optional(),
    delay_seconds: z.number().int().nonnegative(),
    arbs: z.array(ArbSchema),
  })
  .meta({ id: 'ArbsResponse' });

// Odds history (issue 13; decisions 113 and 114). Times are ISO 8601 UTC with milliseconds; prices are American
// odds as text (`price`) beside the decimal odds the figures are computed from (`decimal_odds`).

const isoMs = () => z.iso.datetime({ precision: 3 });
const EXAMPLE_EVENT_ID = 'nba-bos-nyk-20261122';

/** The event of the history examples, live (an answer about it after the game is over says so in `ended_at`). */
const EXAMPLE_HISTORY_EVENT = {
  id: EXAMPLE_EVENT_ID,
  league: 'nba',
  sport: 'basketball',
  home: { name: 'New York Knicks', abbreviation: 'NYK' },
  away: { name: 'Boston Celtics', abbreviation: 'BOS' },
  starts_at: '2026-11-22T00:30:00.000Z',
  live: true,
  first_seen_at: '2026-11-21T09:00:00.000Z',
  live_at: '2026-11-22T00:30:02.000Z',
  ended_at: null as string | null,
  closed_at: '2026-11-22T00:30:00.000Z',
};

export const TickStateSchema = z
  .enum(['open', 'suspended', 'removed'])
  .describe(
    '`open`: a price a bettor could take. `suspended`: the book still showed this price but took no bets. `removed`: the book withdrew the price or the event ended (the price is the last one shown).',
  );

export const HistoryEventSchema = EventSchema.extend({
  first_seen_at: isoMs().describe('When the history first saw the event.'),
  live_at: isoMs().nullable().describe('When it went live (null: not yet).'),
  ended_at: isoMs().nullable().describe('When it ended (null: not yet).'),
  closed_at: isoMs()
    .nullable()
    .describe('When its closing lines were taken, at its start (null: it has not started).'),
}).meta({ id: 'HistoryEvent' });

export const LinePriceSchema = z
  .object({
    price: z.string().describe('American odds as text: "+150", "-110".'),
    decimal_odds: z.number().gt(1).describe('Decimal odds as recorded (4 places, floored).'),
    at: isoMs().describe('When the price was recorded.'),
  })
  .meta({ id: 'LinePrice' });

export const HistoryGapSchema = z
  .object({
    from: isoMs(),
    to: isoMs(),
    dropped_changes: z.number().int().nonnegative(),
    cause: z
      .enum(['queue-full', 'takeover'])
      .describe(
        '`queue-full`: the database was away and `dropped_changes` changes were lost; `takeover`: the window in which one ingest server took over from another (changes in it were not recorded, and are not counted).',
      ),
  })
  .describe('A stretch of time whose price changes the history could not store.')
  .meta({ id: 'HistoryGap' });

/** A prop's player in the history's answers: `Player`, with `team` null when the source listed him without one. */
export const HistoryPlayerSchema = z
  .object({
    id: z.string().describe('The event roster’s id (as in /v1/odds).'),
    name: z.string().describe('The name the roster gave him when the history first saw the prop.'),
    team: z
      .enum(['home', 'away'])
      .nullable()
      .describe("The player's team in this event; null when the source did not say."),
  })
  .meta({ id: 'HistoryPlayer' });

const SeriesKeyShape = {
  market: z.string().describe('The market key, as `key` in /v1/odds.'),
  market_type: MarketTypeSchema,
  period: PeriodSchema,
  line: z
    .number()
    .nullable()
    .describe("Home team's line for spreads, the line for totals and over/under props, null otherwise."),
  stat: PropStatSchema.nullable().describe('A player prop’s stat (`player_points`); null for game lines.'),
  player: HistoryPlayerSchema.nullable().describe('A player prop’s player; null for game lines.'),
  outcome: OutcomeKeySchema,
  book: BookKeySchema,
};

export const MovementPointSchema = z
  .object({
    at: isoMs(),
    price: z.string().describe('American odds as text.'),
    decimal_odds: z.number().gt(1),
    state: TickStateSchema,
  })
  .meta({ id: 'MovementPoint' });

export const CandleSchema = z
  .object({
    at: isoMs().describe('Start of the bucket [at, at + interval), aligned to the interval in UTC.'),
    open: z
      .number()
      .gt(1)
      .describe('Decimal odds in force at the bucket start, else the first open price in it.'),
    high: z.number().gt(1).describe('Highest decimal odds (the best price for a bettor).'),
    low: z.number().gt(1),
    close: z.number().gt(1).describe('The last open price of the bucket (or `open` when none changed it).'),
    american: z
      .object({ open: z.string(), high: z.string(), low: z.string(), close: z.string() })
      .describe('The same four prices as American odds text.'),
  })
  .describe(
    'OHLC of decimal odds over open prices only: a bucket where the price was suspended or removed throughout has no candle.',
  )
  .meta({ id: 'Candle' });

export const MovementIntervalSchema = z.enum(['1m', '5m', '15m', '1h']);

export const MovementSeriesSchema = z
  .object({
    ...SeriesKeyShape,
    points: z
      .array(MovementPointSchema)
      .optional()
      .describe('Every change in the window, oldest first (without `interval`).'),
    candles: z
      .array(CandleSchema)
      .optional()
      .describe('With `interval`: one candle per bucket, oldest first.'),
  })
  .meta({ id: 'MovementSeries' });

export const MovementResponseSchema = z
  .object({
    event: HistoryEventSchema,
    from: isoMs(),
    to: isoMs(),
    interval: MovementIntervalSchema.nullable(),
    series: z
      .array(MovementSeriesSchema)
      .describe(
        'The series with points (or candles) on this page, by series; a series cut by the page limit continues on the next page.',
      ),
    gaps: z
      .array(HistoryGapSchema)
      .describe('Stretches of the window where changes were lost; empty when none.'),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
  })
  .meta({
    examples: [
      {
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
      },
    ],
  });

export const FairSchema = z
  .object({
    reference: z
      .string()
      .describe(
        'The book whose prices were de-vigged (`CLV_REFERENCE_BOOK`), or `consensus` (median across books).',
      ),
    probabilities: z
      .record(z.string(), z.number().min(0).max(1))
      .describe('Fair (no-vig) probability per outcome, multiplicative de-vig, 6 places.'),
  })
  .meta({ id: 'Fair' });

export const CurrentLineSchema = LinePriceSchema.extend({ state: TickStateSchema }).meta({
  id: 'CurrentLine',
});

export const LinesResponseSchema = z
  .object({
    event: HistoryEventSchema,
    reference_book: z.string().describe('The configured reference book (`CLV_REFERENCE_BOOK`).'),
    markets: z.array(
      z
        .object({
          market: z.string().describe('The market key, as `key` in /v1/odds.'),
          market_type: MarketTypeSchema,
          period: PeriodSchema,
          line: z.number().nullable(),
          stat: PropStatSchema.nullable().describe('A player prop’s stat; null for game lines.'),
          player: HistoryPlayerSchema.nullable().describe('A player prop’s player; null for game lines.'),
          label: z.string(),
          outcomes: z.array(
            z.object({
              outcome: OutcomeKeySchema,
              name: z.string(),
              books: z.array(
                z.object({
                  book: BookKeySchema,
                  opening: LinePriceSchema.nullable().describe('The first open price (null: never open).'),
                  current: CurrentLineSchema.nullable().describe(
                    'The latest recorded change, whatever its state.',
                  ),
                  closing: LinePriceSchema.nullable().describe(
                    'The last open price at or before the start; null until the event starts.',
                  ),
                }),
              ),
            }),
          ),
          fair: z.object({
            opening: FairSchema.nullable().describe(
              "From the books' opening prices; null when no book priced every outcome.",
            ),
            closing: FairSchema.nullable().describe(
              "From the books' closing prices; null until the event starts.",
            ),
          }),
        })
        .meta({ id: 'MarketLines' }),
    ),
  })
  .meta({
    examples: [
      {
        event: EXAMPLE_HISTORY_EVENT,
        reference_book: 'pinnacle',
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
                    opening: { price: '-110', decimal_odds: 1.909, at: '2026-11-21T09:00:01.250Z' },
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
                    opening: { price: '-110', decimal_odds: 1.909, at: '2026-11-21T09:00:01.250Z' },
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
            fair: {
              opening: { reference: 'consensus', probabilities: { away: 0.5, home: 0.5 } },
              closing: { reference: 'consensus', probabilities: { away: 0.510862, home: 0.489138 } },
            },
          },
        ],
      },
    ],
  });

const americanInput = z
  .union([z.number(), z.string().regex(/^[+-]?\d+(\.\d+)?$/)])
  .transform((value) => Number(value))
  .refine(
    (value) => Number.isFinite(value) && (value >= 100 || value <= -100),
    'American odds: <= -100 or >= +100',
  )
  .describe('American odds of the bet, as a number or text: `150`, `"+150"`, `-110`.');

export const ClvBetSchema = z
  .object({
    event_id: z.string().min(1).max(200),
    market: z
      .string()
      .min(1)
      .max(300)
      .describe(
        'A market key as `key` in /v1/odds (`<event>|spread|full|-3.5`, a player prop `<event>|prop|player_points|full|<player>|27.5`; the event part may be left out), or a game-line market type (`moneyline`, `spread`, `total`, `1x2`) with `line` and `period`. Props have no shorthand: name them by key.',
      ),
    line: z
      .number()
      .optional()
      .describe("With a market type: home team's line for spreads, the line for totals (required for both)."),
    period: PeriodSchema.optional().describe('With a market type: the period (default `full`).'),
    outcome: OutcomeKeySchema,
    price: americanInput.optional(),
    decimal_odds: z
      .number()
      .gt(1)
      .max(100_000)
      .optional()
      .describe('Decimal odds of the bet (instead of `price`).'),
    book: BookKeySchema.optional().describe(
      'Where the bet was placed: the answer adds that book’s closing price.',
    ),
    placed_at: z.iso.datetime({ offset: true }).optional().describe('When the bet was placed (echoed).'),
  })
  .superRefine((bet, context) => {
    if ((bet.price === undefined) === (bet.decimal_odds === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['price'],
        message: 'Give exactly one of price or decimal_odds',
      });
    }
    if ((bet.market === 'spread' || bet.market === 'total') && bet.line === undefined) {
      context.addIssue({ code: 'custom', path: ['line'], message: 'A spread or total needs its line' });
    }
    if (bet.market === 'prop' || bet.market === 'props') {
      context.addIssue({
        code: 'custom',
        path: ['market'],
        message:
          'A player prop is named by its market key from /v1/odds (`<event>|prop|player_points|full|<player>|27.5`)',
      });
    } else if (!bet.market.includes('|') && !(MARKET_TYPES as readonly string[]).includes(bet.market)) {
      context.addIssue({
        code: 'custom',
        path: ['market'],
        message: 'A market key from /v1/odds, or one of moneyline, spread, total, 1x2',
      });
    }
  })
  .meta({ id: 'ClvBet' });

export const ClvRequestSchema = z
  .object({ bets: z.array(ClvBetSchema).min(1).max(100).describe('1 to 100 bets.') })
  .meta({
    examples: [
      {
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
      },
    ],
  });

export const ClvStatusSchema = z
  .enum(['ok', 'pending', 'unknown_market', 'unknown_event', 'no_closing_line'])
  .describe(
    '`ok`: CLV computed. `pending`: the event has not started (OLV only). `unknown_market`: we never priced this market and outcome for the event. `unknown_event`: no such event in the history. `no_closing_line`: started, but no book priced every outcome at or before the start.',
  );

export const ClvResultSchema = z
  .object({
    index: z.number().int().nonnegative().describe('Position of the bet in the request.'),
    event_id: z.string(),
    market: z.string().nullable().describe('The market key the bet resolved to (null: unknown).'),
    outcome: z.string(),
    book: z.string().nullable(),
    placed_at: z.string().nullable(),
    decimal_odds: z.number().gt(1).describe("The bet's decimal odds (from `price` exactly: +150 → 2.5)."),
    status: ClvStatusSchema,
    reference: z
      .string()
      .nullable()
      .describe('Where the fair closing probability came from: a book, or `consensus` (null: none).'),
    opening_reference: z
      .string()
      .nullable()
      .describe('Where the fair opening probability came from: a book, or `consensus` (null: none).'),
    closing: LinePriceSchema.nullable().describe(
      "The bet's book's closing price (null without `book`, or before the start).",
    ),
    fair_opening_probability: z.number().nullable().describe('6 places.'),
    fair_closing_probability: z.number().nullable().describe('6 places.'),
    clv_pct: z
      .number()
      .nullable()
      .describe('(bet decimal × fair closing probability − 1) × 100, rounded to 3 places.'),
    olv_pct: z
      .number()
      .nullable()
      .describe('(bet decimal × fair opening probability − 1) × 100, rounded to 3 places.'),
  })
  .meta({ id: 'ClvResult' });

export const ClvResponseSchema = z
  .object({
    reference_book: z.string().describe('The configured reference book (`CLV_REFERENCE_BOOK`).'),
    results: z.array(ClvResultSchema).describe('One per bet, in the order sent.'),
  })
  .meta({
    examples: [
      {
        reference_book: 'pinnacle',
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
            fair_opening_probability: 0.5,
            fair_closing_probability: 0.489138,
            clv_pct: 22.284,
            olv_pct: 25,
          },
        ],
      },
    ],
  });

export const HistoricalOddsResponseSchema = OddsResponseSchema.extend({
  at: isoMs().describe('The instant asked for: every price is the last change at or before it.'),
  previous_change_at: isoMs()
    .nullable()
    .describe("The league's last price change strictly before `at` (ask for it to step back); null: none."),
  next_change_at: isoMs()
    .nullable()
    .describe(
      "The league's first price change strictly after `at` (ask for it to step forward); null: none yet.",
    ),
}).meta({
  examples: [
    {
      as_of: '2026-11-21T18:00:00.000Z',
      delay_seconds: 0,
      at: '2026-11-21T18:00:00.000Z',
      previous_change_at: '2026-11-21T17:59:58.412Z',
      next_change_at: '2026-11-21T18:00:03.005Z',
      events: [
        {
          event: {
            id: EXAMPLE_EVENT_ID,
            league: 'nba',
            sport: 'basketball',
            home: { name: 'New York Knicks', abbreviation: 'NYK' },
            away: { name: 'Boston Celtics', abbreviation: 'BOS' },
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
    },
  ],
});

export const MeResponseSchema = z
  .object({
    key: z.object({
      prefix: z.string().describe('Public start of the key, safe to share with support.'),
      kind: z.enum(['trial', 'paid']),
      created_at: z.iso.datetime(),
      expires_at: z.iso.datetime().nullable(),
    }),
    plan: z.object({
      id: PlanIdSchema,
      name: z.string(),
      real_time: z.boolean(),
      delay_seconds: z.number().int(),
    }),
    limits: z.object({
      requests_per_minute: z.number().int().positive(),
      stream_connections: z.number().int().positive(),
    }),
    usage: z.object({
      used: z
        .number()
        .int()
        .nonnegative()
        .describe('Requests counted in the current window, this one included.'),
      remaining: z.number().int().nonnegative(),
      resets_in_seconds: z
        .number()
        .int()
        .nonnegative()
        .describe('Seconds until this one-minute window ends and the full quota is back.'),
    }),
    features: z.array(z.string()),
    sgp_credits: z
      .object({
        limit: z
          .number()
          .int()
          .nonnegative()
          .describe(
            "Same-game-parlay credits of this UTC calendar month: the plan's allowance (Elite 10,000, Enterprise 100,000) plus any credits granted for the month; 0 on plans without SGP pricing.",
          ),
        used: z
          .number()
          .int()
          .nonnegative()
          .describe('Credits spent this month: one per priced POST /v1/sgp request.'),
        remaining: z
          .number()
          .int()
          .nonnegative()
          .describe('Credits left this month (`limit` − `used`, never below 0).'),
        resets_at: z.iso
          .datetime()
          .describe(
            'Start of the next UTC month, when the allowance starts again from 0 used (unused credits do not carry over).',
          ),
      })
      .describe('Same-game-parlay credits (POST /v1/sgp) of the current month.'),
  })
  .meta({ id: 'Me' });

export const ProblemSchema = z
  .object({
    type: z.string().describe('Stable URI naming the error; switch on it, not on `title`.'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .loose()
  .meta({ id: 'Problem' });

export type EventDto = z.infer<typeof EventSchema>;
export type MarketDto = z.infer<typeof MarketSchema>;
export type PriceDto = z.infer<typeof PriceSchema>;
export type EventOddsDto = z.infer<typeof EventOddsSchema>;
export type OddsResponse = z.infer<typeof OddsResponseSchema>;
export type MeResponse = z.infer<typeof MeResponseSchema>;
export type HistoryEventDto = z.infer<typeof HistoryEventSchema>;
export type LinePriceDto = z.infer<typeof LinePriceSchema>;
export type MovementSeriesDto = z.infer<typeof MovementSeriesSchema>;
export type MovementResponse = z.infer<typeof MovementResponseSchema>;
export type LinesResponse = z.infer<typeof LinesResponseSchema>;
export type ClvBet = z.infer<typeof ClvBetSchema>;
export type ClvResult = z.infer<typeof ClvResultSchema>;
export type HistoricalOddsResponse = z.infer<typeof HistoricalOddsResponseSchema>;
export type HistoryPlayerDto = z.infer<typeof HistoryPlayerSchema>;

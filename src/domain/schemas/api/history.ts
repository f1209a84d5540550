import { z } from 'zod';
import { MARKET_TYPES } from '../../markets.ts';
import {
  BookKeySchema,
  DevigMethodSchema,
  FairReferenceSchema,
  FairSchema,
  MarketTypeSchema,
  OutcomeKeySchema,
  PeriodSchema,
  PropStatSchema,
} from './common.ts';
import {
  CLV_REQUEST_EXAMPLE,
  CLV_RESPONSE_EXAMPLE,
  HISTORICAL_ODDS_EXAMPLE,
  LINES_EXAMPLE,
  MOVEMENT_EXAMPLE,
} from './examples.ts';
import { EventSchema, OddsResponseSchema } from './odds.ts';

// Odds history (issue 13; decisions 113 and 114). Times are ISO 8601 UTC with milliseconds; prices are American
// odds as text (`price`) beside the decimal odds the figures are computed from (`decimal_odds`).

const isoMs = () => z.iso.datetime({ precision: 3 });

/** Whether text holds a control character (C0, DEL or C1): none names an event, and NUL cannot reach PostgreSQL. */
export function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** An event id as the history routes take it: 1 to 200 characters, no control characters (a 400 otherwise). */
export const EventIdSchema = z
  .string()
  .min(1)
  .max(200)
  .refine((value) => !hasControlCharacter(value), 'An event id has no control characters');

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
  .meta({ examples: [MOVEMENT_EXAMPLE] });

export const OpeningLineSchema = LinePriceSchema.extend({
  in_play: z
    .boolean()
    .describe(
      'true when this "opening" was first recorded after the event’s start (`starts_at`): an in-play price, not an opening line. It is left out of `fair.opening` and gives no OLV in /v1/clv (docs/decisions/161).',
    ),
}).meta({ id: 'OpeningLine' });

export const CurrentLineSchema = LinePriceSchema.extend({ state: TickStateSchema }).meta({
  id: 'CurrentLine',
});

export const LinesResponseSchema = z
  .object({
    event: HistoryEventSchema,
    reference_book: z
      .string()
      .describe(
        'The server’s default reference (`CLV_REFERENCE_BOOK`: `sharp`, `consensus` or a book), used when the request names none.',
      ),
    reference: z
      .string()
      .describe(
        'The reference this answer asked for (`reference=`, else `reference_book`); each fair says what it actually came from.',
      ),
    devig: DevigMethodSchema.describe('The de-vig method of every fair probability in this answer.'),
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
                  opening: OpeningLineSchema.nullable().describe(
                    'The first open price (null: never open); `in_play` when it was first recorded after the start.',
                  ),
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
              "From the books' opening prices recorded at or before the start; null when no book priced every outcome before it (openings first recorded after the start are in-play prices, marked `in_play`, and left out).",
            ),
            closing: FairSchema.nullable().describe(
              "From the books' closing prices; null until the event starts.",
            ),
          }),
        })
        .meta({ id: 'MarketLines' }),
    ),
  })
  .meta({ examples: [LINES_EXAMPLE] });

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
    event_id: EventIdSchema,
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
    if (hasControlCharacter(bet.market)) {
      context.addIssue({ code: 'custom', path: ['market'], message: 'A market has no control characters' });
    } else if (bet.market === 'prop' || bet.market === 'props') {
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
  .object({
    bets: z.array(ClvBetSchema).min(1).max(100).describe('1 to 100 bets.'),
    devig: DevigMethodSchema.optional(),
    reference: FairReferenceSchema.optional(),
  })
  .meta({ examples: [CLV_REQUEST_EXAMPLE] });

export const ClvStatusSchema = z
  .enum(['ok', 'pending', 'unknown_market', 'unknown_event', 'no_closing_line', 'zero_fair_probability'])
  .describe(
    '`ok`: CLV computed. `pending`: the event has not started (OLV only). `unknown_market`: we never priced this market and outcome for the event. `unknown_event`: no such event in the history. `no_closing_line`: started, but no book priced every outcome at or before the start. `zero_fair_probability`: the fair closing probability of the outcome is 0 (`devig=additive` gives 0 to an outcome priced below its share of the margin), so there is no value to measure.',
  );

export const ClvOlvReasonSchema = z
  .enum(['opening_in_play', 'no_opening_line', 'zero_fair_probability'])
  .describe(
    '`opening_in_play`: every price of this market was first recorded after the event’s start: in-play prices, not openings, so there is no opening line value (docs/decisions/161). `no_opening_line`: no book priced every outcome. `zero_fair_probability`: the fair opening probability of the outcome is 0 (`devig=additive`).',
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
      .describe('Where the fair closing probability came from: a book, `sharp` or `consensus` (null: none).'),
    opening_reference: z
      .string()
      .nullable()
      .describe('Where the fair opening probability came from: a book, `sharp` or `consensus` (null: none).'),
    closing: LinePriceSchema.nullable().describe(
      "The bet's book's closing price (null without `book`, or before the start).",
    ),
    fair_opening_probability: z.number().nullable().describe('6 places.'),
    fair_closing_probability: z.number().nullable().describe('6 places.'),
    fair_opening: FairSchema.nullable().describe(
      'The fair opening probabilities of the whole market, with their reference, method and inputs (`implied`): what `fair_opening_probability` and `olv_pct` come from. Null when there are none.',
    ),
    fair_closing: FairSchema.nullable().describe(
      'The fair closing probabilities of the whole market, with their reference, method and inputs: what `fair_closing_probability` and `clv_pct` come from. Null before the start or when there are none.',
    ),
    clv_pct: z
      .number()
      .nullable()
      .describe('(bet decimal × fair closing probability − 1) × 100, rounded to 3 places.'),
    olv_pct: z
      .number()
      .nullable()
      .describe(
        '(bet decimal × fair opening probability − 1) × 100, rounded to 3 places; null with `olv_reason` when there is no opening line to measure against.',
      ),
    olv_reason: ClvOlvReasonSchema.nullable().describe(
      'Why `olv_pct` is null for a known market (null when it is given, or when `status` is `unknown_event` or `unknown_market`).',
    ),
  })
  .meta({ id: 'ClvResult' });

export const ClvResponseSchema = z
  .object({
    reference_book: z
      .string()
      .describe(
        'The server’s default reference (`CLV_REFERENCE_BOOK`: `sharp`, `consensus` or a book), used when the request names none.',
      ),
    reference: z
      .string()
      .describe(
        'The reference this answer asked for (`reference=`, else `reference_book`); each fair says what it actually came from.',
      ),
    devig: DevigMethodSchema.describe('The de-vig method of every fair probability in this answer.'),
    results: z.array(ClvResultSchema).describe('One per bet, in the order sent.'),
  })
  .meta({ examples: [CLV_RESPONSE_EXAMPLE] });

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
  next_cursor: z
    .string()
    .nullable()
    .describe(
      'Pass as `cursor` (with the same `league`, `at` and filters) for the next page of events; null on the last page.',
    ),
}).meta({ examples: [HISTORICAL_ODDS_EXAMPLE] });

export type HistoryEventDto = z.infer<typeof HistoryEventSchema>;
export type LinePriceDto = z.infer<typeof LinePriceSchema>;
export type MovementSeriesDto = z.infer<typeof MovementSeriesSchema>;
export type MovementResponse = z.infer<typeof MovementResponseSchema>;
export type LinesResponse = z.infer<typeof LinesResponseSchema>;
export type ClvBet = z.infer<typeof ClvBetSchema>;
export type ClvResult = z.infer<typeof ClvResultSchema>;
export type HistoricalOddsResponse = z.infer<typeof HistoricalOddsResponseSchema>;
export type HistoryPlayerDto = z.infer<typeof HistoryPlayerSchema>;

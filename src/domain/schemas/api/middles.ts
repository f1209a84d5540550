import { z } from 'zod';
import { MIDDLE_MIN_BOOKS } from '../../middles.ts';
import {
  BookKeySchema,
  DevigMethodSchema,
  FairFallbackSchema,
  FairReferenceSchema,
  OutcomeKeySchema,
  PeriodSchema,
  PlayerSchema,
  PropStatSchema,
} from './common.ts';
import { MIDDLES_EXAMPLE } from './examples.ts';
import { BOARD_SOURCE_FIELD, BOARD_TIME_FIELDS, EventSchema, PriceLinksSchema } from './odds.ts';

// GET /v1/middles (issue 36, decisions 167 and 189): pairs of opposite sides of one game's spread or total, or of one
// player's prop, at two books whose lines leave a gap where both win (src/domain/middles.ts, src/domain/prop-middles.ts).

const pct = (what: string) =>
  z.number().describe(`${what}, in percent of the total staked, rounded down to 3 places.`);
const probability = (what: string) => z.number().min(0).max(1).describe(`${what} (6 places).`);

export const MiddleSideSchema = z
  .object({
    book: BookKeySchema,
    market_key: z.string().describe('The market key of this line, as /v1/odds names it.'),
    point: z
      .number()
      .describe("The market's point as /v1/odds gives it (a spread's point is the home side's)."),
    outcome: z.object({
      outcome: OutcomeKeySchema,
      name: z.string().describe('As a bettor reads it: "Kansas City Chiefs -2.5", "Over 44.5".'),
    }),
    line: z
      .number()
      .describe(
        'The line on the variable: this side wins when the margin or total is above it (`high`) or below it (`low`), and pushes when it lands on it.',
      ),
    price: z.object({
      american: z.string().describe('The book\'s American odds as text: "+150", "-110".'),
      decimal: z.number().gt(1).describe('Decimal odds (4 places, as /v1/odds).'),
      updated_at: z.iso.datetime().describe('When the book set this price.'),
      age_seconds: z
        .number()
        .int()
        .nonnegative()
        .describe("Seconds from `updated_at` to the answer's `as_of`."),
      links: PriceLinksSchema,
    }),
    stake_share: z
      .number()
      .gt(0)
      .lt(1)
      .describe("This side's share of the total stake at the equal-payout split (6 places)."),
  })
  .meta({ id: 'MiddleSide' });

export const MiddleSchema = z
  .object({
    id: z.string().describe('Stable id of this pair (event, market type, both books and lines).'),
    event: EventSchema,
    market: z.object({
      type: z
        .enum(['spread', 'total', 'prop'])
        .describe("`spread` and `total`: a game's full-game lines; `prop`: one player's stat in one period."),
      period: PeriodSchema.describe(
        'Game middles are priced on full-game lines only (`full`); a prop middle is on its stat in its period.',
      ),
      variable: z
        .enum(['margin', 'total', 'stat'])
        .describe(
          "What the lines are on: the final margin (home − away) for spreads, the final total for totals, the player's final figure of the stat for props.",
        ),
      label: z
        .string()
        .describe(
          'As a bettor reads it: "Spread", "Total", "LeBron James Points", "Josh Allen Passing Yards".',
        ),
      stat: PropStatSchema.optional().describe(
        'Props only (absent for game lines): the stat, as /v1/odds names it.',
      ),
      player: PlayerSchema.optional().describe("Props only (absent for game lines): the prop's player."),
    }),
    high: MiddleSideSchema.describe('The side that wins above its line (the home spread side, or an over).'),
    low: MiddleSideSchema.describe('The side that wins below its line (the away spread side, or an under).'),
    gap: z
      .object({
        from: z.number().int(),
        to: z.number().int(),
      })
      .describe(
        'The final margins, totals or stat figures on which both sides win, inclusive: `high.line` < x < `low.line`.',
      ),
    pushes: z
      .object({
        high: z
          .number()
          .int()
          .nullable()
          .describe('The value on which the high side pushes (a whole-number line), or null.'),
        low: z.number().int().nullable().describe('The value on which the low side pushes, or null.'),
      })
      .describe("A push returns that side's stake; the other side wins."),
    probability: z
      .object({
        middle: probability('The chance both sides win: the final value lands in the gap'),
        push_high: probability('The chance the high side pushes and the low side wins'),
        push_low: probability('The chance the low side pushes and the high side wins'),
        miss: probability('The chance exactly one side wins: 1 − the other three'),
      })
      .describe("From the sport's score distribution centred on the market (`model`, `centre`)."),
    returns_pct: z
      .object({
        middle: pct('Profit when both sides win'),
        push_high: pct('Profit when the high side pushes'),
        push_low: pct('Profit when the low side pushes'),
        miss: pct('Profit when exactly one side wins: the worst case, a loss unless the pair is also an arb'),
      })
      .describe('What each landing pays at the equal-payout split, per 100 staked in all.'),
    worst_case_pct: pct('The worst of `returns_pct`: what the pair loses when it misses'),
    ev_pct: pct(
      'Expected value of the pair: Σ probability × return over the four landings. Most middles have a negative EV; an expectation over many bets, never a guarantee',
    ),
    stakes: z
      .object({
        total_cents: z.number().int(),
        high_cents: z.number().int(),
        low_cents: z.number().int(),
      })
      .describe(
        'The equal-payout stakes for a total of $100, in cents (the split for any total is `stake_share`).',
      ),
    model: z
      .enum([
        'nfl-key-numbers',
        'basketball',
        'nhl-goals',
        'mlb-runs',
        'soccer-dixon-coles',
        'prop-poisson',
        'prop-normal',
      ])
      .describe(
        "The league's score distributions, fitted to published historical frequencies (docs/calibration.md): `nfl-key-numbers`: a normal about the market with the key margins (3, 7, 10, 6, 4, 14, ties) fitted to a published table of NFL final margins, a smooth total; `basketball`: a normal, a tie moved to an overtime's small margins; `nhl-goals`: Poisson goals with the overtime share and empty-net goals; `mlb-runs`: negative binomial runs with extra innings; `soccer-dixon-coles`: Poisson goals with the Dixon–Coles low-score correction. For props, `prop-poisson`: a Poisson count (threes, touchdown passes, receptions, hits, total bases, strikeouts, shots, a hockey player's points and shots on goal), `prop-normal`: a normal whose σ grows with the square root of the mean (a basketball player's points, rebounds, assists and their sum; yards), discretised to whole numbers. The prop models' spreads are priors, not fitted to results.",
      ),
    centre: z
      .number()
      .describe(
        "The distribution's expected margin, total or stat (2 places): the median of the estimates of `centre_from.reference`'s books, one per book and line with both sides priced, each from the high side's chance de-vigged by `centre_from.method`.",
      ),
    centre_from: z
      .object({
        method: DevigMethodSchema.describe(
          "How each book's two prices of a line were de-vigged into the chance of the high side (`devig`; default `multiplicative`).",
        ),
        reference: z
          .string()
          .describe("Whose estimates gave the median: `consensus` (every book's), `sharp` or a book's key."),
        reference_fallback: FairFallbackSchema.nullable().describe(
          'Why the centre comes from the consensus and not from the `reference` asked for; null when it came from it.',
        ),
      })
      .describe('What `centre` was estimated from.'),
  })
  .meta({ id: 'Middle' });

export const MiddlesResponseSchema = z
  .object({
    ...BOARD_TIME_FIELDS,
    ...BOARD_SOURCE_FIELD,
    method: DevigMethodSchema.describe(
      'The de-vig method asked for (`devig`, default `multiplicative`): every centre of the answer is by it.',
    ),
    reference: FairReferenceSchema.describe(
      'The reference asked for (`reference`, default `consensus`); each middle says what its centre came from.',
    ),
    min_books: z
      .number()
      .int()
      .describe(
        `The fewest books pricing both sides of a line for a game's centre, and so its middles, to be listed (${MIDDLE_MIN_BOOKS}).`,
      ),
    total: z.number().int().nonnegative().describe('How many middles matched the filters, before `limit`.'),
    middles: z.array(MiddleSchema),
  })
  .meta({ id: 'MiddlesResponse', examples: [MIDDLES_EXAMPLE] });

export type MiddleDto = z.infer<typeof MiddleSchema>;
export type MiddlesResponse = z.infer<typeof MiddlesResponseSchema>;

import { z } from 'zod';
import {
  BookKeySchema,
  DevigMethodSchema,
  FairReferenceSchema,
  FairSchema,
  OutcomeKeySchema,
  PeriodSchema,
} from './common.ts';
import { SGP_RESPONSE_EXAMPLE } from './examples.ts';

// POST /v1/sgp (issue 16, decisions 127–129): the request and answer of the same-game-parlay pricer, as the OpenAPI
// document shows them.

export const MAX_SGP_LEGS = 10;

export const SgpLegSchema = z
  .object({
    market: z
      .string()
      .min(1)
      .max(300)
      .describe(
        'A market key as `key` in /v1/odds (`<event>|spread|full|-3.5`, a player prop `<event>|prop|player_points|full|<player>|27.5`; the event part may be left out), or a game-line market type (`moneyline`, `spread`, `total`, `1x2`) with `line` and `period`. A prop key’s `<player>` is the player’s id, or his name however it is written (as a POST /v1/grade leg’s `player`); one the event does not have is refused with 422 `sgp-unknown-player` and the players it may mean in `near_players`.',
      ),
    outcome: OutcomeKeySchema.describe('The side: `home`, `away`, `draw`, `over`, `under`, `yes`, `no`.'),
    line: z
      .number()
      .optional()
      .describe(
        "With a market type: the home team's line for spreads, the line for totals (required for both). With a key: optional, and then it must be the market's line.",
      ),
    period: PeriodSchema.optional().describe('With a market type: the period (default `full`).'),
  })
  .strict();

export const SgpRequestSchema = z
  .object({
    event_id: z
      .string()
      .min(1)
      .max(200)
      .describe('The event (`id` in /v1/events); every leg is of this event.'),
    legs: z.array(SgpLegSchema).min(2).max(MAX_SGP_LEGS).describe(`2 to ${MAX_SGP_LEGS} legs of the event.`),
    books: z
      .array(BookKeySchema)
      .min(1)
      .max(20)
      .optional()
      .describe('Only these books’ prices (default: every book that would offer the parlay).'),
    devig: DevigMethodSchema.optional(),
    reference: FairReferenceSchema.optional(),
  })
  .strict()
  .meta({
    examples: [
      {
        event_id: 'nba-bos-lal-20261122',
        legs: [
          { market: 'spread', line: -4.5, outcome: 'home' },
          { market: 'total', line: 221.5, outcome: 'over' },
          { market: 'nba-bos-lal-20261122|prop|player_points|full|p-tatum|27.5', outcome: 'over' },
        ],
      },
    ],
  });

const probability = z.number().gt(0).lt(1);
const decimalOdds = z.number().gt(1);

const SgpLegResultSchema = z.object({
  market: z.string().describe('The market key.'),
  outcome: OutcomeKeySchema,
  name: z
    .string()
    .describe('The side as a book shows it: "Boston Celtics -4.5", "Jayson Tatum Points Over 27.5".'),
  line: z
    .number()
    .nullable()
    .describe('The line of this side (away +4.5 is 4.5); null for moneylines and yes/no.'),
  fair_probability: probability.describe(
    'The leg’s fair probability (6 significant digits): its outcome in `fair`, from the reference and by the method of the request.',
  ),
  fair_decimal_odds: decimalOdds.describe('1 / fair_probability, rounded down to 4 places.'),
  books: z
    .number()
    .int()
    .nonnegative()
    .describe('Books whose prices gave the fair probability (`fair.books`).'),
  fair: FairSchema.describe(
    'The leg’s whole market de-vigged: reference, method, the books and inputs (`implied`) that give its probabilities.',
  ),
});

const SgpBookPriceSchema = z.object({
  book: BookKeySchema,
  price: z
    .string()
    .describe('The book’s parlay price, American odds as text ("+612"), from `decimal_odds`, rounded down.'),
  decimal_odds: decimalOdds.describe('Rounded down to 2 places: never more than the book pays.'),
  margin_pct: z
    .number()
    .describe('The book’s margin over the fair price, in percent: (fair odds / book odds − 1) × 100.'),
  legs: z
    .array(z.object({ desktop: z.string().nullable(), mobile: z.string().nullable() }))
    .describe('The book’s bet links for each leg, in the order of `legs` (add them to one bet slip).'),
});

export const SgpResponseSchema = z
  .object({
    event_id: z.string(),
    legs: z.array(SgpLegResultSchema),
    fair: z
      .object({
        probability: probability.describe('Probability that every leg wins, from the correlation model.'),
        decimal_odds: decimalOdds.describe('1 / probability, rounded down to 4 places.'),
        price: z
          .string()
          .describe(
            'American odds as text, rounded down to a whole point (6.0968 is "+509"): never a better price than the exact one.',
          ),
        model: z
          .enum(['goals', 'scores', 'correlation'])
          .describe(
            'The model that gave `probability`: `goals`, a soccer match’s score grid from a Dixon–Coles goals model fitted to its fair 1X2 and total (docs/decisions/166), when every leg is one the grid covers; `scores`, the league’s fitted final margin and total distributions (NFL, NBA, NCAAB, NHL, MLB; docs/calibration.md, docs/decisions/287), when two or more legs are full-game spreads, moneylines or totals or those of the league’s first part (the first half of the NBA, NCAAB and NFL, the NHL’s first period, MLB’s first five innings; docs/decisions/296), any other legs joined to them by the correlation model; else `correlation`, the correlation model (docs/decisions/127).',
          ),
      })
      .describe('The fair parlay price from the model named in `model`.'),
    naive: z
      .object({
        probability,
        decimal_odds: decimalOdds.describe('1 / probability, rounded down to 4 places.'),
      })
      .describe('The product of the legs’ fair probabilities: the price if the legs were independent.'),
    correlation_ratio: z
      .number()
      .positive()
      .describe(
        'fair.probability / naive.probability: above 1 the legs tend to win together, below 1 apart.',
      ),
    prices: z.array(SgpBookPriceSchema).describe('Each book that would offer this parlay, best price first.'),
    reference: z
      .string()
      .describe(
        'The reference asked for (`reference`, else the server’s `CLV_REFERENCE_BOOK`); each leg’s `fair` says what it came from.',
      ),
    devig: DevigMethodSchema.describe('The de-vig method of every leg’s fair probability.'),
    prices_note: z
      .string()
      .nullable()
      .describe(
        'Why `prices` is empty when it is (the source carries no parlay prices, or no book offers every leg).',
      ),
    credits: z.object({
      used: z.number().int().nonnegative(),
      remaining: z.number().int().nonnegative(),
      resets_at: z.iso.datetime().describe('Start of the next calendar month (UTC), when the credits reset.'),
    }),
  })
  .meta({ examples: [SGP_RESPONSE_EXAMPLE] });

export type SgpRequest = z.infer<typeof SgpRequestSchema>;
export type SgpLeg = z.infer<typeof SgpLegSchema>;
export type SgpResponse = z.infer<typeof SgpResponseSchema>;
export type SgpBookPrice = z.infer<typeof SgpBookPriceSchema>;
export type SgpLegResult = z.infer<typeof SgpLegResultSchema>;

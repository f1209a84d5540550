import { z } from 'zod';
import { EV_METHOD, EV_MIN_BOOKS, EV_REFERENCE } from '../../ev.ts';
import {
  BookKeySchema,
  DevigMethodSchema,
  FairFallbackSchema,
  FairReferenceSchema,
  MarketTypeSchema,
  OutcomeKeySchema,
  PeriodSchema,
} from './common.ts';
import { EV_EXAMPLE } from './examples.ts';
import { BOARD_SOURCE_FIELD, BOARD_TIME_FIELDS, EventSchema, PriceLinksSchema } from './odds.ts';

// GET /v1/ev (issue 36, decision 163): book prices with positive expected value against the market's fair
// probabilities (src/domain/ev.ts), from the reference and by the de-vig method asked for (issue 55, decision 206).

export const EvFairSchema = z
  .object({
    probability: z
      .number()
      .gt(0)
      .lt(1)
      .describe(
        "The outcome's fair probability (6 places): `reference`'s median implied probabilities, margin removed by `method`.",
      ),
    decimal: z
      .number()
      .gt(1)
      .describe('The fair price in decimal odds, 1 / probability, rounded down to 4 places.'),
    american: z
      .string()
      .describe('The fair price in American odds, rounded down to the whole point ("+104", "-112").'),
    books: z
      .number()
      .int()
      .min(EV_MIN_BOOKS)
      .describe(
        `How many books priced every side of the market (at least ${EV_MIN_BOOKS} for its prices to be listed): the consensus's books; a \`sharp\` or one-book reference takes its medians from the sharp books or the one book among them.`,
      ),
    method: DevigMethodSchema.describe(
      `How the margin was removed from the reference's medians (\`devig\`; default \`${EV_METHOD}\`), as \`devig\` on /v1/events/{eventId}/lines computes it (docs/decisions/164).`,
    ),
    reference: z
      .string()
      .describe(
        "Whose prices gave the medians: `consensus` (every book pricing every side, the book of this price included), `sharp` (the sharp books among them) or a book's key (its own prices).",
      ),
    reference_fallback: FairFallbackSchema.nullable().describe(
      'Why the fair comes from the consensus and not from the `reference` asked for (as on /v1/events/{eventId}/lines); null when it came from it.',
    ),
  })
  .meta({ id: 'EvFair' });

export const EvPriceSchema = z
  .object({
    id: z
      .string()
      .describe('Stable id of this (market, outcome, book): the same price keeps it while it lasts.'),
    event: EventSchema,
    market: z.object({
      key: z.string().describe('The market key, as /v1/odds names it.'),
      type: MarketTypeSchema,
      period: PeriodSchema,
      point: z.number().nullable(),
      label: z.string().describe('"Moneyline", "Spread -3.5", "LeBron James Points Over/Under 27.5".'),
    }),
    outcome: z.object({
      outcome: OutcomeKeySchema,
      name: z.string().describe('As a bettor reads it: "Boston Celtics", "Over 221.5".'),
    }),
    book: BookKeySchema,
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
    fair: EvFairSchema,
    ev_pct: z
      .number()
      .describe(
        'Expected value of one unit staked, in percent: (fair.probability × price.decimal − 1) × 100, rounded down to 3 places. An expectation, not a guarantee.',
      ),
  })
  .meta({ id: 'EvPrice' });

export const EvResponseSchema = z
  .object({
    ...BOARD_TIME_FIELDS,
    ...BOARD_SOURCE_FIELD,
    method: DevigMethodSchema.describe(
      `The de-vig method asked for (\`devig\`, default \`${EV_METHOD}\`): every fair of the answer is by it.`,
    ),
    reference: FairReferenceSchema.describe(
      `The reference asked for (\`reference\`, default \`${EV_REFERENCE}\`); each fair says what it came from.`,
    ),
    min_books: z.number().int().describe('The fewest books behind a fair for its prices to be listed.'),
    total: z.number().int().nonnegative().describe('How many prices matched the filters, before `limit`.'),
    prices: z.array(EvPriceSchema),
  })
  .meta({ id: 'EvResponse', examples: [EV_EXAMPLE] });

export type EvPriceDto = z.infer<typeof EvPriceSchema>;
export type EvResponse = z.infer<typeof EvResponseSchema>;

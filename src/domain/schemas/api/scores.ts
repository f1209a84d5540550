import { z } from 'zod';
import { GRADE_RESULTS, type GradeResult } from '../../grading.ts';
import { LeagueKeySchema, OutcomeKeySchema, PeriodSchema } from './common.ts';
import { EventIdSchema } from './history.ts';

// Scores and grading (issue 57): GET /v1/scores and POST /v1/grade. The grading rules: docs/grading.md.

const ScoreSchema = z.object({ home: z.number().int(), away: z.number().int() });

export const GameScoreSchema = z
  .object({
    event_id: z.string(),
    league: LeagueKeySchema,
    home_team: z.string(),
    away_team: z.string(),
    commence_time: z.string().describe('ISO 8601 start.'),
    status: z.enum(['live', 'final']).describe('`live` while in play; `final` once the result is settled.'),
    score: ScoreSchema.describe('The score as bets settle on it (overtime included; docs/grading.md).'),
    periods: z
      .partialRecord(PeriodSchema, ScoreSchema)
      .describe('Each period played so far, keyed as markets name periods (`q1`, `h1`, `f5`, `full`…).'),
    clock: z.string().nullable().describe('Where a live game is ("Q3", "2nd Half"); null once final.'),
    updated_at: z.string().describe('ISO 8601: when the source last changed this score.'),
    completed_at: z.string().nullable().describe('ISO 8601: when the result became final; null while live.'),
  })
  .meta({ id: 'GameScore' });

const SCORES_EXAMPLE = {
  includes_live: true,
  scores: [
    {
      event_id: 'nba-bos-lal-202611220030',
      league: 'nba',
      home_team: 'Los Angeles Lakers',
      away_team: 'Boston Celtics',
      commence_time: '2026-11-22T00:30:00.000Z',
      status: 'final',
      score: { home: 112, away: 108 },
      periods: {
        q1: { home: 28, away: 30 },
        q2: { home: 27, away: 25 },
        h1: { home: 55, away: 55 },
        q3: { home: 30, away: 26 },
        q4: { home: 27, away: 27 },
        h2: { home: 57, away: 53 },
        full: { home: 112, away: 108 },
      },
      clock: null,
      updated_at: '2026-11-22T03:01:12.000Z',
      completed_at: '2026-11-22T03:01:12.000Z',
    },
  ],
};

export const ScoresQuerySchema = z.object({
  league: LeagueKeySchema.optional(),
  status: z.enum(['live', 'final']).optional().describe('Only games in play (`live`) or finished (`final`).'),
  event_id: EventIdSchema.optional().describe('One event.'),
});

export const ScoresResponseSchema = z
  .object({
    includes_live: z
      .boolean()
      .describe(
        'Whether games in play are included: true on the plans with live scores and bet grading; false on the others, which get the finals only.',
      ),
    scores: z.array(GameScoreSchema),
  })
  .meta({ id: 'ScoresResponse', examples: [SCORES_EXAMPLE] });
export type ScoresResponse = z.infer<typeof ScoresResponseSchema>;

const americanInput = z
  .union([z.number(), z.string().regex(/^[+-]?\d+(\.\d+)?$/)])
  .transform((value) => Number(value))
  .refine(
    (value) => Number.isFinite(value) && (value >= 100 || value <= -100),
    'American odds: <= -100 or >= +100',
  )
  .describe('American odds, as a number or text: `150`, `"+150"`, `-110`.');

const GAME_LINES = ['moneyline', 'spread', 'total', '1x2'] as const;

export const GradeLegSchema = z
  .object({
    event_id: EventIdSchema,
    market: z.enum(GAME_LINES).describe('A game line: `moneyline`, `spread`, `total` or `1x2`.'),
    period: PeriodSchema.optional().describe('Default `full`.'),
    line: z
      .number()
      .multipleOf(0.25)
      .min(-500)
      .max(500)
      .nullable()
      .optional()
      .describe(
        "Spreads: the home team's line (home −3.5 is away +3.5); totals: the line. Whole, half and quarter lines.",
      ),
    outcome: OutcomeKeySchema,
    price: americanInput
      .optional()
      .describe('This leg’s own price (parlay legs: needed to reprice a dropped leg).'),
  })
  .meta({ id: 'GradeLeg' });

export const GradeBetSchema = z
  .object({
    legs: z.array(GradeLegSchema).min(1).max(12).describe('One leg: a single bet; more: a parlay.'),
    price: americanInput.optional(),
    decimal_odds: z.number().gt(1).max(100_000).optional().describe('Decimal odds (instead of `price`).'),
    stake: z.number().positive().max(10_000_000).describe('Stake in dollars (cents are kept: 12.34).'),
    same_game: z
      .boolean()
      .optional()
      .describe('A same-game parlay: its price is not the product of its legs (docs/grading.md).'),
  })
  .superRefine((bet, context) => {
    if ((bet.price === undefined) === (bet.decimal_odds === undefined))
      context.addIssue({
        code: 'custom',
        message: 'Give exactly one of price and decimal_odds',
        path: ['price'],
      });
    for (const [index, leg] of bet.legs.entries()) {
      const needsLine = leg.market === 'spread' || leg.market === 'total';
      if (needsLine && (leg.line === undefined || leg.line === null))
        context.addIssue({
          code: 'custom',
          message: 'Spreads and totals need a line',
          path: ['legs', index, 'line'],
        });
      if (!needsLine && leg.line !== undefined && leg.line !== null)
        context.addIssue({
          code: 'custom',
          message: 'This market has no line',
          path: ['legs', index, 'line'],
        });
    }
  })
  .meta({ id: 'GradeBet' });
export type GradeBet = z.infer<typeof GradeBetSchema>;

const GRADE_REQUEST_EXAMPLE = {
  bets: [
    {
      legs: [{ event_id: 'nba-bos-lal-202611220030', market: 'spread', line: -3.5, outcome: 'home' }],
      price: -110,
      stake: 110,
    },
  ],
};

export const GradeRequestSchema = z
  .object({ bets: z.array(GradeBetSchema).min(1).max(100).describe('1 to 100 bets.') })
  .meta({ examples: [GRADE_REQUEST_EXAMPLE] });

const ResultSchema = z.enum(GRADE_RESULTS as [GradeResult, ...GradeResult[]]);

export const GradeStatusSchema = z
  .enum(['graded', 'pending', 'unknown_event', 'outcome_not_in_market'])
  .describe(
    '`graded`: every leg settled. `pending`: a leg’s game is not final yet (the bet waits; a lost leg already loses a parlay, which is then graded). `unknown_event`: no such event. `outcome_not_in_market`: the outcome is not one of the market’s.',
  );

export const GradedLegSchema = z.object({
  event_id: z.string(),
  status: GradeStatusSchema,
  result: ResultSchema.nullable(),
  fair_closing_probability: z
    .number()
    .nullable()
    .describe('The fair closing probability of the leg’s outcome.'),
});

export const GradeResultSchema = z
  .object({
    index: z.number().int(),
    status: GradeStatusSchema,
    result: ResultSchema.nullable(),
    decimal_odds: z.number(),
    settled_decimal: z
      .number()
      .nullable()
      .describe('The price the bet was paid at (a parlay repriced without dropped legs).'),
    stake: z.number(),
    payout: z.number().nullable().describe('Dollars returned, stake included, rounded down to the cent.'),
    profit: z.number().nullable(),
    clv_pct: z
      .number()
      .nullable()
      .describe(
        '(decimal × fair closing probability − 1) × 100, a parlay against the product of its legs’; null for a same-game parlay or without a closing line.',
      ),
    legs: z.array(GradedLegSchema),
  })
  .meta({ id: 'GradeResult' });

const GRADE_RESPONSE_EXAMPLE = {
  results: [
    {
      index: 0,
      status: 'graded',
      result: 'won',
      decimal_odds: 1.909091,
      settled_decimal: 1.909091,
      stake: 110,
      payout: 210,
      profit: 100,
      clv_pct: 1.25,
      legs: [
        {
          event_id: 'nba-bos-lal-202611220030',
          status: 'graded',
          result: 'won',
          fair_closing_probability: 0.530184,
        },
      ],
    },
  ],
};

export const GradeResponseSchema = z
  .object({ results: z.array(GradeResultSchema) })
  .meta({ id: 'GradeResponse', examples: [GRADE_RESPONSE_EXAMPLE] });
export type GradeResponse = z.infer<typeof GradeResponseSchema>;

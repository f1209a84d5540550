import { z } from 'zod';
import { GRADE_RESULTS, type GradeResult } from '../../grading.ts';
import { propKindOf } from '../../market-labels.ts';
import { LeagueKeySchema, OutcomeKeySchema, PeriodSchema, PropStatSchema } from './common.ts';
import { EventIdSchema } from './history.ts';

// Scores and grading (issue 57): GET /v1/scores and POST /v1/grade. The grading rules: docs/grading.md.

const ScoreSchema = z.object({ home: z.number().int(), away: z.number().int() });

export const PlayerFiguresSchema = z
  .object({
    player_id: z.string().describe('The player’s id, as in /v1/odds props.'),
    name: z.string(),
    team: z.enum(['home', 'away']).nullable().describe('Null when the source did not say.'),
    played: z.boolean().describe('False: he did not play, and every prop on him is void.'),
    periods: z
      .partialRecord(PeriodSchema, z.partialRecord(PropStatSchema, z.number().int()))
      .describe(
        'His figures per period (`full`, and the periods of his props): each prop stat’s count, as his props settle on it (`player_double_double`: 1 or 0).',
      ),
  })
  .meta({ id: 'PlayerFigures' });

export const ClosingMarketSchema = z
  .object({
    market: z.string().describe('`moneyline`, `spread`, `total`, `1x2` or `prop`.'),
    period: z.string(),
    line: z
      .number()
      .nullable()
      .describe('A spread’s is the home team’s line; null for a market without one.'),
    stat: z.string().optional().describe('A prop’s stat.'),
    player: z.string().optional().describe('A prop’s player id.'),
    fair: z
      .record(z.string(), z.number())
      .describe('Each outcome’s fair closing probability, 6 places (an outcome at 0 left out).'),
  })
  .meta({ id: 'ClosingMarket' });

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
    periods_reported: z
      .boolean()
      .describe(
        'False when the source reports only the game’s score (The Odds API): `periods` then holds `full` alone, and bets on a period of the game are not graded (docs/grading.md).',
      ),
    players: z
      .array(PlayerFiguresSchema)
      .nullable()
      .describe(
        'A final’s box score: every player the source priced props on, with his figures (the simulator gives them; The Odds API does not: null). Null while live.',
      ),
  })
  .extend({
    closing: z
      .array(ClosingMarketSchema)
      .optional()
      .describe(
        'With `closing=true`, on a final, and on a game in play once its closing lines are taken (the plans with live scores): the fair close of each market a bet can be tracked on, as POST /v1/grade measures CLV against it (the server’s reference book and devig); empty when nothing was priced before the start.',
      ),
  })
  .meta({ id: 'GameScore' });
export type GameScoreDto = z.infer<typeof GameScoreSchema>;

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
      periods_reported: true,
      players: [
        {
          player_id: 'nba-lal-p01',
          name: 'Marcus Hale',
          team: 'home',
          played: true,
          periods: {
            full: {
              player_points: 27,
              player_rebounds: 8,
              player_assists: 5,
              player_threes: 3,
              player_points_rebounds_assists: 40,
              player_double_double: 0,
            },
          },
        },
        { player_id: 'nba-bos-p04', name: 'Devon Price', team: 'away', played: false, periods: {} },
      ],
    },
  ],
};

export const ScoresQuerySchema = z.object({
  league: LeagueKeySchema.optional(),
  status: z.enum(['live', 'final']).optional().describe('Only games in play (`live`) or finished (`final`).'),
  event_id: EventIdSchema.optional().describe('One event.'),
  closing: z
    .enum(['true'])
    .optional()
    .describe(
      'With `event_id` (required with it): a final carries `closing`, its fair close, on every plan (decision 289; the public bet tracker shows it).',
    ),
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

const MARKETS = ['moneyline', 'spread', 'total', '1x2', 'prop'] as const;

export const GradeLegSchema = z
  .object({
    event_id: EventIdSchema,
    market: z
      .enum(MARKETS)
      .describe(
        'A game line (`moneyline`, `spread`, `total`, `1x2`) or a player prop (`prop`, with `stat` and `player`).',
      ),
    stat: PropStatSchema.optional().describe('Props only: the stat, as in /v1/odds (`player_points`).'),
    player: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Props only: the player, by id (as in /v1/odds) or by name however it is written.'),
    period: PeriodSchema.optional().describe('Default `full`.'),
    line: z
      .number()
      .multipleOf(0.25)
      .min(-500)
      .max(500)
      .nullable()
      .optional()
      .describe(
        "Spreads: the home team's line (home −3.5 is away +3.5); totals and over/under props: the line. Whole, half and quarter lines.",
      ),
    outcome: OutcomeKeySchema,
    price: americanInput
      .optional()
      .describe(
        'This leg’s own price (parlay legs: needed to reprice a dropped leg, and for the leg’s `clv_pct`).',
      ),
    decimal_odds: z
      .number()
      .gt(1)
      .max(100_000)
      .optional()
      .describe('This leg’s own price in decimal odds (instead of `price`), taken as given.'),
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
      if (leg.price !== undefined && leg.decimal_odds !== undefined)
        context.addIssue({
          code: 'custom',
          message: 'Give at most one of price and decimal_odds',
          path: ['legs', index, 'price'],
        });
      const prop = leg.market === 'prop';
      if (prop !== (leg.stat !== undefined) || prop !== (leg.player !== undefined))
        context.addIssue({
          code: 'custom',
          message: prop ? 'A prop needs a stat and a player' : 'Only a prop has a stat and a player',
          path: ['legs', index, prop ? (leg.stat === undefined ? 'stat' : 'player') : 'market'],
        });
      if (prop && leg.stat === undefined) continue;
      const needsLine =
        leg.market === 'spread' ||
        leg.market === 'total' ||
        (prop && leg.stat !== undefined && propKindOf(leg.stat) === 'over_under');
      if (needsLine && (leg.line === undefined || leg.line === null))
        context.addIssue({
          code: 'custom',
          message: 'Spreads, totals and over/under props need a line',
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
    {
      legs: [
        {
          event_id: 'nba-bos-lal-202611220030',
          market: 'prop',
          stat: 'player_points',
          player: 'Marcus Hale',
          line: 25.5,
          outcome: 'over',
        },
      ],
      price: -115,
      stake: 50,
    },
    {
      legs: [
        {
          event_id: 'nba-bos-lal-202611220030',
          market: 'prop',
          stat: 'player_rebounds',
          player: 'Marcus Hail',
          line: 6.5,
          outcome: 'under',
        },
      ],
      price: 100,
      stake: 20,
    },
  ],
};

export const GradeRequestSchema = z
  .object({ bets: z.array(GradeBetSchema).min(1).max(100).describe('1 to 100 bets.') })
  .meta({ examples: [GRADE_REQUEST_EXAMPLE] });

const ResultSchema = z.enum(GRADE_RESULTS as [GradeResult, ...GradeResult[]]);

export const GradeStatusSchema = z
  .enum(['graded', 'pending', 'not_graded', 'unknown_event', 'unknown_player', 'outcome_not_in_market'])
  .describe(
    '`graded`: every leg settled. `pending`: a leg’s game is not final yet (the bet waits; a lost leg already loses a parlay, which is then graded). `not_graded`: the source gives no result for a leg’s market (a prop without player figures, a period of a game scored only as a whole: The Odds API; docs/grading.md). `unknown_event`: no such event. `unknown_player`: no player, or two, answer to the leg’s `player` among the event’s props and box score (`detail` says which name, `near_players` whom it may mean). `outcome_not_in_market`: the outcome is not one of the market’s.',
  );

export const GradedLegSchema = z.object({
  event_id: z.string(),
  status: GradeStatusSchema,
  result: ResultSchema.nullable(),
  fair_closing_probability: z
    .number()
    .nullable()
    .describe(
      'The fair closing probability of the leg’s outcome, from its game’s closing lines (known once the game has started, final or not).',
    ),
  clv_pct: z
    .number()
    .nullable()
    .describe(
      'The leg’s own CLV: (its decimal price × `fair_closing_probability` − 1) × 100, its price being the leg’s `price` (a single’s: the bet’s); null without that price or without a close. A parlay lost on its first leg shows here what each leg with a close was worth, before the ticket’s `clv_pct` (every leg’s close) is known.',
    ),
  detail: z
    .string()
    .optional()
    .describe(
      'Why the leg could not be graded, in words (`unknown_player`: the name looked for, and the players it may mean).',
    ),
  near_players: z
    .array(
      z.object({
        id: z.string().describe('The player’s id: send it as `player` to name him exactly.'),
        name: z.string().describe('His name (empty when the event knows only his id).'),
      }),
    )
    .max(3)
    .optional()
    .describe(
      '`unknown_player` only: the event’s players the leg’s `player` may mean, at most 3, the closest first: names (or ids) within a third of its letters in edits once folded as grading compares names (case, accents, punctuation, suffixes), or of the same surname; two players of the very name it gives (ambiguous: send the id). Empty when none is close.',
    ),
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
    detail: z
      .string()
      .optional()
      .describe(
        'Why the bet could not be graded, in words, when a leg says (`unknown_player`; a parlay’s begins “Leg n:”).',
      ),
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
      clv_pct: 1.217,
      legs: [
        {
          event_id: 'nba-bos-lal-202611220030',
          status: 'graded',
          result: 'won',
          fair_closing_probability: 0.530184,
          clv_pct: 1.217,
        },
      ],
    },
    {
      index: 1,
      status: 'graded',
      result: 'won',
      decimal_odds: 1.869565,
      settled_decimal: 1.869565,
      stake: 50,
      payout: 93.47,
      profit: 43.47,
      clv_pct: -2.409,
      legs: [
        {
          event_id: 'nba-bos-lal-202611220030',
          status: 'graded',
          result: 'won',
          fair_closing_probability: 0.522,
          clv_pct: -2.409,
        },
      ],
    },
    {
      index: 2,
      status: 'unknown_player',
      result: null,
      decimal_odds: 2,
      settled_decimal: null,
      stake: 20,
      payout: null,
      profit: null,
      clv_pct: null,
      legs: [
        {
          event_id: 'nba-bos-lal-202611220030',
          status: 'unknown_player',
          result: null,
          fair_closing_probability: null,
          clv_pct: null,
          detail:
            'No player named “Marcus Hail” in this event’s props or box score; did you mean Marcus Hale (p-marcus-hale)?',
          near_players: [{ id: 'p-marcus-hale', name: 'Marcus Hale' }],
        },
      ],
      detail:
        'No player named “Marcus Hail” in this event’s props or box score; did you mean Marcus Hale (p-marcus-hale)?',
    },
  ],
};

export const GradeResponseSchema = z
  .object({ results: z.array(GradeResultSchema) })
  .meta({ id: 'GradeResponse', examples: [GRADE_RESPONSE_EXAMPLE] });
export type GradeResponse = z.infer<typeof GradeResponseSchema>;

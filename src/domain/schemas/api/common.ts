import { z } from 'zod';
import { LEAGUES, MARKET_TYPES, OUTCOME_KEYS, PERIODS, type OutcomeKey } from '../../markets.ts';
import { PLAN_IDS, type PlanId } from '../../plans.ts';
import { PROP_STAT_KEYS } from '../../props.ts';
import { DEFAULT_DEVIG_METHOD, DEVIG_METHODS } from '../../devig.ts';
import { SHARP_BOOKS, SPORTSBOOK_KEYS } from '../../sportsbooks.ts';
import { LEAGUES_EXAMPLE, SPORTS_EXAMPLE } from './examples.ts';

// The paid odds API's DTOs (docs/decisions/080-086) are written once, in this folder, one module per resource family:
// used by the server's route schemas (and so by the generated OpenAPI document) and available to any client in this
// repository. This module holds what every family names: the keys of leagues, markets, outcomes, stats, periods,
// books and plans, a prop's player, the leagues and sports (/v1/sports, /v1/leagues), and the problem answer.

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
export type PlayerDto = z.infer<typeof PlayerSchema>;
export const PeriodSchema = z
  .enum(PERIODS)
  .describe('`full` is the whole game; `h1` first half, `q1` first quarter…');
export const BookKeySchema = z.enum(SPORTSBOOK_KEYS);

// Fair (no-vig) probabilities (issue 35, decision 164): how the margin is removed, what from, and with what inputs.

export const DevigMethodSchema = z
  .enum(DEVIG_METHODS)
  .describe(
    `How the margin is removed from the implied probabilities q = 1/decimal (default \`${DEFAULT_DEVIG_METHOD}\`): \`multiplicative\` q / Σq; \`additive\` q − (Σq − 1) / n (an outcome that would go below 0 gets 0); \`power\` q^k with Σ q^k = 1; \`shin\` Shin's model, (√(z² + 4(1 − z) q² / Σq) − z) / (2(1 − z)) with z such that the probabilities sum to 1 (on two outcomes the same as \`additive\`). Shin and power take more from longshots than from favourites, as the favourite–longshot bias asks (docs/decisions/164).`,
  );

export const FAIR_REFERENCES = ['consensus', 'sharp', ...SPORTSBOOK_KEYS] as const;

export const FairReferenceSchema = z
  .enum(FAIR_REFERENCES)
  .describe(
    `Whose prices the fair probabilities come from: \`consensus\` (the median implied probability per outcome across every book that priced every outcome), \`sharp\` (the same across the sharp books: ${SHARP_BOOKS.join(', ')}), or one book's key (its own prices). When it cannot give them (the book did not price every outcome, no sharp book did), the consensus does, and the fair says so in \`reference_fallback\`. Default: the server's \`CLV_REFERENCE_BOOK\`.`,
  );

export const FairFallbackSchema = z
  .enum(['book_not_carried', 'book_missing_outcomes', 'no_sharp_book'])
  .describe(
    'Why the fair probabilities come from the consensus and not from the reference asked for: `book_not_carried` (no source carries that book, e.g. `pinnacle`), `book_missing_outcomes` (the book did not price every outcome of this market), `no_sharp_book` (no sharp book priced every outcome).',
  );

export const FairSchema = z
  .object({
    reference: z.string().describe('What the probabilities came from: a book’s key, `sharp` or `consensus`.'),
    reference_fallback: FairFallbackSchema.nullable().describe(
      'Why `reference` is not the reference asked for; null when it is.',
    ),
    method: DevigMethodSchema,
    books: z.array(BookKeySchema).describe('The books whose prices were used.'),
    implied: z
      .record(z.string(), z.number().gt(0).lt(1))
      .describe(
        'The input per outcome, at full precision: 1/decimal of the reference book, or the median 1/decimal across `books` (the mean of the two middle ones for an even count). `method` applied to these gives `probabilities`.',
      ),
    probabilities: z
      .record(z.string(), z.number().min(0).max(1))
      .describe('Fair (no-vig) probability per outcome, 6 places.'),
  })
  .meta({ id: 'Fair' });

export type FairDto = z.infer<typeof FairSchema>;
export const PlanIdSchema = z.enum(PLAN_IDS as readonly [PlanId, ...PlanId[]]);

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

export const SportsResponseSchema = z
  .object({ sports: z.array(SportSchema) })
  .meta({ examples: [SPORTS_EXAMPLE] });
export const LeaguesResponseSchema = z
  .object({ leagues: z.array(LeagueSchema) })
  .meta({ examples: [LEAGUES_EXAMPLE] });

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

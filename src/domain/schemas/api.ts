import { z } from 'zod';
import { LEAGUES, MARKET_TYPES, PERIODS } from '../markets.ts';
import { SPORTSBOOK_KEYS } from '../sportsbooks.ts';
import { ArbSchema, FEED_SOURCES, TeamSchema } from './feed.ts';

// DTOs of the paid odds API (docs/decisions/080-086): written once here, used by the server's route schemas (and so by the
// generated OpenAPI document) and available to any client in this repository.

const LEAGUE_KEYS = Object.keys(LEAGUES) as [keyof typeof LEAGUES, ...(keyof typeof LEAGUES)[]];
export const LeagueKeySchema = z.enum(LEAGUE_KEYS).describe('League key, e.g. `nba`.');
export const MarketTypeSchema = z.enum(MARKET_TYPES);
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
export const EventResponseSchema = z.object({ event: EventSchema });

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
    outcome: z.enum(['home', 'away', 'draw', 'over', 'under']),
    name: z.string().describe('As the book shows it: "Boston Celtics -3.5", "Over 221.5".'),
    prices: z.array(PriceSchema),
  })
  .meta({ id: 'Outcome' });

export const MarketSchema = z
  .object({
    key: z.string(),
    type: MarketTypeSchema,
    period: PeriodSchema,
    point: z
      .number()
      .nullable()
      .describe("Home team's line for spreads, the line for totals, null otherwise."),
    label: z.string(),
    main: z
      .boolean()
      .describe(
        'The main line of its type and period (the one most books quote); always true for moneyline and 1X2.',
      ),
    outcomes: z.array(OutcomeSchema),
  })
  .meta({ id: 'Market' });

export const EventOddsSchema = z
  .object({ event: EventSchema, markets: z.array(MarketSchema) })
  .meta({ id: 'EventOdds' });

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
  .meta({ id: 'OddsResponse' });

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

export const PriceVersionSchema = z.object({
  american: z.string(),
  decimal: z.number().gt(1),
  updated_at: z.iso.datetime(),
  suspended: z.boolean(),
});

export const MovementResponseSchema = z.object({
  event: EventSchema,
  markets: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      outcomes: z.array(
        z.object({
          outcome: z.string(),
          name: z.string(),
          books: z.array(
            z.object({
              book: BookKeySchema,
              versions: z
                .array(PriceVersionSchema)
                .describe('Newest first, over the last few minutes the engine keeps.'),
            }),
          ),
        }),
      ),
    }),
  ),
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

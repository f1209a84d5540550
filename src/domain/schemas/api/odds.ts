import { z } from 'zod';
import { ArbSchema, FEED_SOURCES, TeamSchema } from '../feed.ts';
import {
  BookKeySchema,
  LeagueKeySchema,
  MarketTypeSchema,
  OutcomeKeySchema,
  PeriodSchema,
  PlayerSchema,
  PropStatSchema,
} from './common.ts';
import { ARBS_EXAMPLE, EVENT_EXAMPLE, EVENTS_EXAMPLE, ODDS_EXAMPLE } from './examples.ts';

// The live board (docs/decisions/080-086, 124): GET /v1/events, /v1/events/{eventId}, /v1/odds and /v1/arbs; the
// stream (GET /v1/stream) sends the same shapes.

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

export const EventsResponseSchema = z
  .object({ events: z.array(EventSchema) })
  .meta({ examples: [EVENTS_EXAMPLE] });
export const EventResponseSchema = z
  .object({
    event: EventSchema,
    players: z
      .array(PlayerSchema)
      .describe(
        "The event's roster as the odds engine holds it (the players its props can name), in the order they joined; empty when no source sent one. Filter /v1/odds by a player's `id` or name with `player`.",
      ),
  })
  .meta({ examples: [EVENT_EXAMPLE] });

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

/** The instant a board answer reflects and the plan's delay behind it: the same two fields on odds, EV and middles. */
/** Where a board's prices come from (GET /v1/ev, /v1/middles): `simulator` is demo data, never real odds. */
export const BOARD_SOURCE_FIELD = {
  source: z
    .enum(FEED_SOURCES)
    .describe('Where the prices come from: `simulator` is demo data (simulated prices, never real odds).'),
};

export const BOARD_TIME_FIELDS = {
  as_of: z.iso
    .datetime()
    .describe(
      "The instant the data reflects: now for real-time plans, now minus the plan's delay otherwise.",
    ),
  delay_seconds: z.number().int().nonnegative(),
};

export const OddsResponseSchema = z
  .object({
    ...BOARD_TIME_FIELDS,
    events: z.array(EventOddsSchema),
  })
  .meta({ id: 'OddsResponse', examples: [ODDS_EXAMPLE] });

export const ArbsResponseSchema = z
  .object({
    generated_at: z
      .number()
      .int()
      .nonnegative()
      .describe(
        'Unix seconds: when the arbs above `delayed_above_edge_pct` were computed (`delay_seconds` before `realtime_generated_at`); on a real-time plan, when every arb was.',
      ),
    realtime_generated_at: z
      .number()
      .int()
      .nonnegative()
      .describe(
        'Unix seconds: when the real-time arbs (at or below `delayed_above_edge_pct`, or every arb on a real-time plan) were computed. Equal to `generated_at` on a real-time plan.',
      ),
    source: z.enum(FEED_SOURCES).optional(),
    delay_seconds: z.number().int().nonnegative(),
    delayed_above_edge_pct: z
      .number()
      .nullable()
      .describe(
        'Arbs at or below this edge (near-arbs included) are real time, as the public page shows them; only those above it are `delay_seconds` late. Null on a real-time plan.',
      ),
    arbs: z.array(ArbSchema),
  })
  .meta({ id: 'ArbsResponse', examples: [ARBS_EXAMPLE] });

export type EventDto = z.infer<typeof EventSchema>;
export type MarketDto = z.infer<typeof MarketSchema>;
export type PriceDto = z.infer<typeof PriceSchema>;
export type EventOddsDto = z.infer<typeof EventOddsSchema>;
export type OddsResponse = z.infer<typeof OddsResponseSchema>;

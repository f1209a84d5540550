import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LeagueKeySchema, ProblemSchema } from '#domain/schemas/api/common.ts';
import { EventResponseSchema, EventsResponseSchema } from '#domain/schemas/api/odds.ts';
import { toEventDto } from '#domain/event-dto.ts';
import { eventPlayers, listEvents } from '../views.ts';
import { booleanParam, COMMON_ERRORS, eventNotFound, security, tags } from './common.ts';

// GET /v1/events and GET /v1/events/{eventId}: the current events, by start time.

const timeParam = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));

const EventsQuery = z.object({
  league: LeagueKeySchema.optional(),
  live: booleanParam.optional(),
  starts_after: timeParam.optional().describe('ISO 8601; events starting at or after it.'),
  starts_before: timeParam.optional().describe('ISO 8601; events starting at or before it.'),
});

export async function eventRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const store = app.engine.store;

  routes.get(
    '/events',
    {
      schema: {
        tags,
        security,
        summary: 'Events, by start time',
        querystring: EventsQuery,
        response: {
          200: EventsResponseSchema.describe(
            'The current events (upcoming and live) matching the filters, by start time; an event leaves the list when its game ends.',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request) => {
      const { league, live, starts_after: startsAfter, starts_before: startsBefore } = request.query;
      return { events: listEvents(store, { league, live, startsAfter, startsBefore }).map(toEventDto) };
    },
  );

  routes.get(
    '/events/:eventId',
    {
      schema: {
        tags,
        security,
        summary: 'One event, with its players',
        description:
          "The event and its roster: the players its props name (`player` of a prop market in /v1/odds). Pass a player's `id` (or name) as `player` to /v1/odds for that player's props.",
        params: z.object({ eventId: z.string().min(1).max(200) }),
        response: {
          200: EventResponseSchema.describe('The event and the players its props name.'),
          ...COMMON_ERRORS,
          404: ProblemSchema.describe('No such event (`event-not-found`).'),
        },
      },
    },
    async (request) => {
      const event = store.event(request.params.eventId);
      if (!event) throw eventNotFound(request.params.eventId);
      return { event: toEventDto(event), players: eventPlayers(store, event) };
    },
  );
}

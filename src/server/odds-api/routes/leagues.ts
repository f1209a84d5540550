import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LEAGUES } from '#domain/markets.ts';
import { LeaguesResponseSchema, SportsResponseSchema } from '#domain/schemas/api/common.ts';
import { COMMON_ERRORS, security, tags } from './common.ts';

// GET /v1/sports and GET /v1/leagues: the catalogue of leagues, by sport.

const SPORT_NAMES: Record<string, string> = {
  basketball: 'Basketball',
  football: 'American football',
  baseball: 'Baseball',
  hockey: 'Ice hockey',
  soccer: 'Soccer',
};

export async function leagueRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/sports',
    {
      schema: {
        tags,
        security,
        summary: 'Sports and their leagues',
        response: {
          200: SportsResponseSchema.describe('Every sport the API covers, each with its leagues.'),
          ...COMMON_ERRORS,
        },
      },
    },
    async () => {
      const bySport = new Map<string, (typeof LEAGUES)[keyof typeof LEAGUES][]>();
      for (const league of Object.values(LEAGUES))
        bySport.set(league.sport, [...(bySport.get(league.sport) ?? []), league]);
      return {
        sports: [...bySport].map(([key, leagues]) => ({
          key,
          name: SPORT_NAMES[key] ?? key,
          leagues: leagues.map((league) => ({
            key: league.key,
            name: league.name,
            sport: league.sport,
            has_draws: league.hasDraws,
          })),
        })),
      };
    },
  );

  routes.get(
    '/leagues',
    {
      schema: {
        tags,
        security,
        summary: 'Leagues',
        response: {
          200: LeaguesResponseSchema.describe(
            'Every league: its key (the `league` parameter of the other routes), name, sport and whether its result market has a draw.',
          ),
          ...COMMON_ERRORS,
        },
      },
    },
    async () => ({
      leagues: Object.values(LEAGUES).map((league) => ({
        key: league.key,
        name: league.name,
        sport: league.sport,
        has_draws: league.hasDraws,
      })),
    }),
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { marketLabel, outcomeLabel } from '#domain/markets.ts';
import { formatAmerican } from '#domain/odds.ts';
import { MovementResponseSchema, ProblemSchema } from '#domain/schemas/api.ts';
import { requireFeature } from '../auth.ts';
import { API_FEATURES } from '#domain/plans.ts';
import { toEventDto, visibleVersion } from '../views.ts';
import { COMMON_ERRORS, eventNotFound, security, tags } from './common.ts';

// GET /v1/events/{eventId}/movement: every version of every price the engine still holds for one event (Enterprise).

export async function movementRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const store = app.engine.store;

  routes.get(
    '/events/:eventId/movement',
    {
      schema: {
        tags,
        security,
        summary: 'Line movement of one event (Enterprise)',
        description: 'Every version of every price the engine still holds for the event, newest first.',
        params: z.object({ eventId: z.string().min(1).max(200) }),
        response: {
          200: MovementResponseSchema,
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `required_plan` names the plan that includes it.',
          ),
          404: ProblemSchema.describe('No such event (`event-not-found`).'),
        },
      },
    },
    async (request) => {
      requireFeature(request, API_FEATURES.lineMovement);
      const event = store.event(request.params.eventId);
      if (!event) throw eventNotFound(request.params.eventId);
      return {
        event: toEventDto(event),
        markets: store.markets(event.id).map((market) => ({
          key: market.key,
          label: marketLabel(market.spec),
          outcomes: market.outcomes.map((outcome, index) => ({
            outcome,
            name: outcomeLabel(event, market.spec, outcome),
            books: [...market.prices[index]!.values()].map((newest) => {
              const versions = [];
              for (let version = visibleVersion(newest, undefined); version; version = version.previous) {
                versions.push({
                  american: formatAmerican(version.american),
                  decimal: version.decimal,
                  updated_at: new Date(version.updatedAt).toISOString(),
                  suspended: version.suspended,
                });
              }
              return { book: newest.book, versions };
            }),
          })),
        })),
      };
    },
  );
}

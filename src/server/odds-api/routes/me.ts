import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MeResponseSchema } from '#domain/schemas/api.ts';
import { delayMs } from '#domain/plans.ts';
import { COMMON_ERRORS, security, tags } from './common.ts';

// GET /v1/me: the key's plan, limits and usage, and its same-game-parlay credits this month (decision 128).

export async function meRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/me',
    {
      schema: {
        tags,
        security,
        summary: "Your key's plan, limits and usage",
        response: { 200: MeResponseSchema, ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      const quota = request.quota!;
      const credits = await app.sgpCredits.usage(key);
      return {
        key: {
          prefix: key.prefix,
          kind: key.kind,
          created_at: key.createdAt.toISOString(),
          expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
        },
        plan: {
          id: key.plan.id,
          name: key.plan.name,
          real_time: key.plan.realTime,
          delay_seconds: delayMs(key.plan) / 1000,
        },
        limits: { requests_per_minute: quota.limit, stream_connections: key.plan.streamConnections },
        usage: {
          used: quota.limit - quota.remaining,
          remaining: quota.remaining,
          resets_in_seconds: quota.resetSeconds,
        },
        features: [...key.plan.apiFeatures],
        sgp_credits: {
          limit: credits.limit,
          used: credits.used,
          remaining: credits.remaining,
          resets_at: credits.resetsAt.toISOString(),
        },
      };
    },
  );
}

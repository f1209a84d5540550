import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { SITE } from '#domain/site.ts';
import { PROBLEM_CONTENT_TYPE, problemType } from '../http/problem.ts';
import { apiAuthPlugin } from './auth.ts';
import { docsRoutes } from './docs.ts';
import { apiKeysPlugin } from './keys.ts';
import { arbRoutes } from './routes/arbs.ts';
import { eventRoutes } from './routes/events.ts';
import { leagueRoutes } from './routes/leagues.ts';
import { meRoutes } from './routes/me.ts';
import { clvRoutes } from './routes/clv.ts';
import { historicalOddsRoutes } from './routes/historical-odds.ts';
import { linesRoutes } from './routes/lines.ts';
import { movementRoutes } from './routes/movement.ts';
import { oddsRoutes } from './routes/odds.ts';
import { RedisRevocationBus } from './revocation-bus.ts';
import { sgpRoutes } from './routes/sgp.ts';
import { sgpCreditsPlugin } from './sgp-credits.ts';
import { createStreamHub, streamRoutes, type StreamOptions } from './streaming/stream.ts';

// The paid odds API (docs/decisions/080-086) as one plugin: keys, the OpenAPI document generated from the /v1 route
// schemas, the reference page, and /v1 (REST + server-sent events) behind key auth and rate limits.

export interface ApiPluginOptions {
  stream?: Partial<StreamOptions>;
  /** Clock of the delayed tiers, quota windows, stream hub, key lookups and SGP credit months (unix ms); tests pass a virtual clock. */
  now?: () => number;
  /** How long a key lookup is trusted (default 2 s); tests lengthen it to show the Redis invalidation. */
  keyCacheMs?: number;
}

export const OPENAPI_INFO = {
  title: `${SITE.brand} Odds API`,
  version: '1.0.0',
  description: `Real-time and delayed sports betting odds from 15 sportsbooks, arbitrage opportunities, and a server-sent events stream. Authenticate with the \`X-Api-Key\` header. Every answer carries \`RateLimit-Policy\`, \`RateLimit\` and \`X-RateLimit-Limit/Remaining/Reset\`; errors are RFC 9457 \`application/problem+json\` with a stable \`type\`.`,
};

/**
 * The converter leaves out the `examples` of a request body's zod schema (its input JSON schema drops top-level
 * metadata): they are put back so that the document shows them as the body's example (POST /v1/clv).
 */
function withBodyExamples(
  body: unknown,
  transformed: ReturnType<typeof jsonSchemaTransform>,
): ReturnType<typeof jsonSchemaTransform> {
  const examples = body instanceof z.ZodType ? z.globalRegistry.get(body)?.examples : undefined;
  const json = (transformed.schema as Record<string, unknown>).body;
  if (!Array.isArray(examples) || typeof json !== 'object' || json === null) return transformed;
  return { ...transformed, schema: { ...transformed.schema, body: { ...json, examples } } };
}

async function api(app: FastifyInstance, options: ApiPluginOptions) {
  await app.register(apiKeysPlugin, {
    cacheMs: options.keyCacheMs,
    now: options.now,
    billingGraceMs: app.config.BILLING_GRACE_HOURS * 3_600_000,
  });
  await app.register(sgpCreditsPlugin, { now: options.now });
  const { REDIS_URL, REDIS_PREFIX } = app.config;
  if (REDIS_URL) {
    const bus = new RedisRevocationBus(REDIS_URL, `${REDIS_PREFIX}api-keys:revoked`, app.apiKeys, app.log);
    await bus.start();
    app.addHook('onClose', () => bus.close());
  }
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      servers: [{ url: app.config.SITE_URL }],
      tags: [{ name: 'Odds API', description: 'REST and streaming endpoints under /v1.' }],
      components: {
        securitySchemes: {
          ApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description:
              'Your key (`sl_live_…` or `sl_trial_…`). Only `/v1/stream` also accepts `?api_key=`, for EventSource.',
          },
        },
      },
    },
    // Only /v1 appears in the document: the site, the public feed and the operators' routes are not part of the API.
    transform: (input) =>
      input.url.startsWith('/v1')
        ? withBodyExamples(input.schema?.body, jsonSchemaTransform(input))
        : { schema: { hide: true }, url: input.url },
    transformObject: jsonSchemaTransformObject,
  });
  const now = options.now ?? Date.now;
  const hub = createStreamHub(app, options.stream ?? {}, now);
  await app.register(
    async (v1) => {
      // JSON answers of 1 KiB or more are compressed (br, else gzip) when the client accepts it; /v1/odds, the big
      // one, opts out and serves gzip assembled from cached pieces instead (decision 084). The stream is hijacked.
      await v1.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
      await v1.register(apiAuthPlugin);
      // In this order: the OpenAPI document lists the paths as they were registered.
      await v1.register(leagueRoutes);
      await v1.register(eventRoutes);
      await v1.register(oddsRoutes, { now });
      await v1.register(arbRoutes, { now });
      await v1.register(movementRoutes, { now });
      await v1.register(linesRoutes);
      await v1.register(clvRoutes);
      await v1.register(historicalOddsRoutes, { now });
      await v1.register(sgpRoutes, { now });
      await v1.register(meRoutes);
      await v1.register(streamRoutes, { hub });
      v1.setNotFoundHandler((request, reply) =>
        reply
          .code(404)
          .type(PROBLEM_CONTENT_TYPE)
          .send({
            type: problemType('not-found'),
            title: 'Not found',
            status: 404,
            detail: `No API route for ${request.method} ${request.url.split('?')[0]}; see /docs.`,
          }),
      );
    },
    { prefix: '/v1' },
  );
  await app.register(docsRoutes);
}

/** Not encapsulated, so that `app.apiKeys`, `app.sgpCredits`, `app.streamHub` and `app.swagger()` are visible to tests and the admin routes. */
export const apiPlugin = fp(api, {
  name: 'api',
  dependencies: ['db', 'engine', 'history', 'secrets', 'rate-limit'],
});

import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { coverage } from '#domain/coverage.ts';
import { absoluteUrl, ROUTES, SITE } from '#domain/site.ts';
import { requireJsonBody, routeMethods, sendMethodNotAllowed } from '../http/method-and-media.ts';
import { sendNotFound } from '../http/not-found.ts';
import { apiAuthPlugin } from './auth.ts';
import { docsRoutes } from './docs.ts';
import { lintableDocument } from './openapi-document.ts';
import { withResponseExamples } from './openapi-responses.ts';
import { apiKeysPlugin } from '../keys/plugin.ts';
import { arbRoutes } from './routes/arbs.ts';
import { eventRoutes } from './routes/events.ts';
import { leagueRoutes } from './routes/leagues.ts';
import { oddsRoutes } from './routes/odds.ts';
import { createStreamHub, streamRoutes, type StreamOptions } from './streaming/stream.ts';

// The paid odds API (docs/decisions/080-086) as one plugin: keys, the OpenAPI document generated from the /v1 route
// schemas, the reference page, and /v1 (REST + server-sent events) behind key auth and rate limits. Its own routes are
// the core resources (/v1/sports, /v1/leagues, /v1/events, /v1/odds, /v1/arbs) and the stream; every other /v1 feature
// keeps its routes in its own folder (decision 270: ev/, middles/, history/, sgp/, account/), and app.ts hands them in
// (`features`), so that a feature using the /v1 plumbing (auth.ts, routes/common.ts) is not imported back.

/** A /v1 feature's routes, registered in the /v1 scope (behind the key, the quotas and compression). */
export type V1Routes = (v1: FastifyInstance, options: { now: () => number }) => Promise<void>;

export interface ApiPluginOptions {
  stream?: Partial<StreamOptions>;
  /** Clock of the delayed tiers, quota windows, stream hub and key lookups (unix ms); tests pass a virtual clock. */
  now?: () => number;
  /** How long a key lookup is trusted (default 2 s); tests lengthen it to show the Redis invalidation. */
  keyCacheMs?: number;
  /**
   * The /v1 features' routes, registered in this order after /v1/arbs and before the stream (the OpenAPI document
   * lists the paths as they were registered).
   */
  features: readonly V1Routes[];
}

export const OPENAPI_INFO = {
  title: `${SITE.brand} Odds API`,
  version: '1.0.0',
  description: `Real-time and delayed sports betting odds from ${coverage().booksDetail} over ${coverage().leagues} (${coverage().leagueNames}), arbitrage opportunities, and a server-sent events stream. Authenticate with the \`X-Api-Key\` header. Every answer carries \`RateLimit-Policy\`, \`RateLimit\` and \`X-RateLimit-Limit/Remaining/Reset\`; errors are RFC 9457 \`application/problem+json\` with a stable \`type\`.`,
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

/**
 * The document's named schemas, in the order it lists them (a `<name>Input`, the request side, before the answers;
 * `lintableDocument` leaves one only where a request and an answer use differing shapes of one type, decision 253):
 * the odds API's vocabulary, the live board, the odds history, /v1/me (with its usage and rotation), and Problem last. Zod registers a named
 * schema when its module loads, and the converter lists them in that order; this fixed order keeps the document from
 * changing when a route module starts importing another family first. A new named schema takes its place here (the
 * docs test fails until it has one).
 */
export const COMPONENT_ORDER = [
  ...['Player', 'League', 'Sport'],
  ...['Event', 'Price', 'Outcome', 'Market', 'EventOdds', 'OddsResponse', 'ArbsResponse'],
  ...['EvFair', 'EvPrice', 'EvResponse'],
  ...['MiddleSide', 'Middle', 'MiddlesResponse'],
  ...[
    'HistoryEvent',
    'LinePrice',
    'HistoryGap',
    'HistoryPlayer',
    'MovementPoint',
    'Candle',
    'MovementSeries',
  ],
  ...['Fair', 'OpeningLine', 'CurrentLine', 'MarketLines', 'ClvBet', 'ClvResult'],
  ...[
    'PlayerFigures',
    'ClosingMarket',
    'GameScore',
    'ScoresResponse',
    'GradeLeg',
    'GradeBet',
    'GradeResult',
    'GradeResponse',
  ],
  ...['Me', 'Usage', 'KeyRotation', 'BillingPortal', 'Problem'],
];

/** The converter's document with its named schemas sorted by `COMPONENT_ORDER` (names it lacks keep their order, last). */
function inComponentOrder<Document extends object>(document: Document): Document {
  const { components } = document as { components?: { schemas?: Record<string, unknown> } };
  if (!components?.schemas) return document;
  const rank = (name: string) => {
    const index = COMPONENT_ORDER.indexOf(name.replace(/Input$/, ''));
    return index === -1 ? COMPONENT_ORDER.length : index;
  };
  const side = (name: string) => (name.endsWith('Input') ? 0 : 1);
  const schemas = Object.entries(components.schemas).sort(
    ([a], [b]) => side(a) - side(b) || rank(a) - rank(b),
  );
  return { ...document, components: { ...components, schemas: Object.fromEntries(schemas) } };
}

async function api(app: FastifyInstance, options: ApiPluginOptions) {
  await app.register(apiKeysPlugin, {
    cacheMs: options.keyCacheMs,
    now: options.now,
    billingGraceMs: app.config.BILLING_GRACE_HOURS * 3_600_000,
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        ...OPENAPI_INFO,
        contact: {
          name: `${SITE.brand} support`,
          email: SITE.supportEmail,
          url: absoluteUrl(app.config.SITE_URL, SITE.docsUrl),
        },
        license: {
          name: `Proprietary: use under a ${SITE.brand} plan`,
          url: absoluteUrl(app.config.SITE_URL, ROUTES.pricing),
        },
      },
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
    transformObject: (input) =>
      withResponseExamples(inComponentOrder(lintableDocument(jsonSchemaTransformObject(input)))),
  });
  const now = options.now ?? Date.now;
  const hub = createStreamHub(app, options.stream ?? {}, now);
  await app.register(
    async (v1) => {
      // JSON answers of 1 KiB or more are compressed (br, else gzip) when the client accepts it; /v1/odds, the big
      // one, opts out and serves gzip assembled from cached pieces instead (decision 084). The stream is hijacked.
      await v1.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
      await v1.register(apiAuthPlugin);
      // A body that is not JSON is a 415, and a known path with another method a 405 with Allow (decision 254).
      v1.addHook('preParsing', requireJsonBody);
      const methodsOf = routeMethods(v1);
      // In this order: the OpenAPI document lists the paths as they were registered.
      await v1.register(leagueRoutes);
      await v1.register(eventRoutes);
      await v1.register(oddsRoutes, { now });
      await v1.register(arbRoutes, { now });
      for (const routes of options.features) await v1.register(routes, { now });
      await v1.register(streamRoutes, { hub });
      v1.setNotFoundHandler((request, reply) =>
        sendMethodNotAllowed(request, reply, methodsOf)
          ? reply
          : sendNotFound(request, reply, { routes: 'API route', hint: 'see /docs.' }),
      );
    },
    { prefix: '/v1' },
  );
  await app.register(docsRoutes);
}

/** Not encapsulated, so that `app.apiKeys`, `app.streamHub` and `app.swagger()` are visible to tests and the admin routes. */
export const apiPlugin = fp(api, {
  name: 'api',
  dependencies: ['db', 'engine', 'ev', 'middles', 'history', 'secrets', 'rate-limit', 'sgp-credits', 'usage'],
});

import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyServerOptions, RouteOptions } from 'fastify';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OddsSource } from '#engine/sources/index.ts';
import type { Config } from './config.ts';
import { redactingDestination, redactUrl, serializeError } from './http/redact.ts';
import { fastifyTrustProxy } from './http/trust-proxy.ts';
import { enginePlugin } from './feed/plugin.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './http/errors.ts';
import { readinessPlugin } from './http/readiness.ts';
import { sitePlugin } from './site/plugin.ts';
import { dbPlugin } from './db/plugin.ts';
import { historyPlugin } from './history/plugin.ts';
import { historyTeaserRoutes } from './history/history-teaser.ts';
import { outboxPlugin } from './email/plugin.ts';
import { rateLimitPlugin } from './http/rate-limit.ts';
import { secretsPlugin } from './secrets.ts';
import { adminPlugin } from './admin/plugin.ts';
import { billingPlugin } from './billing/plugin.ts';
import { apiPlugin } from './odds-api/plugin.ts';
import type { StreamOptions } from './odds-api/streaming/stream.ts';
import { arbsFeedRoutes } from './feed/arbs-feed.ts';
import { healthRoutes } from './http/health.ts';
import { trialRequestRoutes } from './trials/trial-requests.ts';
import { trialsPlugin } from './trials/plugin.ts';
import { seoRoutes } from './site/seo.ts';
import { clusterPlugin, type ClusterPluginOptions } from './cluster/plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/**
 * `server.ts` passes only the config; the rest are the overrides tests need, on the same composition (decision 101).
 */
export interface AppOptions {
  config: Config;
  /** Where log lines go, after the same redaction as in production (default stdout); false: no logger. */
  log?: { write(line: string): unknown } | false;
  /** Overrides ODDS_SOURCE (tests pass a fixed board, a hand-fed or a fake source). */
  source?: OddsSource;
  /** The clock of the engine and the paid API: delay tiers, quota windows, the stream hub, key lookups and expiry. */
  now?: () => number;
  /** Stream hub settings over the defaults (tests shorten heartbeats and re-checks). */
  stream?: Partial<StreamOptions>;
  /** How long a key lookup is trusted (default 2 s). */
  keyCacheMs?: number;
  /** Sees every route as it is added. */
  onRoute?: (route: RouteOptions) => void;
  /** ROLE=ingest/api: lease and publishing periods (tests shorten them). */
  cluster?: ClusterPluginOptions;
}

/** Pino settings: headers and credential-like URL parameters redacted, and every line filtered (decision 010). */
function loggerOptions(
  config: Config,
  destination: { write(line: string): unknown } = process.stdout,
): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    stream: redactingDestination(destination),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; headers?: Record<string, unknown> }) {
        return { method: request.method, url: redactUrl(request.url) };
      },
      err: serializeError,
    },
  };
}

/** Builds the whole application. `server.ts` listens; tests call `app.inject()`. */
export async function buildApp({
  config,
  log,
  source,
  now,
  stream,
  keyCacheMs,
  onRoute,
  cluster,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: log === false ? false : loggerOptions(config, log),
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 200 },
    // Decision 012: no socket lives on without sending a request; SSE is not cut (these bound receiving the request).
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.HEADERS_TIMEOUT_MS / 4))),
    },
    // Decision 014: Node's and Fastify's own refusals are problem+json with the security headers too.
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.server.maxConnections = config.MAX_CONNECTIONS;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  if (onRoute) app.addHook('onRoute', onRoute);

  await app.register(errorsPlugin);
  await app.register(readinessPlugin);
  await app.register(helmet, {
    // Pages set their own CSP (hashes of their inline scripts); every other answer gets this strict one.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: 63072000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-site' },
  });

  await app.register(healthRoutes);
  await app.register(enginePlugin, { source, engine: { now } });
  // ROLE=ingest/api: the leader lease, and the changes on Redis Streams (issue 19; nothing for ROLE=all).
  await app.register(clusterPlugin, cluster ?? {});
  if (config.ROLE === 'ingest') {
    // The source, the engine and the history writer; no public route but /healthz and /readyz.
    await app.register(secretsPlugin);
    await app.register(dbPlugin);
    await app.register(historyPlugin, { now });
    return app;
  }
  await app.register(arbsFeedRoutes, { origins: [config.SITE_URL, ...config.CORS_ORIGINS] });
  // Storage, rate limits, trial requests, email outbox.
  await app.register(secretsPlugin);
  await app.register(dbPlugin);
  await app.register(historyPlugin, { now });
  await app.register(rateLimitPlugin, { now });
  await app.register(historyTeaserRoutes, { now });
  await app.register(trialsPlugin);
  await app.register(outboxPlugin);
  await app.register(trialRequestRoutes);
  // The paid odds API (/v1 REST + SSE) and its reference (/openapi.json, /docs).
  await app.register(apiPlugin, { now, stream, keyCacheMs });
  // Paid keys: the Stripe webhook (when STRIPE_SECRET_KEY is set) and the pricing page's "Lost your key?" form.
  await app.register(billingPlugin, { now });
  // Operators' routes: trial requests, keys, streams.
  await app.register(adminPlugin);
  await app.register(sitePlugin, { buildDir: config.buildDir, origin: config.SITE_URL });
  await app.register(seoRoutes, { origin: config.SITE_URL, builtAt: app.siteBuiltAt });

  return app;
}

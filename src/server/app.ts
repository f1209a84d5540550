import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyServerOptions, RouteOptions } from 'fastify';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OddsSource } from '#engine/sources/index.ts';
import type { Config } from './config.ts';
import { redactingDestination, redactUrl, serializeError } from './http/redact.ts';
import { fastifyTrustProxy, normaliseForwardedForHook } from './http/trust-proxy.ts';
import { enginePlugin } from './feed/plugin.ts';
import { evPlugin } from './ev/plugin.ts';
import { middlesPlugin } from './middles/plugin.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './http/errors.ts';
import { readinessPlugin } from './http/readiness.ts';
import { loadSite, sitePlugin } from './site/plugin.ts';
import { dbPlugin, openAppDatabase } from './db/plugin.ts';
import { historyPlugin } from './history/plugin.ts';
import { calibrationFeedRoutes } from './calibration/calibration-feed.ts';
import { historyTeaserRoutes } from './history/history-teaser.ts';
import { resultsFeedRoutes } from './results/results-feed.ts';
import { outboxPlugin } from './email/plugin.ts';
import { rateLimitPlugin } from './http/rate-limit.ts';
import { secretsPlugin } from './secrets.ts';
import { adminPlugin } from './admin/plugin.ts';
import { billingPlugin } from './billing/plugin.ts';
import { manageSubscriptionMode } from './billing/checkout.ts';
import { apiPlugin } from './odds-api/plugin.ts';
import { sgpCreditsPlugin } from './sgp/plugin.ts';
import { usagePlugin, type UsagePluginOptions } from './usage/plugin.ts';
import { sgpRoutes } from './sgp/routes.ts';
import { evRoutes } from './ev/routes.ts';
import { middlesRoutes } from './middles/routes.ts';
import { movementRoutes } from './history-api/routes/movement.ts';
import { linesRoutes } from './history-api/routes/lines.ts';
import { clvRoutes } from './history-api/routes/clv.ts';
import { historicalOddsRoutes } from './history-api/routes/historical-odds.ts';
import { scoresRoutes } from './history-api/routes/scores.ts';
import { meRoutes } from './account/routes.ts';
import type { StreamOptions } from './odds-api/streaming/stream.ts';
import { arbsFeedRoutes } from './feed/arbs-feed.ts';
import { healthRoutes } from './http/health.ts';
import { trialRequestRoutes } from './trials/trial-requests.ts';
import { trialsPlugin } from './trials/plugin.ts';
import { seoRoutes } from './site/seo.ts';
import { accountFormRoute } from './site/account-form.ts';
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
  /**
   * The clock of the engine and the paid API (delay tiers, quota windows, the stream hub, key lookups and expiry, SGP
   * credit months), of trial expiry reminders and of one-time portal links.
   */
  now?: () => number;
  /** Stream hub settings over the defaults (tests shorten heartbeats and re-checks). */
  stream?: Partial<StreamOptions>;
  /** How long a key lookup is trusted (default 2 s). */
  keyCacheMs?: number;
  /** Sees every route as it is added. */
  onRoute?: (route: RouteOptions) => void;
  /** ROLE=ingest/api: lease and publishing periods (tests shorten them). */
  cluster?: ClusterPluginOptions;
  /** Fastify's per-plugin and per-hook budget (default PLUGIN_TIMEOUT_MS; a test sets Fastify's own 10 s). */
  pluginTimeout?: number;
  /** Usage counting (decision 155): flush period and on/off (tests and the bench). */
  usage?: Omit<UsagePluginOptions, 'now'>;
  /** Bytes each of GET /v1/ev and GET /v1/middles keeps of finished answers (default ANSWER_CACHE_BYTES, 16 MiB). */
  answerCacheBytes?: number;
  /** Told when the public feed comes into demand and when it lapses (`server.ts` sets V8's heap growth; decision 294). */
  onFeedWanted?: (wanted: boolean) => void;
}

/**
 * What each plugin, onReady and preClose hook may take (Fastify's own default is 10 s). Work whose duration follows
 * the machine's load runs outside it (the database, the site: issue 31); this is a safety net against a hook that
 * never settles, and never shorter than SHUTDOWN_TIMEOUT_MS, so that a slow preClose hook is not cut before it.
 */
export const PLUGIN_TIMEOUT_MS = 60_000;

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
  pluginTimeout,
  usage,
  answerCacheBytes,
  onFeedWanted,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: log === false ? false : loggerOptions(config, log),
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    pluginTimeout: pluginTimeout ?? Math.max(PLUGIN_TIMEOUT_MS, config.SHUTDOWN_TIMEOUT_MS),
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
  // Before every other hook: X-Forwarded-For reduced to addresses, so `request.ip` is one per client (issue 31).
  normaliseForwardedForHook(app, config.TRUST_PROXY);
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
  await app.register(enginePlugin, { source, engine: { now }, onFeedWanted });
  // ROLE=ingest/api: the leader lease, and the changes on Redis Streams (issue 19; nothing for ROLE=all).
  await app.register(clusterPlugin, cluster ?? {});
  // The database is opened between plugins, not inside one: a first start (initdb, migrations) on a busy machine takes
  // longer than Fastify's per-plugin timeout (issue 31); its progress is logged.
  const registerDb = async () => app.register(dbPlugin, { handle: await openAppDatabase(config, app.log) });
  if (config.ROLE === 'ingest') {
    // The source, the engine and the history writer; no public route but /healthz and /readyz.
    await app.register(secretsPlugin);
    await registerDb();
    await app.register(historyPlugin, { now });
    return app;
  }
  await app.register(arbsFeedRoutes, { origins: [config.SITE_URL, ...config.CORS_ORIGINS] });
  // Positive EV (issue 36): app.evBoard, read by GET /v1/ev, and the public page's feed GET /tools/ev.json.
  await app.register(evPlugin, { now, origins: [config.SITE_URL, ...config.CORS_ORIGINS], answerCacheBytes });
  // Middles (issue 36): app.middlesBoard, read by GET /v1/middles, and the public page's feed GET /tools/middles.json.
  await app.register(middlesPlugin, {
    now,
    origins: [config.SITE_URL, ...config.CORS_ORIGINS],
    answerCacheBytes,
  });
  // Storage, rate limits, trial requests, email outbox.
  await app.register(secretsPlugin);
  await registerDb();
  await app.register(historyPlugin, { now });
  await app.register(rateLimitPlugin, { now });
  await app.register(historyTeaserRoutes, { now });
  // The bet tracker's finals without a key (issue 57): GET /tools/results.json.
  await app.register(resultsFeedRoutes, { now, origins: [config.SITE_URL, ...config.CORS_ORIGINS] });
  // The public calibration report (issue 57): GET /tools/calibration.json, from the graded results in the history.
  await app.register(calibrationFeedRoutes, { now });
  await app.register(trialsPlugin, { now });
  await app.register(outboxPlugin);
  await app.register(trialRequestRoutes);
  // Same-game-parlay credits (app.sgpCredits), then the paid odds API (/v1 REST + SSE, POST /v1/sgp among them) and
  // its reference (/openapi.json, /docs).
  await app.register(sgpCreditsPlugin, { now });
  // Per-key daily usage, counted in memory and flushed in batches (decision 155).
  await app.register(usagePlugin, { ...usage, now });
  await app.register(apiPlugin, {
    now,
    stream,
    keyCacheMs,
    // Each /v1 feature's routes, from its own folder (decision 270), in the order the OpenAPI document lists them.
    features: [
      evRoutes,
      middlesRoutes,
      movementRoutes,
      linesRoutes,
      clvRoutes,
      historicalOddsRoutes,
      scoresRoutes,
      sgpRoutes,
      meRoutes,
    ],
  });
  // Paid keys: the Stripe webhook (when STRIPE_SECRET_KEY is set) and the pricing page's "Lost your key?" form.
  await app.register(billingPlugin, { now });
  // Operators' routes: trial requests, keys, streams.
  await app.register(adminPlugin);
  // The account page's key form without its script: nothing is read (decision 208).
  await app.register(accountFormRoute);
  // Read and compressed between plugins, not inside one: on a busy machine it outlasts the per-plugin timeout (issue 31).
  const site = await loadSite(
    {
      buildDir: config.buildDir,
      origin: config.SITE_URL,
      // Decided here, not after the page's script has asked (decision 298).
      manageSubscription: manageSubscriptionMode(config),
    },
    app.log,
  );
  await app.register(sitePlugin, { site });
  await app.register(seoRoutes, { origin: config.SITE_URL, builtAt: app.siteBuiltAt });

  return app;
}

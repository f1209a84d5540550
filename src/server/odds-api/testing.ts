import type { Writable } from 'node:stream';
import type { FastifyInstance, RouteOptions } from 'fastify';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PlanId } from '#domain/plans.ts';
import type { OddsSource } from '#engine/sources/index.ts';
import { loggerOptions } from '../app.ts';
import type { Config } from '../config.ts';
import { dbPlugin } from '../db/plugin.ts';
import { enginePlugin } from '../feed/plugin.ts';
import { errorsPlugin } from '../http/errors.ts';
import { rateLimitPlugin } from '../http/rate-limit.ts';
import { readinessPlugin } from '../http/readiness.ts';
import { secretsPlugin } from '../secrets.ts';
import { trialTestConfig } from '../trials/testing.ts';
import { apiPlugin } from './plugin.ts';
import { adminKeyRoutes } from '../admin/admin-keys.ts';
import type { StreamOptions } from './streaming/stream.ts';

// Test helpers (docs/decisions/080-086): the API's plugins on an in-memory PGlite, with a hand-fed engine and optional virtual clock.

/** A source that only declares itself ready: tests feed the engine with `app.engine.ingest()`. */
export function manualSource(): OddsSource {
  return { name: 'replay', start: (context) => context.ready(), stop: () => {} };
}

export interface ApiTestOptions {
  config?: Config;
  /** Virtual clock shared by the engine, the API's quota windows (memory) and its delay tiers. */
  now?: () => number;
  source?: OddsSource;
  stream?: Partial<StreamOptions>;
  /** How long the API key service trusts a lookup (default 2 s). */
  keyCacheMs?: number;
  /** Where log lines go (at LOG_LEVEL info); unset: no logger. */
  logStream?: Writable;
  /** Sees every route as it is added. */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApiTestApp(options: ApiTestOptions = {}): Promise<FastifyInstance> {
  const config = options.config ?? trialTestConfig();
  const app = Fastify({
    logger: options.logStream
      ? { ...(loggerOptions({ ...config, LOG_LEVEL: 'info' }) as object), stream: options.logStream }
      : false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  await app.register(errorsPlugin);
  await app.register(readinessPlugin);
  await app.register(enginePlugin, {
    source: options.source ?? manualSource(),
    engine: options.now ? { now: options.now } : {},
  });
  await app.register(secretsPlugin);
  await app.register(dbPlugin);
  await app.register(rateLimitPlugin);
  await app.register(apiPlugin, { stream: options.stream, now: options.now, keyCacheMs: options.keyCacheMs });
  await app.register(adminKeyRoutes);
  return app;
}

/** Creates a key of the plan directly through the service; returns the plain key. */
export async function createKey(app: FastifyInstance, planId: PlanId, expiresAt?: Date): Promise<string> {
  const { plain } = await app.apiKeys.create({
    planId,
    email: `ops+${planId}@example.com`,
    expiresAt: expiresAt ?? null,
  });
  return plain;
}

/** Revokes a key (or the key of a prefix) through the operators' route, as `npm run keys -- revoke` does. */
export function revokeKey(app: FastifyInstance, keyOrPrefix: string) {
  return app.inject({
    method: 'POST',
    url: '/admin/keys/revoke',
    headers: { authorization: `Bearer ${app.secrets.adminToken}`, 'content-type': 'application/json' },
    payload: { prefix: keyOrPrefix.slice(0, 14) },
  });
}

/** An SSE answer read as raw text over real HTTP: what arrived so far, and a promise that settles when it ends. */
export interface RawStream {
  status: number;
  text(): string;
  ended: Promise<void>;
  abort(): void;
}

export async function openRawStream(url: string, headers: Record<string, string> = {}): Promise<RawStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  let buffer = '';
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted by the test
    }
  })();
  return { status: response.status, text: () => buffer, ended, abort: () => controller.abort() };
}

/** A virtual clock: `clock.now()` for the app, `clock.advance(ms)` in the test. */
export function virtualClock(start = Date.UTC(2026, 10, 22, 12)): {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
} {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
    set(ms: number) {
      time = ms;
    },
  };
}

export const EVENT = {
  kind: 'event',
  sourceEventId: 'src-1',
  league: 'nba',
  home: { name: 'Boston Celtics', abbreviation: 'BOS' },
  away: { name: 'New York Knicks', abbreviation: 'NYK' },
  live: false,
} as const;

/** One moneyline price message for the test event. */
export function priceMessage(book: string, outcome: 'home' | 'away', american: number, updatedAt: number) {
  return { kind: 'price', sourceEventId: 'src-1', book, market: 'moneyline', outcome, american, updatedAt };
}

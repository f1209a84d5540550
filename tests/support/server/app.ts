import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { OddsSource } from '#engine/sources/index.ts';
import { buildApp, type AppOptions } from '#server/app.ts';
import type { Config } from '#server/config.ts';
import { trialTestConfig } from './trials.ts';

// The whole app as `server.ts` builds it, with the test overrides of `AppOptions` (decision 101).

/** A log stream for an app under test: every chunk the logger writes (one JSON line or more) is kept in `lines`. */
export function logSink(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
}

/** A source that only declares itself ready: tests feed the engine with `app.engine.ingest()`. */
export function manualSource(): OddsSource {
  return { name: 'replay', start: (context) => context.ready(), stop: () => {} };
}

export interface TestAppOptions extends Omit<AppOptions, 'config' | 'log'> {
  /** Default: `trialTestConfig()` (in-memory database, a stand-in site build). */
  config?: Config;
  /** Where log lines go, at LOG_LEVEL info; unset: no logger. */
  log?: { write(line: string): unknown };
}

/** Fastify's per-plugin budget in tests: Vitest's own hook timeout (vitest.config.ts). */
export const TEST_PLUGIN_TIMEOUT_MS = 300_000;

/** `buildApp()` on a test config, a hand-fed engine unless `source` is given, and no logger unless `log` is. */
export function buildTestApp({
  config = trialTestConfig(),
  source = manualSource(),
  log,
  ...overrides
}: TestAppOptions = {}): Promise<FastifyInstance> {
  return buildApp({
    // Test apps get 300 s a plugin (Vitest's hook timeout): beside the browser tests and both Vitest suites on two
    // cores, a simulator app's start outlasted the server's 60 s in CI (arbs-feed.test.ts, session 17).
    pluginTimeout: TEST_PLUGIN_TIMEOUT_MS,
    ...overrides,
    config: log ? { ...config, LOG_LEVEL: 'info' } : config,
    source,
    log: log ?? false,
  });
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

/**
 * A board that never changes after it is loaded: one event, a near-arb on its moneyline
 * (S = 1/2 + 1/1.9615 = 1.0098 → edge −0.97 %: inside the default floor, outside −0.5 %).
 */
export const fixedBoard: OddsSource = {
  name: 'replay',
  start(context) {
    context.ingest({
      kind: 'event',
      sourceEventId: 'g',
      league: 'nba',
      home: { name: 'Los Angeles Lakers' },
      away: { name: 'Boston Celtics' },
      startsAt: Date.now() + 3_600_000,
    });
    context.ingest({
      kind: 'price',
      sourceEventId: 'g',
      book: 'circa',
      market: 'moneyline',
      outcome: 'away',
      american: 100,
    });
    context.ingest({
      kind: 'price',
      sourceEventId: 'g',
      book: 'espn',
      market: 'moneyline',
      outcome: 'home',
      american: -104,
    });
    context.ready();
  },
  stop() {},
};

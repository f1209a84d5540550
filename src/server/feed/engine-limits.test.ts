import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArbSchema } from '#domain/schemas/feed.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

// The engine's plausibility limits as configured (ODDS_MIN_DECIMAL, ODDS_MAX_DECIMAL, ARB_MAX_EDGE_PCT; decisions
// 045, 046), and the `suspect` flag as the paid API serves it.

const clock = virtualClock();
let app: FastifyInstance;
let key: string;

function ingestEvent(sourceEventId: string, n: number) {
  expect(
    app.engine.ingest({
      kind: 'event',
      sourceEventId,
      league: 'nba',
      home: { name: `Home Limits ${n}`, abbreviation: `HL${n}` },
      away: { name: `Away Limits ${n}`, abbreviation: `AL${n}` },
      startsAt: clock.now() + 3_600_000,
    }),
  ).toBe(true);
}

const priceOf = (sourceEventId: string, book: string, outcome: string, odds: Record<string, number>) =>
  app.engine.ingest({ kind: 'price', sourceEventId, book, market: 'moneyline', outcome, ...odds });

beforeAll(async () => {
  app = await buildTestApp({
    now: clock.now,
    config: trialTestConfig({ ODDS_MAX_DECIMAL: '500', ARB_MAX_EDGE_PCT: '50' }),
  });
  await app.ready();
  key = await createKey(app, 'enterprise');
});

afterAll(async () => {
  await app.close();
});

describe('engine limits from the configuration', () => {
  it('drops a price above ODDS_MAX_DECIMAL and counts it in the readiness details (/readyz)', async () => {
    ingestEvent('lim-1', 1);
    expect(priceOf('lim-1', 'fanduel', 'away', { decimal: 600 })).toBe(false);
    expect(priceOf('lim-1', 'fanduel', 'away', { american: 1e308 })).toBe(false);
    const { checks } = await app.readiness.run();
    const details = checks.engine!.details as { drops: Record<string, number> };
    expect(details.drops.odds_out_of_range).toBe(2);
  });

  it('refuses an ODDS_MAX_DECIMAL above 1,000,000 or an ODDS_MIN_DECIMAL of 1, naming the variable', () => {
    expect(() => loadConfig({ ODDS_MAX_DECIMAL: '1e7' })).toThrow(ConfigError);
    expect(() => loadConfig({ ODDS_MAX_DECIMAL: '1e7' })).toThrow(/ODDS_MAX_DECIMAL/);
    expect(() => loadConfig({ ODDS_MIN_DECIMAL: '1' })).toThrow(/ODDS_MIN_DECIMAL/);
    expect(() => loadConfig({ ARB_MAX_EDGE_PCT: '-5' })).toThrow(/ARB_MAX_EDGE_PCT/);
    expect(loadConfig({})).toMatchObject({
      ODDS_MIN_DECIMAL: 1.001,
      ODDS_MAX_DECIMAL: 1001,
      ARB_MAX_EDGE_PCT: 10,
    });
  });
});

describe('GET /v1/arbs', () => {
  it('serves an arb above ARB_MAX_EDGE_PCT with suspect: true, and one below without the flag', async () => {
    ingestEvent('lim-2', 2);
    ingestEvent('lim-3', 3);
    expect(priceOf('lim-2', 'fanduel', 'away', { decimal: 400 })).toBe(true);
    expect(priceOf('lim-2', 'caesars', 'home', { american: -110 })).toBe(true);
    expect(priceOf('lim-3', 'fanduel', 'away', { american: 150 })).toBe(true);
    expect(priceOf('lim-3', 'draftkings', 'home', { american: -130 })).toBe(true);
    app.engine.tick();
    const response = await app.inject({ method: 'GET', url: '/v1/arbs', headers: { 'x-api-key': key } });
    expect(response.statusCode).toBe(200);
    const arbs = (response.json() as { arbs: unknown[] }).arbs.map((arb) => ArbSchema.parse(arb));
    const byHome = (name: string) => arbs.find((arb) => arb.event.teams.home.name === name)!;
    expect(byHome('Home Limits 2')).toMatchObject({ edge_pct: 89.993, suspect: true });
    expect(byHome('Home Limits 3').edge_pct).toBe(3.602);
    expect(byHome('Home Limits 3').suspect).toBeUndefined();
  });
});

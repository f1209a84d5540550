import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  FREE_PLAN,
  formatDelay,
  PLANS,
  RESULTS_WINDOW_DAYS,
  valuesDelaySeconds,
  type CapabilityId,
  type Plan,
} from '#domain/plans.ts';
import { RECENT_FINAL_MS } from '#engine/scores.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey, openRawStream } from '#tests/support/server/odds-api.ts';
import { trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// Issue 56, decision 212: every row of every plan card (src/domain/plans.ts `CAPABILITIES`) is checked against the API
// with a key of that plan: a gated row answers 403 exactly when the card says not included, and the figures a card
// states (the delay, the per-minute limit, the stream limit) are the ones the API applies.

let app: FastifyInstance;
let base = '';
const AT = new Date(Date.now() - 3_600_000).toISOString();

/** The request that exercises a gated row's feature. */
const GATED: Partial<Record<CapabilityId, { method: 'GET' | 'POST'; url: string; payload?: unknown }>> = {
  'same-game-parlays': {
    method: 'POST',
    url: '/v1/sgp',
    payload: {
      event_id: 'nope',
      legs: [
        { market: 'spread', line: -4.5, outcome: 'home' },
        { market: 'total', line: 221.5, outcome: 'over' },
      ],
    },
  },
  'closing-lines': { method: 'GET', url: '/v1/events/nope/lines' },
  'historical-odds': { method: 'GET', url: `/v1/historical/odds?league=nba&at=${encodeURIComponent(AT)}` },
  'line-movement': { method: 'GET', url: '/v1/events/nope/movement' },
  'scores-and-grading': { method: 'GET', url: '/v1/scores?status=live' },
};

beforeAll(async () => {
  app = await buildTestApp({ config: trialTestConfig({ STREAM_OPENS_PER_MINUTE: '1000' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  app.engine.tick();
});

afterAll(async () => {
  await app.close();
});

async function get(key: string, url: string) {
  return app.inject({ url, headers: { 'x-api-key': key } });
}

/** Opens streams of the key until the plan's limit, then one more: the statuses. */
async function streamStatuses(key: string, limit: number): Promise<number[]> {
  const streams = [];
  for (let open = 0; open < limit; open += 1)
    streams.push(await openRawStream(`${base}/v1/stream?initial=false`, { 'x-api-key': key }));
  const over = await fetch(`${base}/v1/stream?initial=false`, { headers: { 'x-api-key': key } });
  await over.body?.cancel();
  for (const stream of streams) stream.abort();
  const id = (await app.apiKeys.authenticate(key)) as { ok: true; key: { id: number } };
  await waitFor(() => app.streamHub.connectionsOf(id.key.id) === 0, 'the streams to close');
  return [...streams.map((stream) => stream.status), over.status];
}

async function checkRow(plan: Plan, key: string, id: CapabilityId): Promise<void> {
  const row = plan.features.find((feature) => feature.id === id)!;
  const delay = plan.realTime ? 0 : plan.latencySeconds;
  const where = `${plan.id}: ${row.text}`;
  switch (id) {
    case 'arbs': {
      const body = (await get(key, '/v1/arbs')).json() as {
        delay_seconds: number;
        delayed_above_edge_pct: number | null;
      };
      expect(body.delay_seconds, where).toBe(delay);
      expect(body.delayed_above_edge_pct, where).toBe(delay === 0 ? null : FREE_PLAN.finders.arbEdgeCapPct);
      expect(row.text, where).toBe(
        delay === 0
          ? 'Every arb in real time'
          : `Arbs up to ${body.delayed_above_edge_pct}% edge in real time; above ${body.delayed_above_edge_pct}%, delayed up to ${formatDelay(body.delay_seconds)}`,
      );
      return;
    }
    case 'odds': {
      const response = await get(key, '/v1/odds?league=nba');
      expect(response.statusCode, where).toBe(200);
      const seconds = (response.json() as { delay_seconds: number }).delay_seconds;
      expect(row.text, where).toBe(
        seconds === 0 ? 'Real-time odds' : `Odds delayed up to ${formatDelay(seconds)}`,
      );
      return;
    }
    case 'values': {
      for (const url of ['/v1/ev', '/v1/middles']) {
        const response = await get(key, url);
        expect(response.statusCode, `${where} ${url}`).toBe(200);
        const seconds = (response.json() as { delay_seconds: number }).delay_seconds;
        expect(seconds, `${where} ${url}`).toBe(valuesDelaySeconds(plan));
        expect(row.text, where).toBe(
          seconds === 0
            ? 'Every positive-EV price and middle in real time'
            : `Every positive-EV price and middle, delayed up to ${formatDelay(seconds)}`,
        );
      }
      return;
    }
    case 'rate': {
      const limit = Number((await get(key, '/v1/leagues')).headers['x-ratelimit-limit']);
      expect(row.text, where).toBe(`${limit.toLocaleString('en-US')} requests per minute`);
      return;
    }
    case 'streams': {
      const statuses = await streamStatuses(key, plan.streamConnections);
      expect(statuses, where).toEqual([...Array<number>(plan.streamConnections).fill(200), 429]);
      expect(row.text, where).toBe(`${plan.streamConnections} concurrent streams (server-sent events)`);
      return;
    }
    case 'results': {
      // Every plan: the finals the free bet tracker grades with (decision 256), as far back as the card says.
      const response = await get(key, '/v1/scores?status=final');
      expect(response.statusCode, where).toBe(200);
      // And their fair close, the one the free tracker measures CLV against (decisions 289, 297).
      const closing = await get(key, '/v1/scores?event_id=nope&closing=true');
      expect(closing.statusCode, where).toBe(200);
      expect(row.included, where).toBe(true);
      expect(row.text, where).toBe(
        `Final scores and fair closing lines of the last ${RESULTS_WINDOW_DAYS} days, period by period`,
      );
      expect(RECENT_FINAL_MS, where).toBe(RESULTS_WINDOW_DAYS * 86_400_000);
      return;
    }
    case 'markets': {
      expect((await get(key, '/v1/odds?league=nba&markets=props')).statusCode, where).toBe(200);
      expect(row.included, where).toBe(true);
      return;
    }
    default: {
      const request = GATED[id]!;
      const response = await app.inject({
        method: request.method,
        url: request.url,
        headers: { 'x-api-key': key },
        ...(request.payload ? { payload: request.payload as object } : {}),
      });
      if (row.included) expect(response.statusCode, where).not.toBe(403);
      else expect(response.statusCode, where).toBe(403);
      if (id === 'same-game-parlays' && row.included) {
        const me = (await get(key, '/v1/me')).json() as { sgp_credits: { limit: number; resets_at: string } };
        expect(me.sgp_credits.limit, where).toBe(plan.sgpCreditsPerMonth);
        // "renewed on the 1st (UTC)": the next reset is the first instant of a UTC month.
        expect(me.sgp_credits.resets_at, where).toMatch(/^\d{4}-\d{2}-01T00:00:00(\.000)?Z$/);
        expect(row.text, where).toContain('renewed on the 1st (UTC)');
      }
    }
  }
}

describe('every plan card row against the API, with a key of that plan (issue 56)', () => {
  it.each(PLANS.map((plan) => [plan.id, plan] as const))(
    '%s: each row is what the API does',
    async (_, plan) => {
      const key = await createKey(app, plan.id);
      for (const capability of CAPABILITIES) await checkRow(plan, key, capability.id);
    },
  );

  it('free: the public feeds apply the free row, and the API answers no request without a key', async () => {
    const arbs = (await app.inject({ url: '/tools/arbs.json' })).json() as {
      above_cap: { edge_pct: number };
    };
    expect(arbs.above_cap.edge_pct).toBe(FREE_PLAN.finders.arbEdgeCapPct);
    for (const url of ['/tools/ev.json', '/tools/middles.json']) {
      const feed = (await app.inject({ url })).json() as { delay_seconds: number };
      expect(feed.delay_seconds, url).toBe(FREE_PLAN.finders.valuesDelaySeconds);
    }
    const results = (await app.inject({ url: '/tools/results.json' })).json() as { window_hours: number };
    expect(results.window_hours).toBe(RESULTS_WINDOW_DAYS * 24);
    expect(FREE_PLAN.features.find((row) => row.id === 'results')?.text).toBe(
      `Final scores and fair closing lines of the last ${RESULTS_WINDOW_DAYS} days: the bet tracker grades your bets with CLV`,
    );
    // The free card's closing lines: the tracker's public close of the finals (decision 289).
    expect((await app.inject({ url: '/tools/closing.json?events=nope' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/odds?league=nba' })).statusCode).toBe(401);
  });
});

describe('GET /v1/ev and GET /v1/middles when the public pages are fresher than a plan (decision 211)', () => {
  it('gives Starter the public pages’ delay (EV_PUBLIC_DELAY_S=30), never its own 2 minutes', async () => {
    const fresh = await buildTestApp({ config: trialTestConfig({ EV_PUBLIC_DELAY_S: '30' }) });
    try {
      await fresh.ready();
      const key = await createKey(fresh, 'starter');
      for (const url of ['/v1/ev', '/v1/middles']) {
        const response = await fresh.inject({ url, headers: { 'x-api-key': key } });
        expect((response.json() as { delay_seconds: number }).delay_seconds, url).toBe(30);
      }
      const odds = await fresh.inject({ url: '/v1/odds?league=nba', headers: { 'x-api-key': key } });
      expect((odds.json() as { delay_seconds: number }).delay_seconds).toBe(120);
    } finally {
      await fresh.close();
    }
  });
});

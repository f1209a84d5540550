import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OddsResponseSchema } from '#domain/schemas/api/odds.ts';
import { buildTestApp } from '#tests/support/server/app.ts';
import { freePort, waitFor } from '#tests/support/server/trials.ts';
import { createKey, openRawStream } from '#tests/support/server/odds-api.ts';

// Player props on GET /v1/stream (issue 15, decision 124): a prop price change carries the market's stat and player
// as /v1/odds has them, and `markets=props`, `player` and `stat` select prop prices, in the live changes and in the
// snapshot a stream opens with. The real app over HTTP.

const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}`;
let app: FastifyInstance;
let key: string;
let eventId: string;

const ROSTER = [
  { id: 'p-lebron', name: 'LeBron James', team: 'home' },
  { id: 'p-luka', name: 'Luka Dončić', team: 'home' },
];

let tick = 0;
/** A new price (never a no-op) for LeBron's points over 27.5, Luka's (by name only) or the home moneyline. */
function push(what: 'lebron' | 'luka' | 'moneyline'): void {
  tick += 1;
  const american = 100 + tick;
  const message =
    what === 'moneyline'
      ? { market: 'moneyline', outcome: 'home' }
      : {
          market: 'prop',
          stat: 'player_points',
          player: what === 'lebron' ? { id: 'p-lebron', name: 'LeBron James' } : { name: 'Luka Doncic' },
          point: what === 'lebron' ? 27.5 : 30.5,
          outcome: 'over',
        };
  expect(
    app.engine.ingest({
      kind: 'price',
      sourceEventId: 'props-stream',
      book: 'fanduel',
      american,
      ...message,
    } as never),
  ).toBe(true);
}

interface PriceEvent {
  market: { type: string; stat?: string; player?: { id: string; name: string; team: string }; label: string };
  name: string;
  outcome: string;
}

function prices(text: string): PriceEvent[] {
  return [...text.matchAll(/event: price\ndata: (.*)\n/g)].map(
    (match) => JSON.parse(match[1]!) as PriceEvent,
  );
}

async function stream(query: string) {
  return openRawStream(`${BASE}/v1/stream?${query}`, { 'x-api-key': key });
}

beforeAll(async () => {
  app = await buildTestApp({ stream: { heartbeatMs: 1_000 } });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  key = await createKey(app, 'enterprise');
  app.engine.ingest({
    kind: 'event',
    sourceEventId: 'props-stream',
    league: 'nba',
    home: { name: 'Los Angeles Lakers', abbreviation: 'LAL' },
    away: { name: 'Dallas Mavericks', abbreviation: 'DAL' },
    startsAt: Date.now() + 3_600_000,
    players: ROSTER,
  });
  eventId = app.engine.store.events()[0]!.id;
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/stream with player props', () => {
  it('delivers a prop price change with its stat, player and labels', async () => {
    const raw = await stream('league=nba&types=price&initial=false');
    expect(raw.status).toBe(200);
    push('lebron');
    await waitFor(() => prices(raw.text()).length >= 1, 'the prop price');
    raw.abort();
    const [change] = prices(raw.text());
    expect(change).toMatchObject({
      outcome: 'over',
      name: 'LeBron James Points Over 27.5',
      market: {
        key: `${eventId}|prop|player_points|full|p-lebron|27.5`,
        type: 'prop',
        stat: 'player_points',
        player: { id: 'p-lebron', name: 'LeBron James', team: 'home' },
        label: 'LeBron James Points Over/Under 27.5',
      },
    });
  });

  it('markets=props, player= (by name, accents ignored, or id) and stat= select prop prices only', async () => {
    const streams = {
      props: await stream('event=' + encodeURIComponent(eventId) + '&markets=props&initial=false'),
      moneyline: await stream('league=nba&markets=moneyline&types=price&initial=false'),
      luka: await stream(`league=nba&player=${encodeURIComponent('LUKA DONČIĆ')}&types=price&initial=false`),
      lebronById: await stream('league=nba&player=p-lebron&types=price&initial=false'),
      doubleDouble: await stream('league=nba&stat=player_double_double&types=price&initial=false'),
      all: await stream('league=nba&types=price&initial=false'),
    };
    push('moneyline');
    push('lebron');
    push('luka');
    await waitFor(() => prices(streams.all.text()).length >= 3, 'three prices');
    // Every stream got its frames in the same release; a moment for the sockets to deliver them.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const raw of Object.values(streams)) raw.abort();
    const seen = (raw: { text(): string }) =>
      prices(raw.text()).map((change) => `${change.market.type}:${change.market.player?.id ?? '-'}`);
    expect(seen(streams.all)).toEqual(['moneyline:-', 'prop:p-lebron', 'prop:p-luka']);
    expect(seen(streams.props)).toEqual(['prop:p-lebron', 'prop:p-luka']);
    expect(seen(streams.moneyline)).toEqual(['moneyline:-']);
    expect(seen(streams.luka)).toEqual(['prop:p-luka']);
    expect(seen(streams.lebronById)).toEqual(['prop:p-lebron']);
    expect(seen(streams.doubleDouble)).toEqual([]);
  });

  it('opens with a snapshot holding only the selected player’s props', async () => {
    push('moneyline');
    push('lebron');
    push('luka');
    const raw = await stream('league=nba&player=lebron%20james&types=price');
    await waitFor(() => /event: snapshot\ndata: .*\n\n/.test(raw.text()), 'the snapshot');
    raw.abort();
    const data = JSON.parse(/event: snapshot\ndata: (.*)\n/.exec(raw.text())![1]!);
    const snapshot = OddsResponseSchema.parse({
      as_of: data.as_of,
      delay_seconds: data.delay_seconds,
      events: data.events,
    });
    const markets = snapshot.events.flatMap((event) => event.markets);
    expect(markets.length).toBeGreaterThan(0);
    expect(markets.every((market) => market.type === 'prop' && market.player?.id === 'p-lebron')).toBe(true);
  });

  it('refuses an unknown market type or stat with 400', async () => {
    for (const query of ['markets=player_props', 'stat=points', 'player=']) {
      const response = await fetch(`${BASE}/v1/stream?${query}`, { headers: { 'x-api-key': key } });
      expect(response.status, query).toBe(400);
      await response.body?.cancel();
    }
  });
});

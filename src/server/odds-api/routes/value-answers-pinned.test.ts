import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import { evPriceDto } from '#domain/ev-dto.ts';
import { middleDto } from '#domain/middle-dto.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { trialTestConfig } from '#tests/support/server/trials.ts';

// Every answer about positive EV and middles, pinned byte for byte on a seeded board (issue 58): the simulator's
// games with player props, fed for three minutes of virtual time, then GET /v1/ev and GET /v1/middles in real time
// (Elite), delayed (Starter), with a de-vig method and reference other than the default, the two public pages'
// feeds, and the stream's sets (`STREAM_VALUES`: the rows `ev` and `middle` events carry). A change to how EV or
// middles are judged, cached or turned into answers that moves any row, number or order changes a digest. A change
// meant to keep the answers (a refactor, a faster judge) must leave every digest as it is; one that means to change
// them says so and pins the new digests.

const clock = virtualClock(Date.UTC(2026, 10, 22, 18));
let app: FastifyInstance;
const keys = { elite: '', starter: '' };

const digest = (body: string) => createHash('sha256').update(body).digest('hex').slice(0, 16);

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now, config: { ...trialTestConfig(), STREAM_VALUES: true } });
  app.engine.stop();
  keys.elite = await createKey(app, 'elite');
  keys.starter = await createKey(app, 'starter');
  const simulator = new MarketSimulator({
    seed: 58,
    startMs: clock.now(),
    events: 10,
    stepMs: 1_000,
    props: true,
    propsPostedMs: Infinity,
  });
  for (const message of simulator.initial()) app.engine.ingest(message);
  app.engine.markReady();
  app.engine.tick();
  for (let step = 0; step < 180; step += 1) {
    clock.advance(1_000);
    for (const message of simulator.step()) app.engine.ingest(message);
    app.engine.tick();
  }
});

afterAll(async () => {
  await app.close();
});

async function body(url: string, key?: string): Promise<string> {
  const response = await app.inject({ url, headers: key ? { 'x-api-key': key } : {} });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}

describe('GET /v1/ev, GET /v1/middles, their public feeds and the stream sets on a seeded board', () => {
  it('answer byte for byte as pinned', async () => {
    const answers: Record<string, string> = {};
    for (const [name, url, key] of [
      ['ev real time', '/v1/ev?limit=1000', keys.elite],
      ['ev delayed', '/v1/ev?limit=1000', keys.starter],
      ['ev power on sharp books', '/v1/ev?limit=1000&devig=power&reference=sharp', keys.elite],
      ['middles real time', '/v1/middles?limit=1000', keys.elite],
      ['middles delayed', '/v1/middles?limit=1000', keys.starter],
      ['middles shin on fanduel', '/v1/middles?limit=1000&devig=shin&reference=fanduel', keys.elite],
      ['ev page feed', '/tools/ev.json', undefined],
      ['middles page feed', '/tools/middles.json', undefined],
    ] as const) {
      const text = await body(url, key);
      answers[name] = `${digest(text)} ${text.length}`;
    }
    const sets = app.engine.valuesAt(clock.now())!;
    answers['stream ev set'] = `${digest(JSON.stringify(sets.ev.map(evPriceDto)))} ${sets.ev.length}`;
    answers['stream middles set'] =
      `${digest(JSON.stringify(sets.middles.map(middleDto)))} ${sets.middles.length}`;
    expect(answers).toEqual({
      'ev real time': '050afbf1750e8f99 19316',
      'ev delayed': '20b61e3ebf7910cd 11480',
      'ev power on sharp books': '9a99989cc5c1610e 29536',
      'middles real time': '18888830cb9280d5 666164',
      'middles delayed': 'ff415b598d3e4a3d 666188',
      'middles shin on fanduel': '96493b838b3f1535 664132',
      'ev page feed': '6eeb65b256415374 6823',
      'middles page feed': '61e8abd233fd566e 83550',
      'stream ev set': '80f3bfd1ef5b8093 20',
      'stream middles set': 'aeed6a712c571ad7 363',
    });
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerCache } from '../http/answer-cache.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';

// The finished answers GET /v1/ev and GET /v1/middles keep (issue 55, decision 205), on an app whose budget is small
// enough for a few answers: an NFL game with a positive-EV moneyline price (three books at −110 both ways, BetMGM at
// +105 / −125) and three middles (the board of middles.test.ts).

const BUDGET = 12_000;
const clock = virtualClock();
let app: FastifyInstance;
let key = '';

function price(book: string, market: string, outcome: string, american: number, point?: number) {
  app.engine.ingest({ kind: 'price', sourceEventId: 'buf-kc', book, market, outcome, american, point });
}

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now, answerCacheBytes: BUDGET });
  app.engine.stop();
  key = await createKey(app, 'enterprise');
  app.engine.ingest({
    kind: 'event',
    sourceEventId: 'buf-kc',
    league: 'nfl',
    home: { name: 'Kansas City Chiefs', abbreviation: 'KC' },
    away: { name: 'Buffalo Bills', abbreviation: 'BUF' },
    startsAt: clock.now() + 6 * 3_600_000,
    live: false,
  });
  for (const book of ['fanduel', 'draftkings', 'caesars']) {
    price(book, 'moneyline', 'home', -110);
    price(book, 'moneyline', 'away', -110);
    price(book, 'spread', 'home', -110, -3);
    price(book, 'spread', 'away', -110, 3);
    price(book, 'total', 'over', -110, 44.5);
    price(book, 'total', 'under', -110, 44.5);
  }
  price('betmgm', 'moneyline', 'home', 105);
  price('betmgm', 'moneyline', 'away', -125);
  price('fanduel', 'spread', 'home', -105, -2.5);
  price('fanduel', 'spread', 'away', -115, 2.5);
  price('draftkings', 'spread', 'home', -110, -3.5);
  price('draftkings', 'spread', 'away', -110, 3.5);
  price('betmgm', 'total', 'over', -120, 43);
  price('betmgm', 'total', 'under', 100, 43);
  app.engine.tick();
  clock.advance(1_000);
});

afterAll(async () => {
  await app.close();
});

async function distinctQuestions(route: string, cache: AnswerCache, queries: readonly string[]) {
  expect(cache.budgetBytes).toBe(BUDGET);
  let sent = 0;
  for (const query of queries) {
    const response = await app.inject({
      url: `${route}?${query}`,
      headers: { 'x-api-key': key, 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode, response.body).toBe(200);
    sent += response.rawPayload.length;
    expect(cache.bytes).toBeLessThanOrEqual(BUDGET);
  }
  return sent;
}

describe('GET /v1/ev and GET /v1/middles, finished answers', () => {
  it('/v1/ev never holds more than its byte budget, however many distinct min_ev are asked', async () => {
    const queries = Array.from({ length: 60 }, (_, n) => `min_ev=${(n / 100).toFixed(2)}`);
    const rendered = app.evAnswers.rendered;
    const sent = await distinctQuestions('/v1/ev', app.evAnswers, queries);
    expect(app.evAnswers.rendered - rendered).toBe(60);
    // The answers rendered weigh several budgets (identity, gzip and brotli each), so some had to go.
    expect(sent).toBeGreaterThan(BUDGET);
    expect(app.evAnswers.evicted).toBeGreaterThan(0);
    expect(app.evAnswers.size).toBeLessThan(60);
    expect(app.evAnswers.size).toBeGreaterThan(0);
  });

  it('/v1/middles never holds more than its byte budget, however many distinct min_ev are asked', async () => {
    const queries = Array.from({ length: 60 }, (_, n) => `min_ev=${-100 + n}`);
    const sent = await distinctQuestions('/v1/middles', app.middlesAnswers, queries);
    expect(sent).toBeGreaterThan(BUDGET);
    expect(app.middlesAnswers.evicted).toBeGreaterThan(0);
    expect(app.middlesAnswers.size).toBeLessThan(60);
  });

  it('keeps the most recently used answers: a question asked again after others is not rendered again', async () => {
    const ask = (query: string) => app.inject({ url: `/v1/ev?${query}`, headers: { 'x-api-key': key } });
    await ask('min_ev=1');
    const rendered = app.evAnswers.rendered;
    for (let n = 0; n < 5; n += 1) {
      await ask(`min_ev=2.${n}`);
      await ask('min_ev=1');
    }
    expect(app.evAnswers.rendered - rendered).toBe(5);
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devigImplied } from '#domain/devig.ts';
import { devig } from '#domain/history.ts';
import { EvResponseSchema, type EvResponse } from '#domain/schemas/api/ev.ts';
import { EvFeedSchema } from '#domain/schemas/ev-feed.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';

// GET /v1/ev and the public page's feed GET /tools/ev.json over a hand-fed board: four books price a moneyline, three
// at −110 both ways and BetMGM at +105 / −125, so the consensus is 50 / 50 and BetMGM's +105 (2.05) is worth +2.5 %.

const clock = virtualClock();
const T0 = clock.now();
let app: FastifyInstance;
const keys = { elite: '', starter: '' };

function price(event: string, book: string, outcome: string, american: number, extra: object = {}) {
  app.engine.ingest({
    kind: 'price',
    sourceEventId: event,
    book,
    market: 'moneyline',
    outcome,
    american,
    ...extra,
  });
}

function quoteBoard(betmgmHome: number) {
  for (const book of ['fanduel', 'draftkings', 'caesars']) {
    price('lal-bos', book, 'home', -110);
    price('lal-bos', book, 'away', -110);
  }
  price('lal-bos', 'betmgm', 'home', betmgmHome, {
    links: { desktop: 'https://sports.betmgm.com/en/sports', mobile: null },
  });
  price('lal-bos', 'betmgm', 'away', -125);
  // Two books only: no fair is published for this game, however good a price.
  price('den-uta', 'fanduel', 'home', 300);
  price('den-uta', 'fanduel', 'away', -110);
  price('den-uta', 'draftkings', 'home', -110);
  price('den-uta', 'draftkings', 'away', -110);
}

async function ev(key: string, query = ''): Promise<EvResponse> {
  const response = await app.inject({ url: `/v1/ev${query}`, headers: { 'x-api-key': key } });
  expect(response.statusCode, response.body).toBe(200);
  return EvResponseSchema.parse(response.json());
}

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  app.engine.stop();
  keys.elite = await createKey(app, 'elite');
  keys.starter = await createKey(app, 'starter');
  for (const [id, home, away] of [
    ['lal-bos', 'Los Angeles Lakers', 'Boston Celtics'],
    ['den-uta', 'Denver Nuggets', 'Utah Jazz'],
  ] as const) {
    app.engine.ingest({
      kind: 'event',
      sourceEventId: id,
      league: 'nba',
      home: { name: home, abbreviation: home.slice(0, 3).toUpperCase() },
      away: { name: away, abbreviation: away.slice(0, 3).toUpperCase() },
      startsAt: T0 + 6 * 3_600_000,
      live: false,
    });
  }
  quoteBoard(105);
  app.engine.tick();
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/ev', () => {
  it('lists the price above the consensus fair with its fair price, EV, books, age, method and reference', async () => {
    clock.advance(3_000);
    app.engine.tick();
    const body = await ev(keys.elite);
    expect(body).toMatchObject({
      delay_seconds: 0,
      method: 'shin',
      reference: 'consensus',
      min_books: 3,
    });
    expect(body.as_of).toBe(new Date(clock.now()).toISOString());
    expect(body.total).toBe(1);
    const [row] = body.prices;
    expect(row).toMatchObject({
      book: 'betmgm',
      market: { type: 'moneyline', period: 'full', point: null, label: 'Moneyline' },
      outcome: { outcome: 'home', name: 'Los Angeles Lakers' },
      price: { american: '+105', decimal: 2.05, age_seconds: 3 },
      fair: {
        probability: 0.5,
        decimal: 2,
        american: '+100',
        books: 4,
        method: 'shin',
        reference: 'consensus',
      },
      event: { league: 'nba', home: { name: 'Los Angeles Lakers' }, live: false },
    });
    expect(row!.price.links.desktop).toBe('https://sports.betmgm.com/en/sports');
    expect(row!.ev_pct).toBeCloseTo(2.5, 3);
    // The published EV recomputes from the published fair and price.
    expect(row!.ev_pct).toBeCloseTo((row!.fair.probability * row!.price.decimal - 1) * 100, 3);
  });

  it('leaves out a market that fewer than 3 books price on every side', async () => {
    const body = await ev(keys.elite);
    expect(body.prices.map((row) => row.event.home.name)).not.toContain('Denver Nuggets');
  });

  it('applies the league, market type, book and min_ev filters', async () => {
    expect((await ev(keys.elite, '?league=nba&markets=moneyline&books=betmgm&min_ev=2')).total).toBe(1);
    expect((await ev(keys.elite, '?league=nfl')).total).toBe(0);
    expect((await ev(keys.elite, '?markets=spread,total')).total).toBe(0);
    expect((await ev(keys.elite, '?books=fanduel,draftkings')).total).toBe(0);
    expect((await ev(keys.elite, '?min_ev=2.6')).total).toBe(0);
    const invalid = await app.inject({ url: '/v1/ev?min_ev=-5', headers: { 'x-api-key': keys.elite } });
    expect(invalid.statusCode).toBe(400);
  });

  it('drops a suspended price', async () => {
    price('lal-bos', 'betmgm', 'home', 105, { suspended: true });
    clock.advance(1_000);
    app.engine.tick();
    expect((await ev(keys.elite)).total).toBe(0);
    price('lal-bos', 'betmgm', 'home', 105);
    clock.advance(1_000);
    app.engine.tick();
    expect((await ev(keys.elite)).total).toBe(1);
  });

  it("gives a delayed plan the board as it was its delay ago, and the public feed the Starter plan's view", async () => {
    // 130 s on, every book quotes again and BetMGM's home price is now +120.
    clock.set(T0 + 130_000);
    quoteBoard(120);
    app.engine.tick();
    clock.advance(1_000);
    app.engine.tick();
    const live = await ev(keys.elite);
    expect(live.prices[0]!.price.american).toBe('+120');
    const delayed = await ev(keys.starter);
    expect(delayed.delay_seconds).toBe(120);
    // Where the prices come from, as /v1/arbs says it (the pages' key view says "Demo data" from it; decision 224).
    expect((delayed as unknown as { source: string }).source).toBe(app.engine.source);
    expect(Date.parse(delayed.as_of)).toBeLessThanOrEqual(clock.now() - 120_000);
    expect(delayed.prices.map((row) => row.price.american)).toEqual(['+105']);

    const feed = await app.inject({ url: '/tools/ev.json?t=1', headers: { 'accept-encoding': 'gzip' } });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ url: '/tools/ev.json' });
    const body = EvFeedSchema.parse(plain.json());
    expect(body).toMatchObject({
      delay_seconds: 120,
      method: 'shin',
      reference: 'consensus',
      total: 1,
    });
    expect(body.prices).toEqual([
      expect.objectContaining({
        book: 'betmgm',
        market: 'Moneyline',
        outcome: 'Los Angeles Lakers',
        american: '+105',
        fair_prob: 0.5,
        fair_american: '+100',
        books: 4,
        ev_pct: 2.5,
      }),
    ]);
    // The same second's body is held: a second read answers 304 to its ETag.
    const again = await app.inject({
      url: '/tools/ev.json',
      headers: { 'if-none-match': plain.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers the same bytes to the same filters within a quantum: 304 to their ETag, gzip when accepted', async () => {
    clock.advance(5_000);
    app.engine.tick();
    const first = await app.inject({ url: '/v1/ev?league=nba', headers: { 'x-api-key': keys.elite } });
    expect(first.statusCode).toBe(200);
    const again = await app.inject({
      url: '/v1/ev?league=nba',
      headers: { 'x-api-key': keys.elite, 'if-none-match': first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    const gzipped = await app.inject({
      url: '/v1/ev?league=nba',
      headers: { 'x-api-key': keys.elite, 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    // Other filters are another answer.
    const other = await app.inject({ url: '/v1/ev?league=nfl', headers: { 'x-api-key': keys.elite } });
    expect(other.headers.etag).not.toBe(first.headers.etag);
    expect(EvResponseSchema.parse(other.json()).total).toBe(0);
  });

  it('builds the board at most once per scan slot, whatever the number of requests', async () => {
    clock.advance(5_000);
    app.engine.tick();
    const before = app.evBoard.computed;
    for (let i = 0; i < 5; i += 1) await ev(keys.elite, i % 2 ? '?league=nba' : '');
    expect(app.evBoard.computed - before).toBe(1);
  });

  it('drops, in real time, prices that have grown older than the age limit without any new price', async () => {
    expect((await ev(keys.elite)).total).toBe(1);
    clock.advance(61_000);
    app.engine.tick();
    expect((await ev(keys.elite)).total).toBe(0);
  });
});

describe('GET /v1/ev, de-vig method and reference', () => {
  // An NHL game with a favourite: FanDuel, DraftKings and Caesars at −200 / +170, BetMGM at −180 / +190. The medians
  // (2/3 and 1/2.7) are lopsided, so Shin's fair (on two outcomes the additive one) and the power method's differ, and
  // BetMGM's +190 has positive EV under both.
  const fanduel = [1.5, 2.7];
  const medians = [1 / 1.5, 1 / 2.7];
  const away = (body: EvResponse) =>
    body.prices.find((row) => row.book === 'betmgm' && row.outcome.outcome === 'away')!;

  beforeAll(() => {
    app.engine.ingest({
      kind: 'event',
      sourceEventId: 'bos-nyr',
      league: 'nhl',
      home: { name: 'New York Rangers', abbreviation: 'NYR' },
      away: { name: 'Boston Bruins', abbreviation: 'BOS' },
      startsAt: clock.now() + 6 * 3_600_000,
      live: false,
    });
    for (const book of ['fanduel', 'draftkings', 'caesars']) {
      price('bos-nyr', book, 'home', -200);
      price('bos-nyr', book, 'away', 170);
    }
    price('bos-nyr', 'betmgm', 'home', -180);
    price('bos-nyr', 'betmgm', 'away', 190);
    app.engine.tick();
    clock.advance(1_000);
    app.engine.tick();
  });

  it('removes the margin by `devig` (default shin) and names the method in the answer and in every fair', async () => {
    const byDefault = await ev(keys.elite, '?league=nhl');
    const power = await ev(keys.elite, '?league=nhl&devig=power');
    const shin = await ev(keys.elite, '?league=nhl&devig=shin&reference=consensus');
    expect([byDefault.method, byDefault.reference]).toEqual(['shin', 'consensus']);
    expect([power.method, power.reference]).toEqual(['power', 'consensus']);
    expect(shin).toEqual(byDefault);
    expect(away(byDefault).fair).toMatchObject({
      method: 'shin',
      reference: 'consensus',
      reference_fallback: null,
    });
    expect(away(power).fair).toMatchObject({
      method: 'power',
      reference: 'consensus',
      reference_fallback: null,
    });
    const [, shinAway] = devigImplied(medians, 'shin');
    const [, powerAway] = devigImplied(medians, 'power');
    expect(away(byDefault).fair.probability).toBeCloseTo(shinAway!, 6);
    expect(away(power).fair.probability).toBeCloseTo(powerAway!, 6);
    expect(Math.abs(shinAway! - powerAway!)).toBeGreaterThan(0.001);
    expect(away(power).ev_pct).toBeCloseTo((powerAway! * 2.9 - 1) * 100, 2);
    for (const method of ['multiplicative', 'additive'] as const) {
      const body = await ev(keys.elite, `?league=nhl&devig=${method}`);
      expect(body.method).toBe(method);
      expect(away(body).fair.probability).toBeCloseTo(devigImplied(medians, method)[1]!, 6);
    }
  });

  it("takes the fair from `reference`: one book's own prices, the consensus when it cannot, and says why", async () => {
    const own = await ev(keys.elite, '?league=nhl&reference=fanduel&devig=multiplicative');
    expect(own.reference).toBe('fanduel');
    expect(away(own).fair).toMatchObject({
      reference: 'fanduel',
      reference_fallback: null,
      method: 'multiplicative',
    });
    expect(away(own).fair.probability).toBeCloseTo(devig(fanduel, 'multiplicative')[1]!, 6);
    const circa = await ev(keys.elite, '?league=nhl&reference=circa');
    expect(circa.reference).toBe('circa');
    expect(away(circa).fair).toMatchObject({
      reference: 'consensus',
      reference_fallback: 'book_missing_outcomes',
    });
    expect(away(circa).fair.probability).toBeCloseTo(devigImplied(medians, 'shin')[1]!, 6);
  });

  it('answers 400 to a method or reference it does not know', async () => {
    for (const query of ['?devig=logit', '?reference=nobody']) {
      const response = await app.inject({ url: `/v1/ev${query}`, headers: { 'x-api-key': keys.elite } });
      expect(response.statusCode, query).toBe(400);
    }
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVIG_METHODS, devigImplied, solvePower } from '#domain/devig.ts';
import { roundTo } from '#domain/odds.ts';
import { OddsResponseSchema } from '#domain/schemas/api/odds.ts';
import {
  ClvResponseSchema,
  HistoricalOddsResponseSchema,
  LinesResponseSchema,
  MovementResponseSchema,
  type HistoricalOddsResponse,
} from '#domain/schemas/api/history.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { external, trialTestConfig } from '#tests/support/server/trials.ts';

// The paid API's odds-history routes on the real app (decisions 113 and 114): prices go through the engine's intake
// on a virtual clock, the history writes them, and the routes answer from it. Every expected figure is worked out by
// hand below. PGlite here; PostgreSQL and Redis in the integration twin (history.integration.test.ts).

const MINUTE = 60_000;
const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let board: HandBoard;
const keys = { starter: '', pro: '', elite: '', enterprise: '' };

const get = (url: string, key = keys.enterprise) =>
  app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
const post = (url: string, payload: unknown, key = keys.elite) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: { 'x-api-key': key } });
const isoAt = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'api');
  for (const plan of ['starter', 'pro', 'elite', 'enterprise'] as const)
    keys[plan] = await createKey(app, plan);
});

afterAll(async () => {
  await app.close();
});

/**
 * Two books on one moneyline (decimals as the engine keeps them, floored to 4 places):
 *   opening   fanduel   home −110 (1.909)  away −110 (1.909)
 *             draftkings home −105 (1.9523) away −115 (1.8695)
 *   5 min on  fanduel   home −120 (1.8333) away +100 (2.0)       ← the closing line at fanduel
 *   start (10 min), then fanduel home −300: after the start, so not the close.
 */
async function twoBookMarket(): Promise<{ event: BoardEvent; t0: number }> {
  const event = board.addEvent({ startsInMs: 10 * MINUTE });
  const t0 = clock.now();
  board.price(event, 'fanduel', 'moneyline', 'home', -110);
  board.price(event, 'fanduel', 'moneyline', 'away', -110);
  board.price(event, 'draftkings', 'moneyline', 'home', -105);
  board.price(event, 'draftkings', 'moneyline', 'away', -115);
  clock.advance(5 * MINUTE);
  board.price(event, 'fanduel', 'moneyline', 'home', -120);
  board.price(event, 'fanduel', 'moneyline', 'away', 100);
  await board.flush();
  return { event, t0 };
}

async function startEvent(event: BoardEvent) {
  clock.set(event.startsAt + 1_000);
  board.start(event);
  clock.advance(500);
  board.price(event, 'fanduel', 'moneyline', 'home', -300);
  clock.advance(1_500);
  await board.flush();
}

describe('plans: 403 naming the plans that include the feature', () => {
  it('Starter and Pro are refused lines, CLV and historical odds, naming Elite and Enterprise', async () => {
    for (const plan of ['starter', 'pro'] as const) {
      const answers = [
        await get('/v1/events/any/lines', keys[plan]),
        await post(
          '/v1/clv',
          { bets: [{ event_id: 'x', market: 'moneyline', outcome: 'home', price: 100 }] },
          keys[plan],
        ),
        await get(`/v1/historical/odds?league=nba&at=${isoAt(clock.now())}`, keys[plan]),
      ];
      for (const answer of answers) {
        expect(answer.statusCode).toBe(403);
        const problem = answer.json();
        expect(problem).toMatchObject({
          type: 'https://sharpline.io/problems/plan-feature',
          plan,
          required_plan: 'elite',
          plans: ['elite', 'enterprise'],
        });
        expect(problem.detail).toContain('included in the Elite and Enterprise plans');
      }
    }
  });

  it('movement is refused to Starter, Pro and Elite, naming Enterprise only', async () => {
    for (const plan of ['starter', 'pro', 'elite'] as const) {
      const answer = await get('/v1/events/any/movement', keys[plan]);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ required_plan: 'enterprise', plans: ['enterprise'] });
      expect(answer.json().detail).toContain('included in the Enterprise plan;');
    }
  });

  it('/v1/me lists the history features (and same-game parlays, scores and grading) of Elite and Enterprise', async () => {
    expect((await get('/v1/me', keys.elite)).json().features).toEqual([
      'closing-lines',
      'historical-odds',
      'same-game-parlays',
      'scores-and-grading',
    ]);
    expect((await get('/v1/me', keys.enterprise)).json().features).toEqual([
      'line-movement',
      'closing-lines',
      'historical-odds',
      'same-game-parlays',
      'scores-and-grading',
    ]);
  });
});

describe('GET /v1/events/{eventId}/lines', () => {
  it('answers 404 for an event the history never saw', async () => {
    for (const path of ['lines', 'movement']) {
      const answer = await get(`/v1/events/nba-never-seen/${path}`);
      expect(answer.statusCode).toBe(404);
      expect(answer.json().type).toBe('https://sharpline.io/problems/event-not-found');
    }
  });

  it('gives opening, current and closing per book, and consensus fair probabilities at opening and closing', async () => {
    const { event, t0 } = await twoBookMarket();
    const before = LinesResponseSchema.parse((await get(`/v1/events/${event.id}/lines`, keys.elite)).json());
    // The default reference is the sharp books (decision 164); none priced this market, so the consensus answers.
    expect(before).toMatchObject({ reference_book: 'sharp', reference: 'sharp', devig: 'shin' });
    expect(before.event.closed_at).toBeNull();
    const market = before.markets[0]!;
    expect(market).toMatchObject({
      market_type: 'moneyline',
      period: 'full',
      line: null,
      label: 'Moneyline',
    });
    expect(market.outcomes.map((outcome) => outcome.outcome)).toEqual(['away', 'home']);
    const fanduelHome = market.outcomes[1]!.books.find((book) => book.book === 'fanduel')!;
    expect(fanduelHome).toEqual({
      book: 'fanduel',
      opening: { price: '-110', decimal_odds: 1.909, at: isoAt(t0), in_play: false },
      current: { price: '-120', decimal_odds: 1.8333, at: isoAt(t0 + 5 * MINUTE), state: 'open' },
      closing: null,
    });
    // Opening consensus, by hand: implied 1/d per book, median (mean of two) per outcome, then Shin's method, which on
    // two outcomes takes half the overround from each (decision 164).
    //   home: fanduel 1/1.909 = 0.5238345, draftkings 1/1.9523 = 0.5122163 → 0.5180254
    //   away: fanduel 0.5238345,           draftkings 1/1.8695 = 0.5349024 → 0.5293684
    //   sum 1.0473938, half the overround 0.0236969 → home 0.4943285, away 0.5056715
    expect(market.fair).toEqual({
      opening: {
        reference: 'consensus',
        reference_fallback: 'no_sharp_book',
        method: 'shin',
        books: ['draftkings', 'fanduel'],
        implied: { away: expect.closeTo(0.5293684, 7), home: expect.closeTo(0.5180254, 7) },
        probabilities: { away: 0.505672, home: 0.494328 },
      },
      closing: null,
    });
    // The same medians divided by their sum (devig=multiplicative): home 0.5180254 / 1.0473938 = 0.494585.
    const multiplicative = LinesResponseSchema.parse(
      (await get(`/v1/events/${event.id}/lines?devig=multiplicative`, keys.elite)).json(),
    );
    expect(multiplicative.devig).toBe('multiplicative');
    expect(multiplicative.markets[0]!.fair.opening).toMatchObject({
      method: 'multiplicative',
      probabilities: { away: 0.505415, home: 0.494585 },
    });

    await startEvent(event);
    const after = LinesResponseSchema.parse((await get(`/v1/events/${event.id}/lines`, keys.elite)).json());
    expect(after.event.closed_at).not.toBeNull();
    const home = after.markets[0]!.outcomes[1]!.books;
    expect(home.find((book) => book.book === 'fanduel')).toMatchObject({
      opening: { price: '-110' },
      current: { price: '-300', state: 'open' },
      closing: { price: '-120', decimal_odds: 1.8333, at: isoAt(t0 + 5 * MINUTE) },
    });
    expect(home.find((book) => book.book === 'draftkings')!.closing).toEqual({
      price: '-105',
      decimal_odds: 1.9523,
      at: isoAt(t0),
    });
    // Closing consensus: home fanduel 1/1.8333 = 0.5454645, draftkings 0.5122163 → 0.5288404
    //                    away fanduel 1/2.0 = 0.5,         draftkings 0.5349024 → 0.5174512
    //   sum 1.0462916, half the overround 0.0231458 → home 0.5056946, away 0.4943054
    expect(after.markets[0]!.fair.closing).toEqual({
      reference: 'consensus',
      reference_fallback: 'no_sharp_book',
      method: 'shin',
      books: ['draftkings', 'fanduel'],
      implied: { away: expect.closeTo(0.5174512, 7), home: expect.closeTo(0.5288404, 7) },
      probabilities: { away: 0.494305, home: 0.505695 },
    });
  });
});

describe('POST /v1/clv', () => {
  let started: BoardEvent;
  let upcoming: BoardEvent;

  beforeAll(async () => {
    started = (await twoBookMarket()).event;
    // Only one side of a spread ever priced before the start: no book priced every outcome.
    board.price(started, 'fanduel', 'spread', 'home', -110, { point: -3.5 });
    await startEvent(started);
    upcoming = (await twoBookMarket()).event;
  });

  it('computes CLV and OLV of a +150 bet by hand, from the bet’s own price, and reports every status', async () => {
    const answer = await post('/v1/clv', {
      bets: [
        { event_id: started.id, market: 'moneyline', outcome: 'home', price: '+150', book: 'fanduel' },
        {
          event_id: started.id,
          market: `${started.id}|moneyline|full|`,
          outcome: 'away',
          decimal_odds: 2.05,
        },
        {
          event_id: upcoming.id,
          market: 'moneyline',
          outcome: 'home',
          price: 150,
          placed_at: '2026-11-22T13:00:00+01:00',
        },
        { event_id: started.id, market: 'total', line: 220.5, outcome: 'over', price: -110 },
        { event_id: 'nba-no-such-event', market: 'moneyline', outcome: 'home', price: -110 },
        { event_id: started.id, market: 'spread', line: -3.5, outcome: 'home', price: -110 },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const { results, reference_book, reference, devig } = ClvResponseSchema.parse(answer.json());
    expect([reference_book, reference, devig]).toEqual(['sharp', 'sharp', 'shin']);
    // +150 → 2.5 exactly. Fair closing home 0.5056946 (see the lines test): CLV = (2.5 × 0.5056946 − 1) × 100
    // = 26.424; fair opening home 0.4943285: OLV = (2.5 × 0.4943285 − 1) × 100 = 23.582.
    expect(results[0]).toEqual({
      index: 0,
      event_id: started.id,
      market: `${started.id}|moneyline|full|`,
      outcome: 'home',
      book: 'fanduel',
      placed_at: null,
      decimal_odds: 2.5,
      status: 'ok',
      reference: 'consensus',
      opening_reference: 'consensus',
      closing: { price: '-120', decimal_odds: 1.8333, at: expect.any(String) },
      fair_opening_probability: 0.494328,
      fair_closing_probability: 0.505695,
      fair_opening: expect.objectContaining({
        method: 'shin',
        probabilities: { away: 0.505672, home: 0.494328 },
      }),
      fair_closing: expect.objectContaining({
        method: 'shin',
        probabilities: { away: 0.494305, home: 0.505695 },
      }),
      clv_pct: 26.424,
      olv_pct: 23.582,
      olv_reason: null,
    });
    // Away at 2.05, by market key, no book: (2.05 × 0.4943054 − 1) × 100 = 1.333; (2.05 × 0.5056715 − 1) × 100 = 3.663.
    expect(results[1]).toMatchObject({
      status: 'ok',
      closing: null,
      book: null,
      clv_pct: 1.333,
      olv_pct: 3.663,
    });
    // Not started: OLV only.
    expect(results[2]).toMatchObject({
      status: 'pending',
      placed_at: '2026-11-22T12:00:00.000Z',
      clv_pct: null,
      fair_closing_probability: null,
      fair_closing: null,
      olv_pct: 23.582,
    });
    expect(results[3]).toMatchObject({
      status: 'unknown_market',
      market: null,
      clv_pct: null,
      olv_pct: null,
    });
    expect(results[4]).toMatchObject({ status: 'unknown_event', clv_pct: null });
    expect(results[5]).toMatchObject({ status: 'no_closing_line', market: `${started.id}|spread|full|-3.5` });
    // -110 → 1 + 100/110, not the floored 1.909 of the feed.
    expect(results[3]!.decimal_odds).toBeCloseTo(1.9090909090909, 12);
  });

  it('an opening first recorded after the start is in play: marked in /lines, left out of the fair opening, no OLV', async () => {
    // docs/decisions/161. A total first priced 2 h 15 after the start at both books, and a moneyline whose draftkings
    // prices opened before it while betmgm's first came in play.
    const event = board.addEvent({ startsInMs: 10 * MINUTE });
    board.price(event, 'draftkings', 'moneyline', 'home', -105);
    board.price(event, 'draftkings', 'moneyline', 'away', -115);
    await board.flush();
    await startEvent(event);
    clock.set(event.startsAt + 135 * MINUTE);
    for (const book of ['fanduel', 'draftkings'] as const) {
      board.price(event, book, 'total', 'over', 120, { point: 220.5 });
      board.price(event, book, 'total', 'under', -150, { point: 220.5 });
    }
    board.price(event, 'betmgm', 'moneyline', 'home', 300);
    board.price(event, 'betmgm', 'moneyline', 'away', -400);
    const seen = clock.now();
    clock.advance(1_000);
    await board.flush();

    const lines = LinesResponseSchema.parse((await get(`/v1/events/${event.id}/lines`, keys.elite)).json());
    const total = lines.markets.find((market) => market.market_type === 'total')!;
    for (const outcome of total.outcomes)
      for (const book of outcome.books)
        expect(book.opening).toEqual({
          price: outcome.outcome === 'over' ? '+120' : '-150',
          decimal_odds: outcome.outcome === 'over' ? 2.2 : 1.6666,
          at: isoAt(seen),
          in_play: true,
        });
    expect(total.fair.opening).toBeNull();
    const moneyline = lines.markets.find((market) => market.market_type === 'moneyline')!;
    const openings = moneyline.outcomes[1]!.books.map((book) => [book.book, book.opening?.in_play]);
    // (startEvent's fanduel home −300 comes after the start too; fanduel never priced the away side.)
    expect(openings).toEqual([
      ['betmgm', true],
      ['draftkings', false],
      ['fanduel', true],
    ]);
    // The fair opening is draftkings' alone: home 1/1.9523 = 0.5122164, away 1/1.8695 = 0.5349024, sum 1.0471187,
    // half the overround 0.0235594 → home 0.4886570, away 0.5113430 (betmgm's in-play +300/−400 would have pulled
    // home far down).
    expect(moneyline.fair.opening).toMatchObject({
      reference: 'consensus',
      books: ['draftkings'],
      probabilities: { away: 0.511343, home: 0.488657 },
    });

    const answer = await post('/v1/clv', {
      bets: [
        { event_id: event.id, market: 'total', line: 220.5, outcome: 'over', price: 120 },
        { event_id: event.id, market: 'moneyline', outcome: 'home', price: 150 },
      ],
    });
    const { results } = ClvResponseSchema.parse(answer.json());
    // The total: no opening line (it was in play) and no closing line (nothing before the start).
    expect(results[0]).toMatchObject({
      status: 'no_closing_line',
      market: `${event.id}|total|full|220.5`,
      opening_reference: null,
      fair_opening_probability: null,
      olv_pct: null,
      olv_reason: 'opening_in_play',
    });
    // The moneyline: OLV against draftkings' pre-match opening only, (2.5 × 0.4886570 − 1) × 100 = 22.164.
    expect(results[1]).toMatchObject({
      fair_opening_probability: 0.488657,
      olv_pct: 22.164,
      olv_reason: null,
    });
  });

  it('answers 400 problem+json for bad bets, naming the fields', async () => {
    const bet = { event_id: started.id, market: 'moneyline', outcome: 'home', price: 120 };
    const cases: [unknown, string][] = [
      [{ bets: [] }, 'bets'],
      [{ bets: Array.from({ length: 101 }, () => bet) }, 'bets'],
      [{ bets: [{ ...bet, decimal_odds: 2.2 }] }, 'bets.0.price'],
      [{ bets: [{ event_id: started.id, market: 'moneyline', outcome: 'home' }] }, 'bets.0.price'],
      [{ bets: [{ ...bet, market: 'spread' }] }, 'bets.0.line'],
      [{ bets: [{ ...bet, market: 'corners' }] }, 'bets.0.market'],
      [{ bets: [{ ...bet, price: '+50' }] }, 'bets.0.price'],
      [{ bets: [{ ...bet, outcome: 'left' }] }, 'bets.0.outcome'],
      [{ bets: [{ ...bet, book: 'nobook' }] }, 'bets.0.book'],
      [{ bets: [{ ...bet, placed_at: 'yesterday' }] }, 'bets.0.placed_at'],
    ];
    for (const [payload, field] of cases) {
      const answer = await post('/v1/clv', payload);
      expect(answer.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(400);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(answer.json().type).toBe('https://sharpline.io/problems/validation');
      expect(Object.keys(answer.json().errors)).toContain(field);
    }
  });
});

describe('CLV_REFERENCE_BOOK', () => {
  it('de-vigs the reference book alone when it priced every outcome', async () => {
    const refClock = virtualClock(Date.UTC(2026, 10, 23, 12));
    const refApp = await buildTestApp({
      config: trialTestConfig({ CLV_REFERENCE_BOOK: 'draftkings' }),
      now: refClock.now,
    });
    try {
      await refApp.ready();
      const hand = new HandBoard(refApp, refClock, 'ref');
      const event = hand.addEvent({ startsInMs: MINUTE });
      hand.price(event, 'fanduel', 'moneyline', 'home', -110);
      hand.price(event, 'fanduel', 'moneyline', 'away', -110);
      hand.price(event, 'draftkings', 'moneyline', 'home', -105);
      hand.price(event, 'draftkings', 'moneyline', 'away', -115);
      refClock.advance(2 * MINUTE);
      hand.start(event);
      await hand.flush();
      const key = await createKey(refApp, 'elite');
      const answer = await refApp.inject({
        method: 'POST',
        url: '/v1/clv',
        headers: { 'x-api-key': key },
        payload: { bets: [{ event_id: event.id, market: 'moneyline', outcome: 'home', price: 150 }] },
      });
      // draftkings alone: home 0.5122163 − (0.5122163 + 0.5349024 − 1) / 2 = 0.4886570 (Shin, two outcomes);
      // (2.5 × 0.4886570 − 1) × 100 = 22.164.
      expect(answer.json().results[0]).toMatchObject({
        status: 'ok',
        reference: 'draftkings',
        opening_reference: 'draftkings',
        fair_closing_probability: 0.488657,
        clv_pct: 22.164,
      });
      const lines = (
        await refApp.inject({
          method: 'GET',
          url: `/v1/events/${event.id}/lines`,
          headers: { 'x-api-key': key },
        })
      ).json();
      expect(lines.reference_book).toBe('draftkings');
      expect(lines.markets[0].fair.closing).toEqual({
        reference: 'draftkings',
        reference_fallback: null,
        method: 'shin',
        books: ['draftkings'],
        implied: { away: 1 / 1.8695, home: 1 / 1.9523 },
        probabilities: { away: 0.511343, home: 0.488657 },
      });
      // A request may ask for another reference: the consensus of both books (medians as in the lines test above).
      const consensus = (
        await refApp.inject({
          method: 'GET',
          url: `/v1/events/${event.id}/lines?reference=consensus`,
          headers: { 'x-api-key': key },
        })
      ).json();
      expect(consensus.reference).toBe('consensus');
      expect(consensus.markets[0].fair.closing).toMatchObject({
        reference: 'consensus',
        reference_fallback: null,
        books: ['draftkings', 'fanduel'],
        probabilities: { away: 0.505672, home: 0.494328 },
      });
    } finally {
      await refApp.close();
    }
  });
});

describe('fair probabilities: devig= and reference= (decision 164)', () => {
  it('come from the sharp books when they priced every outcome, from a book asked for, by any method, from the inputs they show', async () => {
    const event = board.addEvent({ startsInMs: 10 * MINUTE });
    board.price(event, 'circa', 'moneyline', 'home', -105);
    board.price(event, 'circa', 'moneyline', 'away', -105);
    board.price(event, 'betonline', 'moneyline', 'home', -110);
    board.price(event, 'betonline', 'moneyline', 'away', 100);
    board.price(event, 'fanduel', 'moneyline', 'home', -150);
    board.price(event, 'fanduel', 'moneyline', 'away', 130);
    await board.flush();
    const lines = async (query: string) =>
      LinesResponseSchema.parse((await get(`/v1/events/${event.id}/lines${query}`, keys.elite)).json());
    // The sharp books' medians (means of two): home (1/1.9523 + 1/1.909) / 2 = (0.5122163 + 0.5238345) / 2 = 0.5180254,
    // away (1/1.9523 + 1/2.0) / 2 = 0.5061082; overround 0.0241336, half from each side (Shin, two outcomes):
    // home 0.5059586, away 0.4940414.
    const sharp = (await lines('')).markets[0]!.fair.opening;
    expect(sharp).toEqual({
      reference: 'sharp',
      reference_fallback: null,
      method: 'shin',
      books: ['betonline', 'circa'],
      implied: { away: expect.closeTo(0.5061082, 7), home: expect.closeTo(0.5180254, 7) },
      probabilities: { away: 0.494041, home: 0.505959 },
    });
    // fanduel's own prices: home 1/1.6666 = 0.6000240, away 1/2.3 = 0.4347826, half the overround 0.0174033 →
    // home 0.5826207, away 0.4173793.
    const fanduel = await lines('?reference=fanduel');
    expect(fanduel.reference).toBe('fanduel');
    expect(fanduel.markets[0]!.fair.opening).toEqual({
      reference: 'fanduel',
      reference_fallback: null,
      method: 'shin',
      books: ['fanduel'],
      implied: { away: 1 / 2.3, home: 1 / 1.6666 },
      probabilities: { away: 0.417379, home: 0.582621 },
    });
    // Every method: the published inputs, put through the named method, give the published probabilities.
    for (const method of DEVIG_METHODS) {
      const fair = (await lines(`?devig=${method}&reference=consensus`)).markets[0]!.fair.opening!;
      expect(fair).toMatchObject({
        method,
        reference: 'consensus',
        books: ['betonline', 'circa', 'fanduel'],
      });
      const recomputed = devigImplied([fair.implied.away!, fair.implied.home!], method);
      expect(fair.probabilities).toEqual({
        away: roundTo(recomputed[0]!, 6),
        home: roundTo(recomputed[1]!, 6),
      });
    }
    // Power by hand: the medians of three are betonline's, home 1/1.909 (between 1/1.9523 and 1/1.6666) and away
    // 1/2.0 (between 1/2.3 and 1/1.9523); k solves 0.5^k + (1/1.909)^k = 1.
    const power = (await lines('?devig=power&reference=consensus')).markets[0]!.fair.opening!;
    expect(power.implied).toEqual({ away: 0.5, home: 1 / 1.909 });
    const k = solvePower([1 / 2.0, 1 / 1.909]).k;
    expect(0.5 ** k + (1 / 1.909) ** k).toBeCloseTo(1, 12);
    expect(power.probabilities.away).toBeCloseTo(0.5 ** k, 6);
    // Unknown values: 400 problem+json naming the parameter.
    for (const [query, field] of [
      ['?devig=logit', 'devig'],
      ['?reference=pinnacle', 'reference'],
    ] as const) {
      const answer = await get(`/v1/events/${event.id}/lines${query}`, keys.elite);
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(Object.keys(answer.json().errors)).toContain(field);
    }
    for (const [extra, field] of [
      [{ devig: 'logit' }, 'devig'],
      [{ reference: 'pinnacle' }, 'reference'],
    ] as const) {
      const answer = await post('/v1/clv', {
        bets: [{ event_id: event.id, market: 'moneyline', outcome: 'home', price: 120 }],
        ...extra,
      });
      expect(answer.statusCode).toBe(400);
      expect(Object.keys(answer.json().errors)).toContain(field);
    }
  });

  it('additive gives 0 to a longshot priced below its share of the margin: no CLV or OLV, and the reason', async () => {
    const event = board.addEvent({ league: 'epl', startsInMs: 10 * MINUTE });
    board.price(event, 'fanduel', '1x2', 'home', -2000);
    board.price(event, 'fanduel', '1x2', 'draw', 1000);
    board.price(event, 'fanduel', '1x2', 'away', 4900);
    await board.flush();
    clock.set(event.startsAt + 1_000);
    board.start(event);
    clock.advance(2_000);
    await board.flush();
    const bet = { event_id: event.id, market: '1x2', outcome: 'away', price: 4900 };
    // 1/1.05 + 1/11 + 1/50 = 1.0632900: a third of the overround, 0.0210967, is more than the away side's 0.02, so
    // it gets 0 and the other two share it: (0.9523810 + 0.0909091 − 1) / 2 = 0.0216450 → home 0.9307359,
    // draw 0.0692641.
    const additive = ClvResponseSchema.parse(
      (await post('/v1/clv', { bets: [bet], devig: 'additive' })).json(),
    );
    expect(additive.results[0]).toMatchObject({
      status: 'zero_fair_probability',
      fair_closing_probability: 0,
      fair_opening_probability: 0,
      clv_pct: null,
      olv_pct: null,
      olv_reason: 'zero_fair_probability',
    });
    expect(additive.results[0]!.fair_closing!.probabilities).toEqual({
      away: 0,
      draw: 0.069264,
      home: 0.930736,
    });
    // Shin's method keeps the longshot above 0.
    const shin = ClvResponseSchema.parse((await post('/v1/clv', { bets: [bet] })).json());
    expect(shin.results[0]).toMatchObject({ status: 'ok', olv_reason: null });
    expect(shin.results[0]!.fair_closing_probability).toBeGreaterThan(0);
  });
});

describe('GET /v1/events/{eventId}/movement', () => {
  let event: BoardEvent;
  let t0: number;

  beforeAll(async () => {
    // Align to five minutes so the candles' buckets are easy to check.
    clock.set(Math.ceil((clock.now() + MINUTE) / (5 * MINUTE)) * 5 * MINUTE);
    t0 = clock.now();
    event = board.addEvent({ startsInMs: 60 * MINUTE });
    const at = (ms: number) => clock.set(t0 + ms);
    at(10_000);
    board.price(event, 'fanduel', 'moneyline', 'home', -110); // 1.909
    board.price(event, 'fanduel', 'moneyline', 'away', -110);
    at(40_000);
    board.price(event, 'fanduel', 'moneyline', 'home', -120); // 1.8333
    at(80_000);
    board.price(event, 'fanduel', 'moneyline', 'home', 100); // 2.0
    at(110_000);
    board.price(event, 'fanduel', 'moneyline', 'home', 100, { suspended: true });
    at(185_000);
    board.price(event, 'fanduel', 'moneyline', 'home', 110); // 2.1
    at(210_000);
    board.price(event, 'fanduel', 'moneyline', 'home', -105); // 1.9523
    for (let step = 0; step < 12; step += 1) {
      at(220_000 + step * 1_000);
      board.price(event, 'fanduel', 'moneyline', 'away', 100 + step);
    }
    at(300_000);
    await board.flush();
  });

  it('lists every change with its state, suspension included, in UTC with milliseconds', async () => {
    const body = MovementResponseSchema.parse(
      (await get(`/v1/events/${event.id}/movement?book=fanduel&outcome=home`)).json(),
    );
    expect(body.interval).toBeNull();
    expect(body.gaps).toEqual([]);
    expect(body.next_cursor).toBeNull();
    expect(body.series).toHaveLength(1);
    expect(body.series[0]).toMatchObject({
      market: `${event.id}|moneyline|full|`,
      market_type: 'moneyline',
      outcome: 'home',
      book: 'fanduel',
    });
    expect(body.series[0]!.points).toEqual([
      { at: isoAt(t0 + 10_000), price: '-110', decimal_odds: 1.909, state: 'open' },
      { at: isoAt(t0 + 40_000), price: '-120', decimal_odds: 1.8333, state: 'open' },
      { at: isoAt(t0 + 80_000), price: '+100', decimal_odds: 2, state: 'open' },
      { at: isoAt(t0 + 110_000), price: '+100', decimal_odds: 2, state: 'suspended' },
      { at: isoAt(t0 + 185_000), price: '+110', decimal_odds: 2.1, state: 'open' },
      { at: isoAt(t0 + 210_000), price: '-105', decimal_odds: 1.9523, state: 'open' },
    ]);
    expect(body.series[0]!.points![0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // from/to narrow the window, both inclusive.
    const narrow = MovementResponseSchema.parse(
      (
        await get(
          `/v1/events/${event.id}/movement?book=fanduel&outcome=home&from=${isoAt(t0 + 40_000)}&to=${isoAt(t0 + 110_000)}`,
        )
      ).json(),
    );
    expect(narrow.series[0]!.points!.map((point) => point.state + point.price)).toEqual([
      'open-120',
      'open+100',
      'suspended+100',
    ]);
  });

  it('pages through every change of every series without losing or repeating one', async () => {
    const whole = MovementResponseSchema.parse((await get(`/v1/events/${event.id}/movement`)).json());
    const all = whole.series.flatMap((series) =>
      series.points!.map((point) => `${series.outcome}|${point.at}|${point.price}|${point.state}`),
    );
    expect(all).toHaveLength(6 + 13);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/v1/events/${event.id}/movement?limit=4${cursor ? `&cursor=${cursor}` : ''}`;
      const page = MovementResponseSchema.parse((await get(url)).json());
      for (const series of page.series) {
        expect(series.points!.length).toBeGreaterThan(0);
        for (const point of series.points!)
          seen.push(`${series.outcome}|${point.at}|${point.price}|${point.state}`);
      }
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(5);
    expect(seen).toEqual(all);
  });

  it('builds candles that agree with the ticks, and pages them too', async () => {
    // The price stays in force until now: later buckets would hold flat candles. Stop before them.
    const url = `/v1/events/${event.id}/movement?book=fanduel&outcome=home&to=${isoAt(t0 + 4 * MINUTE - 1)}&interval=1m`;
    const body = MovementResponseSchema.parse((await get(url)).json());
    expect(body.interval).toBe('1m');
    // 12:…:00 bucket: nothing in force at its start, first tick 1.909, then 1.8333.
    // next: 1.8333 in force, 2.0 at +80 s, suspended at +110 s (close = the last open price, 2.0).
    // next: suspended throughout: no candle. Last: 2.1 at +185 s, then 1.9523.
    expect(body.series[0]!.candles).toEqual([
      {
        at: isoAt(t0),
        open: 1.909,
        high: 1.909,
        low: 1.8333,
        close: 1.8333,
        american: { open: '-110', high: '-110', low: '-120', close: '-120' },
      },
      {
        at: isoAt(t0 + MINUTE),
        open: 1.8333,
        high: 2,
        low: 1.8333,
        close: 2,
        american: { open: '-120', high: '+100', low: '-120', close: '+100' },
      },
      {
        at: isoAt(t0 + 3 * MINUTE),
        open: 2.1,
        high: 2.1,
        low: 1.9523,
        close: 1.9523,
        american: { open: '+110', high: '+110', low: '-105', close: '-105' },
      },
    ]);
    const fiveMinutes = MovementResponseSchema.parse((await get(url.replace('1m', '5m'))).json());
    expect(fiveMinutes.series[0]!.candles).toEqual([
      {
        at: isoAt(t0),
        open: 1.909,
        high: 2.1,
        low: 1.8333,
        close: 1.9523,
        american: { open: '-110', high: '+110', low: '-120', close: '-105' },
      },
    ]);
    // Every series' candles, one per page: the same candles as in one answer.
    const whole = MovementResponseSchema.parse(
      (await get(`/v1/events/${event.id}/movement?interval=1m`)).json(),
    ).series.flatMap((series) =>
      series.candles!.map((candle) => `${series.outcome}|${candle.at}|${candle.close}`),
    );
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = MovementResponseSchema.parse(
        (
          await get(`/v1/events/${event.id}/movement?interval=1m&limit=1${cursor ? `&cursor=${cursor}` : ''}`)
        ).json(),
      );
      for (const series of page.series)
        for (const candle of series.candles!) paged.push(`${series.outcome}|${candle.at}|${candle.close}`);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(paged).toEqual(whole);
    expect(whole.length).toBeGreaterThan(3);
  });

  it('answers 400 for a bad interval, a foreign cursor, or from after to', async () => {
    const first = (await get(`/v1/events/${event.id}/movement?limit=2`)).json();
    const cases = [
      [`interval=2m`, 'interval'],
      [`cursor=${first.next_cursor}&book=fanduel`, 'cursor'],
      [`cursor=garbage`, 'cursor'],
      [`from=${isoAt(t0 + MINUTE)}&to=${isoAt(t0)}`, 'from'],
      [`market=corners`, 'market'],
      [`limit=0`, 'limit'],
    ];
    for (const [query, field] of cases) {
      const answer = await get(`/v1/events/${event.id}/movement?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(Object.keys(answer.json().errors)).toContain(field);
    }
  });
});

describe('GET /v1/historical/odds', () => {
  it('shows the board at each change and walks from one change to the next and back', async () => {
    clock.advance(10 * MINUTE);
    const t0 = clock.now();
    const event = board.addEvent({ league: 'nhl', startsInMs: 60 * MINUTE });
    board.price(event, 'fanduel', 'moneyline', 'home', -110);
    board.price(event, 'fanduel', 'moneyline', 'away', -110);
    clock.advance(1_000);
    board.price(event, 'draftkings', 'moneyline', 'home', -105);
    board.price(event, 'draftkings', 'moneyline', 'away', -115);
    clock.advance(1_000);
    board.price(event, 'fanduel', 'moneyline', 'home', -120);
    clock.advance(1_000);
    board.price(event, 'draftkings', 'moneyline', 'away', -115, { suspended: true });
    clock.advance(5_000);
    await board.flush();

    const boardAt = async (at: number) => {
      const answer = await get(`/v1/historical/odds?league=nhl&at=${isoAt(at)}`);
      expect(answer.statusCode).toBe(200);
      return HistoricalOddsResponseSchema.parse(answer.json());
    };
    const prices = (body: Awaited<ReturnType<typeof boardAt>>) =>
      body.events.flatMap((entry) =>
        entry.markets.flatMap((market) =>
          market.outcomes.flatMap((outcome) =>
            outcome.prices.map(
              (price) =>
                `${outcome.outcome}@${price.book}:${price.american}${price.suspended ? ' (suspended)' : ''}`,
            ),
          ),
        ),
      );

    expect((await boardAt(t0 - 1)).events).toEqual([]);
    const steps: { at: string; prices: string[]; previous: string | null }[] = [];
    let at: number | null = t0;
    while (at !== null) {
      const body = await boardAt(at);
      expect(body.at).toBe(isoAt(at));
      expect(body.as_of).toBe(isoAt(at));
      steps.push({ at: body.at, prices: prices(body), previous: body.previous_change_at });
      at = body.next_change_at === null ? null : Date.parse(body.next_change_at);
    }
    expect(steps).toEqual([
      { at: isoAt(t0), previous: null, prices: ['away@fanduel:-110', 'home@fanduel:-110'] },
      {
        at: isoAt(t0 + 1_000),
        previous: isoAt(t0),
        prices: ['away@fanduel:-110', 'away@draftkings:-115', 'home@draftkings:-105', 'home@fanduel:-110'],
      },
      {
        at: isoAt(t0 + 2_000),
        previous: isoAt(t0 + 1_000),
        prices: ['away@fanduel:-110', 'away@draftkings:-115', 'home@draftkings:-105', 'home@fanduel:-120'],
      },
      {
        at: isoAt(t0 + 3_000),
        previous: isoAt(t0 + 2_000),
        prices: [
          'away@fanduel:-110',
          'away@draftkings:-115 (suspended)',
          'home@draftkings:-105',
          'home@fanduel:-120',
        ],
      },
    ]);

    // Now, it is the same board as /v1/odds, in the same shape.
    const now = await boardAt(clock.now());
    const live = OddsResponseSchema.parse((await get('/v1/odds?league=nhl')).json());
    const strip = (events: typeof live.events) =>
      events.map((entry) => ({
        event: entry.event,
        markets: entry.markets.map((market) => ({
          ...market,
          outcomes: market.outcomes.map((outcome) => ({
            ...outcome,
            prices: outcome.prices.map(({ book, american, decimal, implied_prob, suspended }) => ({
              book,
              american,
              decimal,
              implied_prob,
              suspended,
            })),
          })),
        })),
      }));
    expect(strip(now.events)).toEqual(strip(live.events));
    expect(now.next_change_at).toBeNull();
  });

  it('walks over a fixture that appeared and ended between two changes of another (no step skipped)', async () => {
    clock.advance(10 * MINUTE);
    const t0 = clock.now();
    const stays = board.addEvent({ league: 'mls', startsInMs: 60 * MINUTE });
    board.price(stays, 'fanduel', '1x2', 'home', 150);
    clock.advance(2_000);
    const brief = board.addEvent({ league: 'mls', startsInMs: 30 * MINUTE });
    board.price(brief, 'betmgm', '1x2', 'draw', 240);
    clock.advance(2_000);
    board.end(brief);
    clock.advance(2_000);
    board.price(stays, 'fanduel', '1x2', 'home', 155);
    await board.flush();

    const walked: { at: number; events: number }[] = [];
    let at: number | null = t0;
    while (at !== null) {
      const body = HistoricalOddsResponseSchema.parse(
        (await get(`/v1/historical/odds?league=mls&at=${isoAt(at)}`)).json(),
      );
      walked.push({ at: at - t0, events: body.events.length });
      at = body.next_change_at === null ? null : Date.parse(body.next_change_at);
    }
    expect(walked).toEqual([
      { at: 0, events: 1 },
      { at: 2_000, events: 2 },
      { at: 4_000, events: 1 },
      { at: 6_000, events: 1 },
    ]);
    // And back from the end, through the brief fixture's end.
    const last = HistoricalOddsResponseSchema.parse(
      (await get(`/v1/historical/odds?league=mls&at=${isoAt(t0 + 6_000)}`)).json(),
    );
    expect(last.previous_change_at).toBe(isoAt(t0 + 4_000));
  });

  it('answers 400 without a league or instant, or for an instant in the future', async () => {
    for (const query of [
      'league=nhl',
      `at=${isoAt(clock.now())}`,
      `league=nhl&at=${isoAt(clock.now() + MINUTE)}`,
    ]) {
      const answer = await get(`/v1/historical/odds?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().type).toBe('https://sharpline.io/problems/validation');
    }
  });

  it('counts as 10 requests: a key with N requests left gets N / 10 answers, and the rest stays usable', async () => {
    const key = await createKey(app, 'elite');
    const at = isoAt(clock.now());
    const reset = Number((await get('/v1/me', key)).headers['x-ratelimit-reset']);
    if (external() && reset < 15) {
      // Redis keeps real time: start in a fresh window rather than straddle one.
      await new Promise((resolve) => setTimeout(resolve, reset * 1000 + 200));
    }
    // Three cheap calls first, so that some requests are left after the costly ones (GET /v1/me itself is free).
    for (let call = 0; call < 3; call += 1) expect((await get('/v1/leagues', key)).statusCode).toBe(200);
    const remaining = Number((await get('/v1/me', key)).headers['x-ratelimit-remaining']);
    expect(remaining % 10).toBeGreaterThan(0);
    const allowed = Math.floor(remaining / 10);
    for (let call = 0; call < allowed; call += 1) {
      const answer = await get(`/v1/historical/odds?league=nhl&at=${at}`, key);
      expect(answer.statusCode).toBe(200);
      expect(Number(answer.headers['x-ratelimit-remaining'])).toBe(remaining - 10 * (call + 1));
    }
    const refused = await get(`/v1/historical/odds?league=nhl&at=${at}`, key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      type: 'https://sharpline.io/problems/rate-limited',
      request_cost: 10,
    });
    // The refused call was not charged: the requests left still fit cheaper calls.
    const left = remaining % 10;
    for (let call = 0; call < left; call += 1) expect((await get('/v1/leagues', key)).statusCode).toBe(200);
    expect((await get('/v1/leagues', key)).statusCode).toBe(429);
  });
});

describe('player props in the history API (issue 15)', () => {
  // The prices of twoBookMarket on LeBron James' points over/under 27.5 (over where it has home, under where away),
  // so every fair figure is the moneyline's above: opening over 0.494328 / under 0.505672, closing 0.505695 / 0.494305
  // (Shin's method, the default), or opening 0.494585 / 0.505415, closing 0.505443 / 0.494557 (multiplicative).
  // Beside it: a moneyline, and Jayson Tatum's points 25.5 at one book.
  const LEBRON = { id: 'p-lebron', name: 'LeBron James' };
  const TATUM = { id: 'p-tatum', name: 'Jayson Tatum' };
  const lebron = { stat: 'player_points', player: LEBRON, point: 27.5 };
  let event: BoardEvent;
  let key: string;
  let t0: number;

  beforeAll(async () => {
    clock.advance(10 * MINUTE);
    event = board.addEvent({ startsInMs: 10 * MINUTE });
    const stored = app.engine.store.event(event.id)!;
    expect(
      app.engine.ingest({
        kind: 'event',
        sourceEventId: event.source,
        league: 'nba',
        home: { name: stored.home.name },
        away: { name: stored.away.name },
        startsAt: event.startsAt,
        players: [
          { ...LEBRON, team: 'home' },
          { ...TATUM, team: 'away' },
          // A player listed without his team (as The Odds API lists them): team null in every answer, never a guess.
          { id: 'p-holiday', name: 'Jrue Holiday' },
        ],
      }),
    ).toBe(true);
    key = `${event.id}|prop|player_points|full|p-lebron|27.5`;
    t0 = clock.now();
    board.price(event, 'fanduel', 'prop', 'over', -110, lebron);
    board.price(event, 'fanduel', 'prop', 'under', -110, lebron);
    board.price(event, 'draftkings', 'prop', 'over', -105, lebron);
    board.price(event, 'draftkings', 'prop', 'under', -115, lebron);
    board.price(event, 'fanduel', 'prop', 'over', -110, {
      stat: 'player_points',
      player: TATUM,
      point: 25.5,
    });
    board.price(event, 'betmgm', 'prop', 'over', -110, {
      stat: 'player_assists',
      player: { id: 'p-holiday', name: 'Jrue Holiday' },
      point: 4.5,
    });
    board.price(event, 'fanduel', 'moneyline', 'home', -150);
    board.price(event, 'fanduel', 'moneyline', 'away', 130);
    clock.advance(5 * MINUTE);
    board.price(event, 'fanduel', 'prop', 'over', -120, lebron);
    board.price(event, 'fanduel', 'prop', 'under', 100, lebron);
    await board.flush();
  });

  const LEBRON_DTO = { id: 'p-lebron', name: 'LeBron James', team: 'home' };

  it('movement: a prop series like any other, with its stat and player; market=prop(s), player and stat filter', async () => {
    const body = MovementResponseSchema.parse(
      (
        await get(
          `/v1/events/${event.id}/movement?market=prop&player=lebron%20james&book=fanduel&outcome=over`,
        )
      ).json(),
    );
    expect(body.series).toEqual([
      {
        market: key,
        market_type: 'prop',
        period: 'full',
        line: 27.5,
        stat: 'player_points',
        player: LEBRON_DTO,
        outcome: 'over',
        book: 'fanduel',
        points: [
          { at: isoAt(t0), price: '-110', decimal_odds: 1.909, state: 'open' },
          { at: isoAt(t0 + 5 * MINUTE), price: '-120', decimal_odds: 1.8333, state: 'open' },
        ],
      },
    ]);
    const series = async (query: string) =>
      MovementResponseSchema.parse((await get(`/v1/events/${event.id}/movement?${query}`)).json()).series.map(
        (row) => `${row.market_type}:${row.player?.id ?? '-'}:${row.outcome}@${row.book}`,
      );
    // The same series by market key (with or without the event part), by `props`, by id, by a name written otherwise.
    const fanduelOver = ['prop:p-lebron:over@fanduel'];
    for (const query of [
      `market=${encodeURIComponent(key)}&book=fanduel&outcome=over`,
      `market=${encodeURIComponent('prop|player_points|full|p-lebron|27.5')}&book=fanduel&outcome=over`,
      'market=props&player=p-lebron&book=fanduel&outcome=over',
      'player=LEBRON%20JAMES%20Jr.&book=fanduel&outcome=over',
    ])
      expect(await series(query), query).toEqual(fanduelOver);
    expect(await series('player=Jayson%20Tatum')).toEqual(['prop:p-tatum:over@fanduel']);
    expect(await series('stat=player_points&book=fanduel&outcome=over')).toEqual([
      'prop:p-lebron:over@fanduel',
      'prop:p-tatum:over@fanduel',
    ]);
    expect(await series('stat=player_rebounds')).toEqual([]);
    expect(await series('player=Nobody%20Here')).toEqual([]);
    // Game lines carry null stat and player.
    const all = MovementResponseSchema.parse((await get(`/v1/events/${event.id}/movement`)).json());
    expect(all.series.filter((row) => row.market_type === 'moneyline')).toHaveLength(2);
    for (const row of all.series.filter((entry) => entry.market_type === 'moneyline'))
      expect(row).toMatchObject({ stat: null, player: null });
    // A cursor of the player's question does not continue another player's.
    const first = (await get(`/v1/events/${event.id}/movement?player=p-lebron&limit=1`)).json();
    const foreign = await get(`/v1/events/${event.id}/movement?player=p-tatum&cursor=${first.next_cursor}`);
    expect(foreign.statusCode).toBe(400);
    expect(Object.keys(foreign.json().errors)).toContain('cursor');
  });

  it('lines: opening, current, closing and fair probabilities of a prop, its labels, and the player filter', async () => {
    const body = LinesResponseSchema.parse(
      (await get(`/v1/events/${event.id}/lines?player=LeBron%20James`, keys.elite)).json(),
    );
    expect(body.markets).toHaveLength(1);
    const market = body.markets[0]!;
    expect(market).toMatchObject({
      market: key,
      market_type: 'prop',
      period: 'full',
      line: 27.5,
      stat: 'player_points',
      player: LEBRON_DTO,
      label: 'LeBron James Points Over/Under 27.5',
      fair: {
        opening: {
          reference: 'consensus',
          reference_fallback: 'no_sharp_book',
          method: 'shin',
          books: ['draftkings', 'fanduel'],
          probabilities: { over: 0.494328, under: 0.505672 },
        },
        closing: null,
      },
    });
    expect(market.outcomes.map((outcome) => [outcome.outcome, outcome.name])).toEqual([
      ['over', 'LeBron James Points Over 27.5'],
      ['under', 'LeBron James Points Under 27.5'],
    ]);
    expect(market.outcomes[0]!.books.find((book) => book.book === 'fanduel')).toEqual({
      book: 'fanduel',
      opening: { price: '-110', decimal_odds: 1.909, at: isoAt(t0), in_play: false },
      current: { price: '-120', decimal_odds: 1.8333, at: isoAt(t0 + 5 * MINUTE), state: 'open' },
      closing: null,
    });
    // Without the filter: the moneyline (null stat and player) and the three players' props.
    const every = LinesResponseSchema.parse((await get(`/v1/events/${event.id}/lines`, keys.elite)).json());
    expect(every.markets.map((entry) => [entry.market_type, entry.stat, entry.player?.id ?? null])).toEqual([
      ['moneyline', null, null],
      ['prop', 'player_assists', 'p-holiday'],
      ['prop', 'player_points', 'p-lebron'],
      ['prop', 'player_points', 'p-tatum'],
    ]);
    expect(every.markets[1]!.player).toEqual({ id: 'p-holiday', name: 'Jrue Holiday', team: null });
    // Tatum's over alone: no book priced every outcome, so no fair probabilities.
    expect(every.markets[3]!.fair.opening).toBeNull();
    expect((await get(`/v1/events/${event.id}/lines?player=nobody`, keys.elite)).json().markets).toEqual([]);
  });

  it('historical odds: the board at an instant shows props with stat, player and labels; markets=props, player, stat', async () => {
    const boardAt = async (query: string) => {
      const answer = await get(`/v1/historical/odds?league=nba&at=${isoAt(t0 + MINUTE)}&${query}`);
      expect(answer.statusCode, query).toBe(200);
      return HistoricalOddsResponseSchema.parse(answer.json());
    };
    const body = await boardAt('markets=props&player=lebron%20james');
    expect(body.events.map((entry) => entry.event.id)).toEqual([event.id]);
    expect(body.events[0]!.markets).toEqual([
      {
        key,
        type: 'prop',
        period: 'full',
        stat: 'player_points',
        player: LEBRON_DTO,
        point: 27.5,
        label: 'LeBron James Points Over/Under 27.5',
        main: true,
        outcomes: [
          {
            outcome: 'over',
            name: 'LeBron James Points Over 27.5',
            // Best price first, as /v1/odds.
            prices: [
              expect.objectContaining({ book: 'draftkings', american: '-105' }),
              expect.objectContaining({ book: 'fanduel', american: '-110', updated_at: isoAt(t0) }),
            ],
          },
          {
            outcome: 'under',
            name: 'LeBron James Points Under 27.5',
            prices: [
              expect.objectContaining({ book: 'fanduel', american: '-110' }),
              expect.objectContaining({ book: 'draftkings', american: '-115' }),
            ],
          },
        ],
      },
    ]);
    const markets = async (query: string) =>
      (await boardAt(query)).events
        .filter((entry) => entry.event.id === event.id)
        .flatMap((entry) =>
          entry.markets.map((market) => `${market.type}:${market.player?.id ?? '-'}:${market.main}`),
        );
    expect(await markets('markets=prop')).toEqual([
      'prop:p-holiday:true',
      'prop:p-lebron:true',
      'prop:p-tatum:true',
    ]);
    expect(await markets('stat=player_points&player=p-tatum')).toEqual(['prop:p-tatum:true']);
    expect(await markets('markets=moneyline,props')).toEqual([
      'moneyline:-:true',
      'prop:p-holiday:true',
      'prop:p-lebron:true',
      'prop:p-tatum:true',
    ]);
    // A game line has no stat or player key at all (as in /v1/odds).
    const moneyline = (await boardAt('markets=moneyline')).events.find(
      (entry) => entry.event.id === event.id,
    )!.markets[0]!;
    expect(moneyline).not.toHaveProperty('stat');
    expect(moneyline).not.toHaveProperty('player');
    expect((await boardAt('player=nobody')).events).toEqual([]);

    // Now, the props are /v1/odds' props, field for field (but the times and links the history does not keep).
    const strip = (markets: HistoricalOddsResponse['events'][number]['markets']) =>
      markets.map((market) => ({
        ...market,
        outcomes: market.outcomes.map((outcome) => ({
          ...outcome,
          prices: outcome.prices.map(({ updated_at: _at, links: _links, ...price }) => price),
        })),
      }));
    const now = HistoricalOddsResponseSchema.parse(
      (await get(`/v1/historical/odds?league=nba&at=${isoAt(clock.now())}&markets=props`)).json(),
    ).events.find((entry) => entry.event.id === event.id)!;
    const live = OddsResponseSchema.parse((await get(`/v1/odds?event=${event.id}&markets=props`)).json());
    expect(now.markets.length).toBe(3);
    expect(now.markets.find((market) => market.player?.id === 'p-holiday')!.player!.team).toBeNull();
    expect(strip(now.markets)).toEqual(strip(live.events[0]!.markets));
  });

  it('CLV of a prop bet by its market key, by hand, and 400 for the market-type shorthand of a prop', async () => {
    clock.set(event.startsAt + 1_000);
    board.start(event);
    clock.advance(500);
    board.price(event, 'fanduel', 'prop', 'over', -300, lebron); // after the start: not the close
    clock.advance(1_500);
    await board.flush();
    const answer = await post('/v1/clv', {
      devig: 'multiplicative',
      reference: 'consensus',
      bets: [
        { event_id: event.id, market: key, outcome: 'over', price: '+150', book: 'fanduel' },
        {
          event_id: event.id,
          market: 'prop|player_points|full|p-lebron|27.5',
          outcome: 'under',
          decimal_odds: 2.05,
        },
        {
          event_id: event.id,
          market: `${event.id}|prop|player_points|full|p-tatum|25.5`,
          outcome: 'over',
          price: -110,
        },
        {
          event_id: event.id,
          market: `${event.id}|prop|player_points|full|p-lebron|28.5`,
          outcome: 'over',
          price: -110,
        },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const { results, reference, devig } = ClvResponseSchema.parse(answer.json());
    expect([reference, devig]).toEqual(['consensus', 'multiplicative']);
    // The moneyline's medians divided by their sum (devig=multiplicative), over for home: CLV
    // (2.5 × 0.5054430 − 1) × 100 = 26.361, OLV (2.5 × 0.4945850 − 1) × 100 = 23.646.
    expect(results[0]).toEqual({
      index: 0,
      event_id: event.id,
      market: key,
      outcome: 'over',
      book: 'fanduel',
      placed_at: null,
      decimal_odds: 2.5,
      status: 'ok',
      reference: 'consensus',
      opening_reference: 'consensus',
      closing: { price: '-120', decimal_odds: 1.8333, at: isoAt(t0 + 5 * MINUTE) },
      fair_opening_probability: 0.494585,
      fair_closing_probability: 0.505443,
      fair_opening: {
        reference: 'consensus',
        reference_fallback: null,
        method: 'multiplicative',
        books: ['draftkings', 'fanduel'],
        implied: { over: expect.closeTo(0.5180254, 7), under: expect.closeTo(0.5293684, 7) },
        probabilities: { over: 0.494585, under: 0.505415 },
      },
      fair_closing: {
        reference: 'consensus',
        reference_fallback: null,
        method: 'multiplicative',
        books: ['draftkings', 'fanduel'],
        implied: { over: expect.closeTo(0.5288404, 7), under: expect.closeTo(0.5174512, 7) },
        probabilities: { over: 0.505443, under: 0.494557 },
      },
      clv_pct: 26.361,
      olv_pct: 23.646,
      olv_reason: null,
    });
    // Under at 2.05: (2.05 × 0.4945570 − 1) × 100 = 1.384; (2.05 × 0.5054150 − 1) × 100 = 3.61.
    expect(results[1]).toMatchObject({ status: 'ok', market: key, clv_pct: 1.384, olv_pct: 3.61 });
    expect(results[2]).toMatchObject({ status: 'no_closing_line', clv_pct: null });
    expect(results[3]).toMatchObject({ status: 'unknown_market', market: null });

    for (const market of ['prop', 'props']) {
      const refused = await post('/v1/clv', {
        bets: [{ event_id: event.id, market, line: 27.5, outcome: 'over', price: 150 }],
      });
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json().errors)).toContain('bets.0.market');
    }
  });
});

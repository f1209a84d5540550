import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SgpResponseSchema, type SgpResponse } from '#domain/schemas/api/sgp.ts';
import { jointProbability, calibrateSgp, type SgpModelLeg } from '#domain/sgp.ts';
import { SGP_BOOKS } from '#engine/sources/simulation/models.ts';
import { buildTestApp, manualSource, virtualClock } from '#tests/support/server/app.ts';
import { createKey, createTrialKey, setSgpCreditsUsed } from '#tests/support/server/odds-api.ts';
import { ingestSgpBoard, ingestSoccerSgpBoard, sgpThreeLegs } from '#tests/support/sgp.ts';
import { monthOf } from './sgp-credits.ts';

// POST /v1/sgp on the real app (issue 16, decisions 127–129): legs resolved against the live board, the fair joint
// price from the correlation model beside the naive product, each SGP book's price with its margin, refusals that
// spend no credit, plan gating, and the credits header. The engine is fed as a source feeds it; the source declares
// the simulator's SGP books.

const clock = virtualClock();
let app: FastifyInstance;
let elite: string;

let counter = 0;
function boardEvent(): { id: string } {
  counter += 1;
  return { id: ingestSgpBoard(app, counter, clock.now()) };
}

const post = (body: unknown, key = elite) =>
  app.inject({ method: 'POST', url: '/v1/sgp', headers: { 'x-api-key': key }, payload: body as object });

const tatumKey = (id: string, point = 27.5) => `${id}|prop|player_points|full|p-tatum|${point}`;

function priced(response: { statusCode: number; json(): unknown; body: string }): SgpResponse {
  expect(response.statusCode, response.body).toBe(200);
  return SgpResponseSchema.parse(response.json());
}

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now, source: { ...manualSource(), sgp: { books: SGP_BOOKS } } });
  await app.ready();
  elite = await createKey(app, 'elite');
});

afterAll(async () => {
  await app.close();
});

describe('POST /v1/sgp', () => {
  it('prices a spread + over + player points parlay: the fair joint from the model, above the naive product, and each SGP book offering every leg', async () => {
    const { id } = boardEvent();
    const response = await post({ event_id: id, legs: sgpThreeLegs(id) });
    const body = priced(response);
    expect(body.legs.map((leg) => [leg.name, leg.line])).toEqual([
      ['Sgp Home 1 -4.5', -4.5],
      ['Over 221.5', 221.5],
      ['Jayson Tatum Points Over 27.5', 27.5],
    ]);
    // Every leg is −110 both ways at every book: fair 0.5 each.
    for (const leg of body.legs) expect(leg.fair_probability).toBeCloseTo(0.5, 6);
    expect(body.naive.probability).toBeCloseTo(0.125, 6);
    // The spread and the total are full-game legs: the NBA's score distributions price them, Tatum joins by the
    // correlation model (decision 287).
    expect(body.fair.model).toBe('scores');
    // Tatum's points go with his team's score, which goes with the home margin and the total: the legs win together
    // more often than independent legs would.
    expect(body.fair.probability).toBeGreaterThan(body.naive.probability);
    expect(body.correlation_ratio).toBeCloseTo(body.fair.probability / body.naive.probability, 3);
    // The model, called directly with the same legs, gives the same number (nothing else is mixed in).
    const calibration = calibrateSgp('nba', homeWinOf(-180, 155));
    const direct = jointProbability(calibration, [
      { variable: { kind: 'margin', period: 'full' }, side: 'high', line: 4.5, probability: 0.5 },
      { variable: { kind: 'total', period: 'full' }, side: 'high', line: 221.5, probability: 0.5 },
      {
        variable: {
          kind: 'player',
          playerId: 'p-tatum',
          team: 'home',
          stat: 'player_points',
          period: 'full',
        },
        side: 'high',
        line: 27.5,
        probability: 0.5,
      },
    ]);
    expect(body.fair.probability).toBeCloseTo(direct, 5);
    // FanDuel and DraftKings sell parlays and quote every leg; BetMGM lacks Tatum's props; Circa sells no parlays.
    expect(body.prices.map((price) => price.book).sort()).toEqual(['draftkings', 'fanduel']);
    for (const price of body.prices) {
      expect(price.decimal_odds).toBeLessThan(body.fair.decimal_odds);
      // Never above what the book's own singles pay as a parlay of independent legs (the legs correlate positively).
      expect(price.decimal_odds).toBeLessThanOrEqual((1 + 100 / 110) ** 3);
      expect(price.margin_pct).toBeGreaterThan(10);
      expect(price.legs).toHaveLength(3);
    }
    expect(body.prices_note).toBeNull();
    expect(body.credits.used).toBe(1);
    expect(response.headers['x-sgp-credits-remaining']).toBe(String(body.credits.remaining));
  });

  it("a book's margin grows with the number of legs", async () => {
    const { id } = boardEvent();
    const two = priced(
      await post({
        event_id: id,
        legs: [
          { market: 'total', line: 221.5, outcome: 'over' },
          { market: tatumKey(id), outcome: 'over' },
        ],
        books: ['fanduel'],
      }),
    );
    const three = priced(
      await post({
        event_id: id,
        legs: [
          { market: 'total', line: 221.5, outcome: 'over' },
          { market: tatumKey(id), outcome: 'over' },
          { market: 'spread', line: -4.5, outcome: 'home' },
        ],
        books: ['fanduel'],
      }),
    );
    expect(two.prices.map((price) => price.book)).toEqual(['fanduel']);
    expect(three.prices[0]!.margin_pct).toBeGreaterThan(two.prices[0]!.margin_pct);
  });

  it('a moneyline and the same team’s spread are priced as the spread alone (it implies the moneyline)', async () => {
    const { id } = boardEvent();
    const body = priced(
      await post({
        event_id: id,
        legs: [
          { market: 'moneyline', outcome: 'home' },
          { market: 'spread', line: -4.5, outcome: 'home' },
        ],
      }),
    );
    expect(body.fair.probability).toBeCloseTo(body.legs[1]!.fair_probability, 5);
  });

  it('prices full-game NBA legs on the score distributions: spread + under, and a moneyline bracketed by the other side’s spread', async () => {
    const { id } = boardEvent();
    const body = priced(
      await post({
        event_id: id,
        legs: [
          { market: 'spread', line: -4.5, outcome: 'home' },
          { market: 'total', line: 221.5, outcome: 'under' },
        ],
      }),
    );
    expect(body.fair.model).toBe('scores');
    const homeWin = homeWinOf(-180, 155);
    const calibration = calibrateSgp('nba', homeWin, null, { line: 221.5, over: 0.5 });
    const spread: SgpModelLeg = {
      variable: { kind: 'margin', period: 'full' },
      side: 'high',
      line: 4.5,
      probability: body.legs[0]!.fair_probability,
    };
    const under: SgpModelLeg = {
      variable: { kind: 'total', period: 'full' },
      side: 'low',
      line: 221.5,
      probability: body.legs[1]!.fair_probability,
    };
    expect(body.fair.probability).toBeCloseTo(jointProbability(calibration, [spread, under]), 5);
    // At a 4-point favourite the published band puts basketball's favourite and the over slightly apart (ρ −0.04),
    // so the favourite and the under go slightly together: the answer, pinned (the correlation model's too, to 1e-6,
    // as each half line keeps its own probability and the copula its ρ).
    expect(body.fair.probability).toBeCloseTo(0.257021, 5);
    expect(body.correlation_ratio).toBeCloseTo(1.0281, 3);

    // Home moneyline + away +4.5: the home side wins by 1 to 4.
    const bracket = priced(
      await post({
        event_id: id,
        legs: [
          { market: 'moneyline', outcome: 'home' },
          { market: 'spread', line: -4.5, outcome: 'away' },
        ],
      }),
    );
    expect(bracket.fair.model).toBe('scores');
    const moneyline: SgpModelLeg = {
      variable: { kind: 'margin', period: 'full' },
      side: 'high',
      line: 0,
      probability: bracket.legs[0]!.fair_probability,
    };
    const awayPlus: SgpModelLeg = {
      variable: { kind: 'margin', period: 'full' },
      side: 'low',
      line: 4.5,
      probability: bracket.legs[1]!.fair_probability,
    };
    expect(bracket.fair.probability).toBeCloseTo(jointProbability(calibration, [moneyline, awayPlus]), 5);
    // Each end keeps its leg's probability (a basketball game has no ties to push the moneyline): p₁ + p₂ − 1.
    expect(bracket.fair.probability).toBeCloseTo(moneyline.probability + awayPlus.probability - 1, 6);
  });

  it('prices first-half legs on the half’s distributions, with a full-game leg: half −2 (a push on 2) + half under 111.5 + game −4.5', async () => {
    const { id } = boardEvent();
    // The board's first half at every book: home −2 −110 / away +2 −110, total 111.5 −110 both ways.
    for (const book of ['fanduel', 'draftkings', 'betmgm', 'circa']) {
      const half = { kind: 'price', sourceEventId: `sgp-ev-${counter}`, book, period: 'h1', american: -110 };
      for (const message of [
        { ...half, market: 'spread', point: -2, outcome: 'home' },
        { ...half, market: 'spread', point: 2, outcome: 'away' },
        { ...half, market: 'total', point: 111.5, outcome: 'over' },
        { ...half, market: 'total', point: 111.5, outcome: 'under' },
      ])
        if (!app.engine.ingest(message)) throw new Error(`the engine dropped ${JSON.stringify(message)}`);
    }
    const halfLegs = [
      { market: 'spread', period: 'h1', line: -2, outcome: 'home' },
      { market: 'total', period: 'h1', line: 111.5, outcome: 'under' },
    ];
    const body = priced(await post({ event_id: id, legs: halfLegs }));
    expect(body.legs.map((leg) => [leg.name, leg.line, leg.fair_probability])).toEqual([
      [expect.stringContaining('-2'), -2, 0.5],
      [expect.stringContaining('Under 111.5'), 111.5, 0.5],
    ]);
    expect(body.fair.model).toBe('scores');
    const calibration = calibrateSgp('nba', homeWinOf(-180, 155), null, { line: 221.5, over: 0.5 });
    const spread: SgpModelLeg = {
      variable: { kind: 'margin', period: 'h1' },
      side: 'high',
      line: 2,
      probability: 0.5,
    };
    const under: SgpModelLeg = {
      variable: { kind: 'total', period: 'h1' },
      side: 'low',
      line: 111.5,
      probability: 0.5,
    };
    const gameSpread: SgpModelLeg = {
      variable: { kind: 'margin', period: 'full' },
      side: 'high',
      line: 4.5,
      probability: 0.5,
    };
    expect(body.fair.probability).toBeCloseTo(jointProbability(calibration, [spread, under]), 5);
    // Pinned: the half's favourite and the under go slightly together (ρ −0.044, as the game's: the correlation
    // model's 0.257021 on the latent normal); the half's push at 2, repriced by the spread's price, moves it by 1e-5.
    expect(body.fair.probability).toBeCloseTo(0.25701, 5);

    const withGame = priced(
      await post({ event_id: id, legs: [...halfLegs, { market: 'spread', line: -4.5, outcome: 'home' }] }),
    );
    expect(withGame.fair.model).toBe('scores');
    expect(withGame.fair.probability).toBeCloseTo(
      jointProbability(calibration, [spread, under, gameSpread]),
      6,
    );
    // The half's cover goes with the game's (corr √½ between a half and its game): far above the naive product.
    expect(withGame.correlation_ratio).toBeGreaterThan(1.5);
  });

  it('prices a soccer parlay on the goals model fitted to the fair 1X2 and total: underdog win + over 2.5 + an underdog scorer', async () => {
    counter += 1;
    const id = ingestSoccerSgpBoard(app, counter, clock.now());
    const striker = `${id}|prop|player_goal_scorer_anytime|full|p-goals-striker|`;
    const body = priced(
      await post({
        event_id: id,
        legs: [
          { market: '1x2', outcome: 'away' },
          { market: 'total', line: 2.5, outcome: 'over' },
          { market: striker, outcome: 'yes' },
        ],
      }),
    );
    const [result, over, scorer] = body.legs.map((leg) => leg.fair.probabilities);
    // The model called directly: the goals model fitted to the 1X2 and the total nearest 2.5 (the answer's fairs).
    const market = {
      home: result!.home!,
      draw: result!.draw!,
      away: result!.away!,
      total: { line: 2.5, over: over!.over! },
    };
    const calibration = calibrateSgp('epl', market.home / (market.home + market.away), market);
    const modelLegs: SgpModelLeg[] = [
      { variable: { kind: 'margin', period: 'full' }, side: 'low', line: 0, probability: market.away },
      {
        variable: { kind: 'total', period: 'full' },
        side: 'high',
        line: 2.5,
        probability: market.total.over,
      },
      {
        variable: {
          kind: 'player',
          playerId: 'p-goals-striker',
          team: 'away',
          stat: 'player_goal_scorer_anytime',
          period: 'full',
        },
        side: 'high',
        line: null,
        probability: scorer!.yes!,
      },
    ];
    expect(calibration.goals).not.toBeNull();
    expect(body.fair.probability).toBeCloseTo(jointProbability(calibration, modelLegs), 5);
    expect(body.fair.model).toBe('goals');
    // The underdog's win and its striker's goal need its goals, which make the over likelier: above the product, where
    // the Gaussian copula (no goals model) puts it far lower.
    expect(body.fair.probability).toBeGreaterThan(body.naive.probability);
    const copula = jointProbability(
      calibrateSgp('epl', market.home / (market.home + market.away)),
      modelLegs,
    );
    expect(body.fair.probability).toBeGreaterThan(copula * 1.5);
    expect(body.prices.map((price) => price.book).sort()).toEqual(['draftkings', 'fanduel']);
  });

  it('answers with the fair price and no book prices, saying why, when the source carries no parlay prices', async () => {
    const other = await buildTestApp({ now: clock.now });
    await other.ready();
    try {
      const key = await createKey(other, 'enterprise');
      const id = ingestSgpBoard(other, 1, clock.now());
      const response = await other.inject({
        method: 'POST',
        url: '/v1/sgp',
        headers: { 'x-api-key': key },
        payload: { event_id: id, legs: sgpThreeLegs(id) },
      });
      const body = priced(response);
      expect(body.prices).toEqual([]);
      expect(body.prices_note).toMatch(/carries no same-game-parlay prices/);
      expect(body.fair.probability).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});

describe('POST /v1/sgp credits', () => {
  it('spends one credit per priced answer; once the month is spent, 402 with resets_at and no price', async () => {
    const { id } = boardEvent();
    const key = await createKey(app, 'elite');
    const first = priced(await post({ event_id: id, legs: sgpThreeLegs(id) }, key));
    expect(first.credits).toMatchObject({ used: 1, remaining: 9_999 });
    const second = priced(await post({ event_id: id, legs: sgpThreeLegs(id) }, key));
    expect(second.credits).toMatchObject({ used: 2, remaining: 9_998 });
    const { month, resetsAt } = monthOf(clock.now());
    // Test-only shortcut to the month's end: one credit left.
    const record = await app.apiKeys.authenticate(key);
    if (!record.ok) throw new Error('key refused');
    await setSgpCreditsUsed(app, record.key.id, month, 9_999);
    const last = await post({ event_id: id, legs: sgpThreeLegs(id) }, key);
    expect(priced(last).credits).toEqual({ used: 10_000, remaining: 0, resets_at: resetsAt.toISOString() });
    expect(last.headers['x-sgp-credits-remaining']).toBe('0');
    const refused = await post({ event_id: id, legs: sgpThreeLegs(id) }, key);
    expect(refused.statusCode).toBe(402);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(refused.json()).toMatchObject({
      type: 'https://sharpline.io/problems/sgp-credits-exhausted',
      limit: 10_000,
      used: 10_000,
      remaining: 0,
      resets_at: resetsAt.toISOString(),
    });
    expect(refused.json()).not.toHaveProperty('fair');
    expect(refused.headers['x-sgp-credits-remaining']).toBe('0');
    // The day's usage (decision 155): three credits spent, four SGP requests (the refused one spent nothing).
    const usage = await app.inject({
      method: 'GET',
      url: '/v1/me/usage?days=1',
      headers: { 'x-api-key': key },
    });
    expect(usage.json().days[0]).toMatchObject({ sgp_credits: 3, by_family: { sgp: 4 } });
  });
});

// Issue 55: a key with no credits left must not cost the pricing work. The credit is checked first, so what pricing
// would refuse (legs, the event) is answered with the credit refusal, and nothing is priced.
describe('POST /v1/sgp without credits left', () => {
  it('answers 402 before any pricing: legs pricing would refuse (422) and an unknown event (404) get the credit refusal', async () => {
    const { id } = boardEvent();
    const key = await createKey(app, 'elite');
    priced(await post({ event_id: id, legs: sgpThreeLegs(id) }, key));
    const record = await app.apiKeys.authenticate(key);
    if (!record.ok) throw new Error('key refused');
    const { month, resetsAt } = monthOf(clock.now());
    await setSgpCreditsUsed(app, record.key.id, month, 10_000);
    const requests = [
      // Both sides of one market: pricing refuses it with 422 sgp-conflicting-legs.
      {
        event_id: id,
        legs: [
          { market: 'total', line: 221.5, outcome: 'over' },
          { market: 'total', line: 221.5, outcome: 'under' },
        ],
      },
      // No such event: 404.
      {
        event_id: 'nba-nobody-20991231',
        legs: [
          { market: 'moneyline', outcome: 'home' },
          { market: 'total', line: 221.5, outcome: 'over' },
        ],
      },
      // A parlay pricing would answer.
      { event_id: id, legs: sgpThreeLegs(id) },
    ];
    for (const body of requests) {
      const response = await post(body, key);
      expect(response.statusCode, response.body).toBe(402);
      expect(response.json()).toMatchObject({
        type: 'https://sharpline.io/problems/sgp-credits-exhausted',
        used: 10_000,
        remaining: 0,
        resets_at: resetsAt.toISOString(),
      });
      expect(response.headers['x-sgp-credits-remaining']).toBe('0');
    }
    const me = await app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': key } });
    expect(me.json().sgp_credits).toMatchObject({ used: 10_000, remaining: 0 });
  });
});

describe('POST /v1/sgp refusals spend no credit', () => {
  async function remaining(): Promise<number> {
    const me = await app.inject({ method: 'GET', url: '/v1/me', headers: { 'x-api-key': elite } });
    return (me.json() as { sgp_credits: { remaining: number } }).sgp_credits.remaining;
  }

  it.each([
    [
      'both sides of one market',
      () => [
        { market: 'total', line: 221.5, outcome: 'over' },
        { market: 'total', line: 221.5, outcome: 'under' },
      ],
      'sgp-conflicting-legs',
      [0, 1],
    ],
    [
      'an over 27.5 and an under 25.5 of one player’s points (no room between the lines)',
      (id: string) => [
        { market: 'spread', line: -4.5, outcome: 'home' },
        { market: tatumKey(id), outcome: 'over' },
        { market: tatumKey(id, 25.5), outcome: 'under' },
      ],
      'sgp-conflicting-legs',
      [1, 2],
    ],
    [
      'both moneylines',
      () => [
        { market: 'moneyline', outcome: 'home' },
        { market: 'moneyline', outcome: 'away' },
      ],
      'sgp-conflicting-legs',
      [0, 1],
    ],
    [
      'the same selection twice',
      () => [
        { market: 'moneyline', outcome: 'home' },
        { market: 'moneyline', outcome: 'home' },
      ],
      'sgp-conflicting-legs',
      [0, 1],
    ],
    [
      'an unknown market',
      () => [
        { market: 'moneyline', outcome: 'home' },
        { market: 'total', line: 230.5, outcome: 'over' },
      ],
      'sgp-invalid-leg',
      [1],
    ],
    [
      'a side the market does not have',
      () => [
        { market: 'moneyline', outcome: 'draw' },
        { market: 'total', line: 221.5, outcome: 'over' },
      ],
      'sgp-invalid-leg',
      [0],
    ],
  ])('%s: 422 naming the legs', async (_name, legs, type, named) => {
    const { id } = boardEvent();
    const before = await remaining();
    const response = await post({ event_id: id, legs: legs(id) });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    const problem = response.json() as { type: string; legs: number[] };
    expect(problem.type).toMatch(new RegExp(`${type}$`));
    expect(problem.legs).toEqual(named);
    expect(response.headers['x-sgp-credits-remaining']).toBe(String(before));
    expect(await remaining()).toBe(before);
  });

  it('a leg of another event: 422 naming it', async () => {
    const first = boardEvent();
    const second = boardEvent();
    const response = await post({
      event_id: first.id,
      legs: [
        { market: 'moneyline', outcome: 'home' },
        { market: `${second.id}|total|full|221.5`, outcome: 'over' },
      ],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ legs: [1] });
    expect(response.json().detail).toMatch(/another event/);
  });

  it('an unknown or finished event: 404, no credit spent', async () => {
    const before = await remaining();
    const response = await post({
      event_id: 'nba-nobody-20991231',
      legs: [
        { market: 'moneyline', outcome: 'home' },
        { market: 'total', line: 221.5, outcome: 'over' },
      ],
    });
    expect(response.statusCode).toBe(404);
    expect(await remaining()).toBe(before);
  });

  it('takes each leg’s fair from the reference and by the method asked for, and names them with the inputs', async () => {
    const { id } = boardEvent();
    const over255 = { market: tatumKey(id, 25.5), outcome: 'over' };
    const spread = { market: 'spread', line: -4.5, outcome: 'home' };
    // Tatum over 25.5 is −160 / +130 at every book: implied 160/260 = 0.6153846 and 100/230 = 0.4347826, overround
    // 0.0501672. Defaults: the sharp books (Circa alone quotes here) and Shin's method, half the overround from each
    // side: 0.6153846 − 0.0250836 = 0.5903010.
    const byDefault = priced(await post({ event_id: id, legs: [spread, over255] }));
    expect([byDefault.reference, byDefault.devig]).toEqual(['sharp', 'shin']);
    expect(byDefault.legs[1]!.fair_probability).toBeCloseTo(0.590301, 6);
    expect(byDefault.legs[1]!.books).toBe(1);
    expect(byDefault.legs[1]!.fair).toEqual({
      reference: 'sharp',
      reference_fallback: null,
      method: 'shin',
      books: ['circa'],
      implied: { over: expect.closeTo(160 / 260, 12), under: expect.closeTo(100 / 230, 12) },
      probabilities: { over: 0.590301, under: 0.409699 },
    });
    // Multiplicative across every book: 0.6153846 / 1.0501672 = 0.5859873.
    const asked = priced(
      await post({ event_id: id, legs: [spread, over255], devig: 'multiplicative', reference: 'consensus' }),
    );
    expect([asked.reference, asked.devig]).toEqual(['consensus', 'multiplicative']);
    expect(asked.legs[1]!.fair_probability).toBeCloseTo(0.585987, 6);
    expect(asked.legs[1]!.fair).toMatchObject({
      reference: 'consensus',
      method: 'multiplicative',
      books: ['circa', 'draftkings', 'fanduel'],
    });
    expect(asked.legs[0]!.fair.books).toEqual(['betmgm', 'circa', 'draftkings', 'fanduel']);
    // A book that quotes no Tatum props: the consensus, saying why.
    const betmgm = priced(await post({ event_id: id, legs: [spread, over255], reference: 'betmgm' }));
    expect(betmgm.legs[0]!.fair).toMatchObject({ reference: 'betmgm', reference_fallback: null });
    expect(betmgm.legs[1]!.fair).toMatchObject({
      reference: 'consensus',
      reference_fallback: 'book_missing_outcomes',
    });
  });

  it('answers 400 naming devig or reference for a value it does not know, spending no credit', async () => {
    const { id } = boardEvent();
    const legs = sgpThreeLegs(id);
    for (const [extra, field] of [
      [{ devig: 'logit' }, 'devig'],
      [{ reference: 'pinnacle' }, 'reference'],
    ] as const) {
      const response = await post({ event_id: id, legs, ...extra });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(Object.keys(response.json().errors)).toContain(field);
    }
  });

  it('Starter, Pro and trial keys get 403 naming the plans with same-game parlays', async () => {
    const { id } = boardEvent();
    const keys = [
      await createKey(app, 'starter'),
      await createKey(app, 'pro'),
      (await createTrialKey(app, clock.now())).plain,
    ];
    for (const key of keys) {
      const response = await post(
        {
          event_id: id,
          legs: [
            { market: 'moneyline', outcome: 'home' },
            { market: 'total', line: 221.5, outcome: 'over' },
          ],
        },
        key,
      );
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ plans: ['elite', 'enterprise'] });
      expect(response.json().detail).toMatch(/Elite and Enterprise/);
      expect(response.headers['x-sgp-credits-remaining']).toBe('0');
    }
  });
});

const impliedOf = (american: number) =>
  american < 0 ? -american / (-american + 100) : 100 / (american + 100);

/**
 * The fair home win probability of a two-way moneyline at these prices by Shin's method, the default (decision 164),
 * which on two outcomes takes half the overround from each side.
 */
function homeWinOf(home: number, away: number): number {
  const overround = impliedOf(home) + impliedOf(away) - 1;
  return impliedOf(home) - overround / 2;
}

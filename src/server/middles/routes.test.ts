import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  distributionCentre,
  marketCentre,
  marketCentreBy,
  middleChances,
  middleEv,
  middleStakesCents,
  normalMarketCentre,
  probabilityOf,
  publishedPct,
  scoreDistribution,
} from '#domain/middles.ts';
import type { DevigMethod } from '#domain/devig.ts';
import { devig } from '#domain/history.ts';
import { propMiddleChances, propStatModel } from '#domain/prop-middles.ts';
import { MiddlesResponseSchema, type MiddlesResponse } from '#domain/schemas/api/middles.ts';
import { feedLeg } from '#domain/feed-leg.ts';
import { MiddlesFeedSchema } from '#domain/schemas/middles-feed.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';

// GET /v1/middles over a hand-fed NFL board (Kansas City at home to Buffalo):
// - spread: FanDuel, DraftKings and Caesars have the Chiefs −3 at −110 both ways (the margin centred on 3); FanDuel
//   also has Chiefs −2.5 (−105 / −115), DraftKings Bills +3.5 (−110 / −110). One middle: FanDuel −2.5 with
//   DraftKings +3.5, both winning when the Chiefs win by exactly 3.
// - total: the same three books at 44.5, −110 both ways; BetMGM over/under 43 (−120 / +100). Two middles: BetMGM's
//   over 43 with the two best unders 44.5 (Caesars, DraftKings: equal prices, by name), both winning on 44, the over
//   pushing on 43.

const clock = virtualClock();
const T0 = clock.now();

/** American odds as decimal. */
const dec = (american: number) => (american > 0 ? 1 + american / 100 : 1 + 100 / -american);
/** The board's centres (decision 284): each book's line fitted under the NFL distributions, the books' median. */
const spreadQuotes = [
  ...['fanduel', 'draftkings', 'caesars'].map((book) => ({ book, line: 3, high: dec(-110), low: dec(-110) })),
  { book: 'fanduel', line: 2.5, high: dec(-105), low: dec(-115) },
  { book: 'draftkings', line: 3.5, high: dec(-110), low: dec(-110) },
];
const totalQuotes = [
  ...['fanduel', 'draftkings', 'caesars'].map((book) => ({
    book,
    line: 44.5,
    high: dec(-110),
    low: dec(-110),
  })),
  { book: 'betmgm', line: 43, high: dec(-120), low: dec(100) },
];
const boardTotal = () =>
  marketCentre('nfl', 'total', totalQuotes, 3, normalMarketCentre('nfl', 'margin', spreadQuotes))!;
const boardCentres = () => ({
  margin: marketCentre('nfl', 'margin', spreadQuotes, 3, boardTotal())!,
  total: boardTotal(),
});
let app: FastifyInstance;
const keys = { elite: '', starter: '' };

function price(book: string, market: string, outcome: string, point: number, american: number, extra = {}) {
  app.engine.ingest({
    kind: 'price',
    sourceEventId: 'buf-kc',
    book,
    market,
    outcome,
    point,
    american,
    ...extra,
  });
}

function quoteBoard(fanduelHome: number) {
  for (const book of ['fanduel', 'draftkings', 'caesars']) {
    price(book, 'spread', 'home', -3, -110);
    price(book, 'spread', 'away', 3, -110);
    price(book, 'total', 'over', 44.5, -110);
    price(book, 'total', 'under', 44.5, -110);
  }
  price('fanduel', 'spread', 'home', -2.5, fanduelHome);
  price('fanduel', 'spread', 'away', 2.5, -115);
  price('draftkings', 'spread', 'home', -3.5, -110);
  price('draftkings', 'spread', 'away', 3.5, -110);
  price('betmgm', 'total', 'over', 43, -120);
  price('betmgm', 'total', 'under', 43, 100);
}

async function middles(key: string, query = ''): Promise<MiddlesResponse> {
  const response = await app.inject({ url: `/v1/middles${query}`, headers: { 'x-api-key': key } });
  expect(response.statusCode, response.body).toBe(200);
  return MiddlesResponseSchema.parse(response.json());
}

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  app.engine.stop();
  keys.elite = await createKey(app, 'elite');
  keys.starter = await createKey(app, 'starter');
  app.engine.ingest({
    kind: 'event',
    sourceEventId: 'buf-kc',
    league: 'nfl',
    home: { name: 'Kansas City Chiefs', abbreviation: 'KC' },
    away: { name: 'Buffalo Bills', abbreviation: 'BUF' },
    startsAt: T0 + 6 * 3_600_000,
    live: false,
  });
  quoteBoard(-105);
  app.engine.tick();
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/middles', () => {
  it('lists the spread middle with its gap, chances from the NFL model, returns, stakes and EV', async () => {
    clock.advance(2_000);
    app.engine.tick();
    const body = await middles(keys.elite, '?markets=spread');
    expect(body).toMatchObject({ delay_seconds: 0, min_books: 3, total: 1 });
    expect(body.as_of).toBe(new Date(clock.now()).toISOString());
    const [middle] = body.middles;
    expect(middle).toMatchObject({
      market: { type: 'spread', period: 'full', variable: 'margin' },
      high: {
        book: 'fanduel',
        point: -2.5,
        line: 2.5,
        outcome: { outcome: 'home', name: 'Kansas City Chiefs -2.5' },
        price: { american: '-105', age_seconds: 2 },
      },
      low: {
        book: 'draftkings',
        point: -3.5,
        line: 3.5,
        outcome: { outcome: 'away', name: 'Buffalo Bills +3.5' },
        price: { american: '-110' },
      },
      gap: { from: 3, to: 3 },
      pushes: { high: null, low: null },
      model: 'nfl-key-numbers',
      event: { league: 'nfl', home: { name: 'Kansas City Chiefs' } },
    });
    // The centre: the margin whose fair chance of each book's line is its de-vigged price, the books' median (about 3:
    // three books hang −3 at −110 both ways).
    const centres = boardCentres();
    expect(middle!.centre).toBeCloseTo(centres.margin, 2);
    expect(Math.abs(centres.margin - 3)).toBeLessThan(0.3);
    // The chance of the gap is the NFL key-number model's P(margin = 3) about the market's centres.
    const distribution = scoreDistribution('nfl', 'margin', centres);
    expect(middle!.probability.middle).toBeCloseTo(probabilityOf(distribution, 3), 6);
    expect(middle!.probability).toMatchObject({ push_high: 0, push_low: 0 });
    const dh = middle!.high.price.decimal;
    const dl = middle!.low.price.decimal;
    expect(middle!.ev_pct).toBe(publishedPct(middleEv(dh, dl, middleChances(2.5, 3.5, distribution))));
    // The published EV recomputes from the published chances and returns.
    const { probability: p, returns_pct: r } = middle!;
    expect(p.middle * r.middle + p.miss * r.miss).toBeCloseTo(middle!.ev_pct, 2);
    expect(middle!.worst_case_pct).toBe(r.miss);
    expect(r.miss).toBeLessThan(0);
    const [high, low] = middleStakesCents(10_000, dh, dl);
    expect(middle!.stakes).toEqual({ total_cents: 10_000, high_cents: high, low_cents: low });
    expect(middle!.high.stake_share + middle!.low.stake_share).toBeCloseTo(1, 6);
  });

  it('prices a whole-number line with its push: over 43 pushes on 43, both win on 44', async () => {
    const body = await middles(keys.elite, '?markets=total');
    expect(body.total).toBe(2);
    expect(body.middles.map((m) => [m.high.book, m.low.book])).toEqual([
      ['betmgm', 'caesars'],
      ['betmgm', 'draftkings'],
    ]);
    const [middle] = body.middles;
    expect(middle).toMatchObject({
      gap: { from: 44, to: 44 },
      pushes: { high: 43, low: null },
    });
    // Three books at 44.5, −110 both ways: the total whose chance of over 44.5 is a half (with the pushes of 43 and
    // the parity of NFL totals, a little above 44.5).
    const centres = boardCentres();
    expect(middle!.centre).toBeCloseTo(centres.total, 2);
    expect(centres.total).toBeGreaterThan(44.5);
    expect(centres.total).toBeLessThan(44.8);
    const distribution = scoreDistribution('nfl', 'total', centres);
    expect(middle!.probability.middle).toBeCloseTo(probabilityOf(distribution, 44), 6);
    expect(middle!.probability.push_high).toBeCloseTo(probabilityOf(distribution, 43), 6);
    expect(middle!.probability.push_high).toBeGreaterThan(0);
    const { probability: p, returns_pct: r } = middle!;
    expect(p.middle * r.middle + p.push_high * r.push_high + p.miss * r.miss).toBeCloseTo(middle!.ev_pct, 2);
  });

  it('applies the league, market, book, min_probability and min_ev filters', async () => {
    const all = await middles(keys.elite);
    expect(all.total).toBe(3);
    expect(all.middles.map((m) => m.ev_pct)).toEqual(
      [...all.middles.map((m) => m.ev_pct)].sort((a, b) => b - a),
    );
    expect((await middles(keys.elite, '?league=nba')).total).toBe(0);
    expect((await middles(keys.elite, '?league=nfl&books=betmgm,caesars')).total).toBe(1);
    expect((await middles(keys.elite, '?books=fanduel')).total).toBe(0);
    const best = all.middles[0]!;
    expect((await middles(keys.elite, `?min_ev=${best.ev_pct}`)).total).toBe(
      all.middles.filter((m) => m.ev_pct >= best.ev_pct).length,
    );
    const likeliest = Math.max(...all.middles.map((m) => m.probability.middle));
    const sure = await middles(keys.elite, `?min_probability=${likeliest}`);
    expect(sure.middles.every((m) => m.probability.middle >= likeliest)).toBe(true);
    expect(sure.total).toBeGreaterThan(0);
    expect((await middles(keys.elite, '?min_probability=0.99')).total).toBe(0);
    for (const query of ['?min_probability=2', '?markets=corners', '?min_ev=-101']) {
      const invalid = await app.inject({ url: `/v1/middles${query}`, headers: { 'x-api-key': keys.elite } });
      expect(invalid.statusCode, query).toBe(400);
    }
  });

  it('drops a pair when one of its prices is suspended', async () => {
    price('fanduel', 'spread', 'home', -2.5, -105, { suspended: true });
    clock.advance(1_000);
    app.engine.tick();
    expect((await middles(keys.elite, '?markets=spread')).total).toBe(0);
    price('fanduel', 'spread', 'home', -2.5, -105);
    clock.advance(1_000);
    app.engine.tick();
    expect((await middles(keys.elite, '?markets=spread')).total).toBe(1);
  });

  it('gives a delayed plan the board as it was its delay ago', async () => {
    clock.set(T0 + 130_000);
    quoteBoard(100);
    app.engine.tick();
    clock.advance(1_000);
    app.engine.tick();
    const live = await middles(keys.elite, '?markets=spread');
    expect(live.middles[0]!.high.price.american).toBe('+100');
    const delayed = await middles(keys.starter, '?markets=spread');
    expect(delayed.delay_seconds).toBe(120);
    // Where the prices come from, as /v1/arbs says it (the pages' key view says "Demo data" from it; decision 224).
    expect((delayed as unknown as { source: string }).source).toBe(app.engine.source);
    expect(Date.parse(delayed.as_of)).toBeLessThanOrEqual(clock.now() - 120_000);
    expect(delayed.middles.map((m) => m.high.price.american)).toEqual(['-105']);
  });

  it('renders an answer once per question and board: equivalent questions get its bytes and ETag, 304 to it', async () => {
    clock.advance(5_000);
    app.engine.tick();
    const ask = (query: string, headers: Record<string, string> = {}) =>
      app.inject({ url: `/v1/middles${query}`, headers: { 'x-api-key': keys.elite, ...headers } });
    const first = await ask('?markets=spread,total');
    const etag = first.headers.etag as string;
    expect(etag, 'an ETag of the kept answer').toMatch(/^"/);
    const rendered = app.middlesAnswers.rendered;
    // The same question spelled three more ways: parameter order, a list reordered or repeated, the default limit
    // written out. None renders again.
    const answers = await Promise.all(
      [
        '?limit=200&markets=total,spread',
        '?markets=total&markets=spread&limit=200',
        '?markets=spread,total',
      ].map((query) => ask(query)),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers.etag).toBe(etag);
      expect(answer.body).toBe(first.body);
    }
    expect((await ask('?markets=total,spread', { 'if-none-match': etag })).statusCode).toBe(304);
    const gzipped = await ask('?markets=spread,total', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(app.middlesAnswers.rendered).toBe(rendered);
    // Another question is another answer; the next board, another rendering.
    expect((await ask('?markets=spread')).headers.etag).not.toBe(etag);
    expect(app.middlesAnswers.rendered).toBe(rendered + 1);
    clock.advance(1_000);
    app.engine.tick();
    await ask('?markets=spread,total');
    expect(app.middlesAnswers.rendered).toBe(rendered + 2);
  });

  it('builds the board at most once per scan slot, whatever the number of requests', async () => {
    clock.advance(5_000);
    app.engine.tick();
    const before = app.middlesBoard.computed;
    for (let i = 0; i < 5; i += 1) await middles(keys.elite, i % 2 ? '?league=nfl' : '');
    expect(app.middlesBoard.computed - before).toBe(1);
  });
});

describe('GET /tools/middles.json', () => {
  it('serves the middles page the board as a Starter key sees it (EV_PUBLIC_DELAY_S), coarse, held per second', async () => {
    const delayed = await middles(keys.starter);
    const response = await app.inject({
      url: '/tools/middles.json?t=1',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ url: '/tools/middles.json' });
    const feed = MiddlesFeedSchema.parse(plain.json());
    expect(feed).toMatchObject({ delay_seconds: 120, min_books: 3, total: delayed.total });
    expect(feed.as_of).toBe(Math.floor(Date.parse(delayed.as_of) / 1000));
    expect(feed.middles.map((row) => row.id)).toEqual(delayed.middles.map((middle) => middle.id));
    expect(feed.middles.length).toBe(3);
    feed.middles.forEach((row, i) => {
      const dto = delayed.middles[i]!;
      expect(row).toEqual({
        id: dto.id,
        event: {
          id: dto.event.id,
          league: 'nfl',
          sport: 'football',
          home: 'Kansas City Chiefs',
          away: 'Buffalo Bills',
          starts_at: dto.event.starts_at,
          live: false,
        },
        market_type: dto.market.type,
        market_label: dto.market.label,
        high: {
          book: dto.high.book,
          name: dto.high.outcome.name,
          line: dto.high.line,
          american: dto.high.price.american,
          decimal: dto.high.price.decimal,
          links: dto.high.price.links,
          // What the bet tracker grades: the side as a game line's bet (decision 257).
          leg: feedLeg(
            { type: dto.market.type as 'spread' | 'total', period: dto.market.period, point: dto.high.point },
            dto.high.outcome.outcome,
          ),
        },
        low: {
          book: dto.low.book,
          name: dto.low.outcome.name,
          line: dto.low.line,
          american: dto.low.price.american,
          decimal: dto.low.price.decimal,
          links: dto.low.price.links,
          // What the bet tracker grades: the side as a game line's bet (decision 257).
          leg: feedLeg(
            { type: dto.market.type as 'spread' | 'total', period: dto.market.period, point: dto.low.point },
            dto.low.outcome.outcome,
          ),
        },
        gap: dto.gap,
        probability: Number(dto.probability.middle.toFixed(3)),
        push_high: Number(dto.probability.push_high.toFixed(3)),
        push_low: Number(dto.probability.push_low.toFixed(3)),
        ev_pct: Math.floor(dto.ev_pct * 10) / 10,
        worst_case_pct: Math.floor(dto.worst_case_pct * 10) / 10,
        model: 'nfl-key-numbers',
      });
    });
    // The same second's body is held: a second read answers 304 to its ETag.
    const again = await app.inject({
      url: '/tools/middles.json',
      headers: { 'if-none-match': plain.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('GET /v1/middles, player props', () => {
  // An NBA game with LeBron James' points: FanDuel, DraftKings and Caesars at 25.5, −110 both ways (the centre: 25.5
  // points); FanDuel also over/under 24.5 (−105 / −115), DraftKings 26.5 (−110 / −110). FanDuel's over 24.5 with
  // DraftKings' under 26.5 both win on 25 or 26 points.
  it("lists a player's over and under at two lines as a prop middle, priced on the stat's model", async () => {
    app.engine.ingest({
      kind: 'event',
      sourceEventId: 'bos-lal',
      league: 'nba',
      home: { name: 'Los Angeles Lakers', abbreviation: 'LAL' },
      away: { name: 'Boston Celtics', abbreviation: 'BOS' },
      startsAt: clock.now() + 3 * 3_600_000,
      live: false,
      players: [{ id: 'p-lebron', name: 'LeBron James', team: 'home' }],
    });
    const prop = (book: string, outcome: 'over' | 'under', point: number, american: number) =>
      app.engine.ingest({
        kind: 'price',
        sourceEventId: 'bos-lal',
        book,
        market: 'prop',
        stat: 'player_points',
        player: { id: 'p-lebron' },
        outcome,
        point,
        american,
      });
    for (const book of ['fanduel', 'draftkings', 'caesars']) {
      prop(book, 'over', 25.5, -110);
      prop(book, 'under', 25.5, -110);
    }
    prop('fanduel', 'over', 24.5, -105);
    prop('fanduel', 'under', 24.5, -115);
    prop('draftkings', 'over', 26.5, -110);
    prop('draftkings', 'under', 26.5, -110);
    app.engine.tick();
    clock.advance(1_000);
    app.engine.tick();
    const body = await middles(keys.elite, '?markets=props&league=nba');
    expect(body.middles.length).toBeGreaterThan(0);
    expect(body.middles.every((row) => row.market.type === 'prop')).toBe(true);
    const middle = body.middles.find((row) => row.high.line === 24.5 && row.low.line === 26.5)!;
    expect(middle).toMatchObject({
      market: {
        type: 'prop',
        period: 'full',
        variable: 'stat',
        stat: 'player_points',
        label: 'LeBron James Points',
        player: { id: 'p-lebron', name: 'LeBron James', team: 'home' },
      },
      high: {
        book: 'fanduel',
        point: 24.5,
        outcome: { outcome: 'over', name: 'LeBron James Points Over 24.5' },
      },
      low: {
        book: 'draftkings',
        point: 26.5,
        outcome: { outcome: 'under', name: 'LeBron James Points Under 26.5' },
      },
      gap: { from: 25, to: 26 },
      pushes: { high: null, low: null },
      model: 'prop-normal',
      centre: 25.5,
    });
    const model = propStatModel('nba', 'player_points')!;
    const chances = propMiddleChances(model, 25.5, 24.5, 26.5);
    expect(middle.probability.middle).toBeCloseTo(chances.middle, 6);
    expect(middle.ev_pct).toBe(
      publishedPct(middleEv(middle.high.price.decimal, middle.low.price.decimal, chances)),
    );
    // Game lines are left out by the filter, and listed with them without it.
    expect((await middles(keys.elite, '?markets=spread,total&league=nba')).total).toBe(0);
    const all = await middles(keys.elite);
    expect(all.middles.some((row) => row.id === middle.id)).toBe(true);
    expect(all.middles.some((row) => row.market.type === 'spread')).toBe(true);
  });

  it('takes the markets vocabulary of /v1/ev: `prop` as `props`, and a type without middles lists none', async () => {
    const props = await middles(keys.elite, '?markets=props&league=nba');
    expect(props.total).toBeGreaterThan(0);
    expect((await middles(keys.elite, '?markets=prop&league=nba')).middles).toEqual(props.middles);
    expect((await middles(keys.elite, '?markets=moneyline,1x2')).total).toBe(0);
    const parameter = async (path: string) => {
      const doc = (await app.inject({ url: '/openapi.json' })).json();
      return doc.paths[path].get.parameters.find((p: { name: string }) => p.name === 'markets');
    };
    expect(await parameter('/v1/middles')).toEqual(await parameter('/v1/ev'));
  });
});

describe('GET /v1/middles, de-vig method and reference of the centre', () => {
  // An NBA game's total: FanDuel, DraftKings and Caesars at 220.5, over −130 / under +110 (the over favoured, so the
  // methods de-vig it differently), BetMGM at 217.5, −110 both ways. The centre is the median of the four books'
  // estimates: the mean of two equal ones from 220.5. BetMGM's over 217.5 with an under 220.5 both win on 218 to 220.
  // Each book's estimate is the total whose fair chance of its line is its de-vigged price under the NBA
  // distributions (decision 284), the margin held at 0 (no spread).
  const centreBy = (method: DevigMethod) =>
    distributionCentre('nba', 'total', 220.5, devig([1 + 100 / 130, 2.1], method)[0]!, 0);

  beforeAll(() => {
    app.engine.ingest({
      kind: 'event',
      sourceEventId: 'mia-phi',
      league: 'nba',
      home: { name: 'Philadelphia 76ers', abbreviation: 'PHI' },
      away: { name: 'Miami Heat', abbreviation: 'MIA' },
      startsAt: clock.now() + 3 * 3_600_000,
      live: false,
    });
    const total = (book: string, outcome: string, point: number, american: number) =>
      app.engine.ingest({
        kind: 'price',
        sourceEventId: 'mia-phi',
        book,
        market: 'total',
        outcome,
        point,
        american,
      });
    for (const book of ['fanduel', 'draftkings', 'caesars']) {
      total(book, 'over', 220.5, -130);
      total(book, 'under', 220.5, 110);
    }
    total('betmgm', 'over', 217.5, -110);
    total('betmgm', 'under', 217.5, -110);
    app.engine.tick();
    clock.advance(1_000);
    app.engine.tick();
  });

  it('de-vigs each book by `devig` (default multiplicative, as before) and names the method in every answer', async () => {
    const byDefault = await middles(keys.elite, '?league=nba&markets=total');
    const additive = await middles(keys.elite, '?league=nba&markets=total&devig=additive');
    expect([byDefault.method, byDefault.reference]).toEqual(['multiplicative', 'consensus']);
    expect([additive.method, additive.reference]).toEqual(['additive', 'consensus']);
    expect(byDefault.total).toBeGreaterThan(0);
    expect(additive.middles.map((m) => m.id)).toEqual(byDefault.middles.map((m) => m.id));
    const [first] = byDefault.middles;
    const [other] = additive.middles;
    expect(first!.centre_from).toEqual({
      method: 'multiplicative',
      reference: 'consensus',
      reference_fallback: null,
    });
    expect(other!.centre_from).toEqual({
      method: 'additive',
      reference: 'consensus',
      reference_fallback: null,
    });
    expect(first!.centre).toBeCloseTo(centreBy('multiplicative'), 2);
    expect(other!.centre).toBeCloseTo(centreBy('additive'), 2);
    expect(Math.abs(first!.centre - other!.centre)).toBeGreaterThan(0.05);
    expect(other!.probability.middle).not.toBe(first!.probability.middle);
    const power = await middles(keys.elite, '?league=nba&markets=total&devig=power');
    expect(power.method).toBe('power');
    expect(power.middles[0]!.centre).toBeCloseTo(centreBy('power'), 2);
  });

  it("takes the centre from `reference`'s books, the consensus when it cannot, and says why", async () => {
    const betmgm = await middles(keys.elite, '?league=nba&markets=total&reference=betmgm');
    expect(betmgm.reference).toBe('betmgm');
    expect(betmgm.middles[0]!.centre_from).toEqual({
      method: 'multiplicative',
      reference: 'betmgm',
      reference_fallback: null,
    });
    expect(betmgm.middles[0]!.centre).toBeCloseTo(distributionCentre('nba', 'total', 217.5, 0.5, 0), 2);
    expect(betmgm.middles[0]!.centre).toBeCloseTo(
      marketCentreBy(
        'nba',
        'total',
        [{ book: 'betmgm', line: 217.5, high: dec(-110), low: dec(-110) }],
        {
          method: 'multiplicative',
          reference: 'betmgm',
        },
        1,
        0,
      )!.centre,
      2,
    );
    const circa = await middles(keys.elite, '?league=nba&markets=total&reference=circa');
    expect(circa.middles[0]!.centre_from).toMatchObject({
      reference: 'consensus',
      reference_fallback: 'book_missing_outcomes',
    });
    expect(circa.middles[0]!.centre).toBeCloseTo(centreBy('multiplicative'), 2);
  });

  it('answers 400 to a method or reference it does not know', async () => {
    for (const query of ['?devig=logit', '?reference=nobody']) {
      const response = await app.inject({ url: `/v1/middles${query}`, headers: { 'x-api-key': keys.elite } });
      expect(response.statusCode, query).toBe(400);
    }
  });
});

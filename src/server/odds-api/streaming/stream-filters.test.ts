import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey, openRawStream, streamFrames, type RawStream } from '#tests/support/server/odds-api.ts';
import { trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// GET /v1/stream's filters apply to every event type (issue 56: `markets=moneyline&types=price,arb` sent arbs on
// totals, spreads and first-half markets). One game holds arbs on a full-game moneyline, a full-game total, a
// first-half moneyline and a player prop; another a positive-EV price on its full-game moneyline and one on its
// first-half total; a third two middles on its full-game spread. Each filtered stream gets what its filters take, of
// every kind (`price`, `arb`, `arb_removed`, `ev`, `ev_removed`, `middle`, `middle_removed`, and the snapshot's lists),
// and nothing else, while an unfiltered stream gets everything.

let app: FastifyInstance;
let base = '';
let key = '';

type Message = Record<string, unknown>;

function ingest(sourceEventId: string, book: string, market: Message, outcome: string, american: number) {
  expect(
    app.engine.ingest({ kind: 'price', sourceEventId, book, ...market, outcome, american } as never),
  ).toBe(true);
}

const MONEYLINE = { market: 'moneyline', period: 'full' };
const TOTAL = { market: 'total', period: 'full', point: 220.5 };
const H1_MONEYLINE = { market: 'moneyline', period: 'h1' };
const PROP = {
  market: 'prop',
  period: 'full',
  stat: 'player_points',
  player: { id: 'p-lebron', name: 'LeBron James' },
  point: 27.5,
};

/** Two-book arbs on four markets of the arbs game: home/over at FanDuel, away/under at DraftKings. */
function arbs(totalUnder = 105) {
  ingest('flt-arbs', 'fanduel', MONEYLINE, 'home', 150);
  ingest('flt-arbs', 'draftkings', MONEYLINE, 'away', -130);
  ingest('flt-arbs', 'fanduel', TOTAL, 'over', 110);
  ingest('flt-arbs', 'draftkings', TOTAL, 'under', totalUnder);
  ingest('flt-arbs', 'fanduel', H1_MONEYLINE, 'home', 150);
  ingest('flt-arbs', 'draftkings', H1_MONEYLINE, 'away', -130);
  ingest('flt-arbs', 'fanduel', PROP, 'over', 110);
  ingest('flt-arbs', 'draftkings', PROP, 'under', 105);
}

/** Three books at −110 both ways, BetMGM above the fair on one side (positive EV) of `market`. */
function ev(market: Message, sides: [string, string], betmgm: number) {
  for (const book of ['fanduel', 'draftkings', 'caesars']) {
    ingest('flt-ev', book, market, sides[0], -110);
    ingest('flt-ev', book, market, sides[1], -110);
  }
  ingest('flt-ev', 'betmgm', market, sides[0], betmgm);
  ingest('flt-ev', 'betmgm', market, sides[1], -125);
}

const H1_TOTAL = { market: 'total', period: 'h1', point: 110.5 };

/** The middles game's spread: three books at 2.5, BetMGM's away +3.5 (suspended when `away35` is false). */
function middles(away35: boolean) {
  for (const book of ['fanduel', 'draftkings', 'caesars']) {
    ingest('flt-mid', book, { market: 'spread', period: 'full', point: -2.5 }, 'home', -110);
    ingest('flt-mid', book, { market: 'spread', period: 'full', point: 2.5 }, 'away', -110);
  }
  expect(
    app.engine.ingest({
      kind: 'price',
      sourceEventId: 'flt-mid',
      book: 'betmgm',
      market: 'spread',
      period: 'full',
      point: 3.5,
      outcome: 'away',
      american: -105,
      ...(away35 ? {} : { suspended: true }),
    } as never),
  ).toBe(true);
}

interface Described {
  event: string;
  /** `type/period` of the change's market, and for a prop its stat. */
  market: string;
}

/** Each change's kind and market; an arb's from its label (the feed's Arb names its type, not its period). */
function described(stream: RawStream): Described[] {
  const out: Described[] = [];
  for (const { event, data } of streamFrames(stream)) {
    if (event === 'snapshot') continue;
    out.push({ event, market: marketOf(event, data) });
  }
  return out;
}

const labels = new Map<string, string>();

function marketOf(event: string, data: Message): string {
  if (event === 'price') {
    const market = data.market as { type: string; period: string; stat?: string };
    return [market.type, market.period, market.stat].filter(Boolean).join('/');
  }
  if (event === 'arb') {
    const arb = data.arb as { market: string };
    labels.set(data.key as string, arb.market);
    return arbMarketOf(arb.market);
  }
  if (event === 'arb_removed') return arbMarketOf(labels.get(data.key as string) ?? '?');
  if (event === 'ev') {
    const market = (data.ev as { market: { type: string; period: string } }).market;
    labels.set(data.key as string, `${market.type}/${market.period}`);
    return `${market.type}/${market.period}`;
  }
  if (event === 'middle') {
    const market = (data.middle as { market: { type: string; period: string } }).market;
    labels.set(data.key as string, `${market.type}/${market.period}`);
    return `${market.type}/${market.period}`;
  }
  return labels.get(data.key as string) ?? '?';
}

function arbMarketOf(label: string): string {
  if (label === 'Moneyline') return 'moneyline/full';
  if (label.startsWith('Total')) return 'total/full';
  if (/^1st Half Moneyline/.test(label)) return 'moneyline/h1';
  if (/LeBron James Points/.test(label)) return 'prop/full/player_points';
  return `? ${label}`;
}

function open(query: string): Promise<RawStream> {
  return openRawStream(`${base}/v1/stream?${query}`, { 'x-api-key': key });
}

const ALL_TYPES = 'types=price,arb,ev,middle';

beforeAll(async () => {
  app = await buildTestApp({ config: trialTestConfig() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  key = await createKey(app, 'enterprise');
  for (const [id, home, away] of [
    ['flt-arbs', 'Los Angeles Lakers', 'Dallas Mavericks'],
    ['flt-ev', 'Boston Celtics', 'New York Knicks'],
    ['flt-mid', 'Phoenix Suns', 'Denver Nuggets'],
  ] as const)
    app.engine.ingest({
      kind: 'event',
      sourceEventId: id,
      league: 'nba',
      home: { name: home },
      away: { name: away },
      startsAt: Date.now() + 3_600_000,
      players: [{ id: 'p-lebron', name: 'LeBron James', team: 'home' }],
    } as never);
});

afterAll(async () => {
  await app.close();
});

describe('GET /v1/stream filters on every event type', () => {
  it('sends each filtered stream the prices, arbs, positive-EV prices and middles of its markets only, their removals too', async () => {
    const all = await open(`${ALL_TYPES}&initial=false`);
    const moneylineFull = await open(`${ALL_TYPES}&initial=false&markets=moneyline&period=full`);
    const firstHalf = await open('types=arb,ev,middle&initial=false&period=h1');
    const points = await open('types=price,arb&initial=false&stat=player_points');
    const notProps = await open('types=arb,ev,middle&initial=false&markets=total,spread');
    const streams = [all, moneylineFull, firstHalf, points, notProps];
    await waitFor(() => streams.every((stream) => stream.status === 200), 'the streams to open');

    // Everything appears, then the total's arb, the first-half EV price and the middles go.
    arbs();
    ev(MONEYLINE, ['home', 'away'], 105);
    ev(H1_TOTAL, ['over', 'under'], 105);
    middles(true);
    const has = (stream: RawStream, event: string, market: string) =>
      described(stream).some((change) => change.event === event && change.market === market);
    await waitFor(
      () =>
        ['moneyline/full', 'total/full', 'moneyline/h1', 'prop/full/player_points'].every((market) =>
          has(all, 'arb', market),
        ) &&
        has(all, 'ev', 'moneyline/full') &&
        has(all, 'ev', 'total/h1') &&
        described(all).filter((change) => change.event === 'middle').length === 2,
      'every change on the unfiltered stream',
    );
    arbs(-200);
    ev(H1_TOTAL, ['over', 'under'], -110);
    middles(false);
    await waitFor(
      () =>
        has(all, 'arb_removed', 'total/full') &&
        has(all, 'ev_removed', 'total/h1') &&
        described(all).filter((change) => change.event === 'middle_removed').length === 2,
      'the removals on the unfiltered stream',
    );

    // A last change each filtered stream takes: once it has arrived, so has everything before it.
    ingest('flt-arbs', 'fanduel', MONEYLINE, 'home', 160);
    ingest('flt-arbs', 'fanduel', H1_MONEYLINE, 'home', 160);
    ingest('flt-arbs', 'fanduel', PROP, 'over', 115);
    ingest('flt-arbs', 'fanduel', TOTAL, 'over', 300);
    await waitFor(
      () =>
        described(moneylineFull).some(
          (change) => change.event === 'arb' && change.market === 'moneyline/full',
        ) &&
        described(moneylineFull).filter((change) => change.event === 'arb').length >= 2 &&
        described(firstHalf).filter((change) => change.event === 'arb').length >= 2 &&
        described(points).filter((change) => change.event === 'arb').length >= 2 &&
        described(notProps).filter((change) => change.event === 'arb').length >= 2,
      'the last changes on the filtered streams',
    );

    const kinds = (stream: RawStream) => new Set(described(stream).map((change) => change.event));
    const markets = (stream: RawStream) => new Set(described(stream).map((change) => change.market));
    // The unfiltered stream had every kind, on every market.
    expect([...kinds(all)].sort()).toEqual(
      ['arb', 'arb_removed', 'ev', 'ev_removed', 'middle', 'middle_removed', 'price'].sort(),
    );
    // markets=moneyline&period=full: prices, arbs and the EV price of full-game moneylines, nothing else.
    expect([...markets(moneylineFull)]).toEqual(['moneyline/full']);
    expect([...kinds(moneylineFull)].sort()).toEqual(['arb', 'ev', 'price']);
    // period=h1: the first-half arb and EV price (and its removal); middles are full-game only.
    expect([...markets(firstHalf)].sort()).toEqual(['moneyline/h1', 'total/h1']);
    expect([...kinds(firstHalf)].sort()).toEqual(['arb', 'ev', 'ev_removed']);
    // stat=player_points: the prop's prices and arb only.
    expect([...markets(points)]).toEqual(['prop/full/player_points']);
    expect([...kinds(points)].sort()).toEqual(['arb', 'price']);
    // markets=total,spread: the total's arb and its removal, the first-half total's EV price, the spread's middles.
    expect([...markets(notProps)].sort()).toEqual(['spread/full', 'total/full', 'total/h1']);
    expect([...kinds(notProps)].sort()).toEqual([
      'arb',
      'arb_removed',
      'ev',
      'ev_removed',
      'middle',
      'middle_removed',
    ]);
    for (const stream of streams) stream.abort();
  });

  it("opens with a snapshot whose events, arbs, positive-EV prices and middles keep to the stream's filters", async () => {
    arbs();
    ev(MONEYLINE, ['home', 'away'], 105);
    ev(H1_TOTAL, ['over', 'under'], 105);
    middles(true);
    await waitFor(
      () => (app.engine.values?.ev.size ?? 0) >= 2 && (app.engine.values?.middles.size ?? 0) === 2,
      'both positive-EV prices and both middles',
    );
    await waitFor(() => (app.engine.latest?.arbs.length ?? 0) >= 4, 'the four arbs');

    const snapshotOf = async (query: string) => {
      const stream = await open(`${ALL_TYPES}&${query}`);
      await waitFor(() => streamFrames(stream).some((frame) => frame.event === 'snapshot'), 'the snapshot');
      stream.abort();
      const data = streamFrames(stream).find((frame) => frame.event === 'snapshot')!.data as {
        events: { markets: { type: string; period: string }[] }[];
        arbs: { arb: { market: string } }[];
        ev: { ev: { market: { type: string; period: string } } }[];
        middles: { middle: { market: { type: string; period: string } } }[];
      };
      return {
        prices: [
          ...new Set(data.events.flatMap((event) => event.markets.map((m) => `${m.type}/${m.period}`))),
        ],
        arbs: data.arbs.map((entry) => arbMarketOf(entry.arb.market)).sort(),
        ev: data.ev.map((entry) => `${entry.ev.market.type}/${entry.ev.market.period}`).sort(),
        middles: data.middles.map((entry) => `${entry.middle.market.type}/${entry.middle.market.period}`),
      };
    };

    const everything = await snapshotOf('league=nba');
    expect(everything.arbs).toEqual([
      'moneyline/full',
      'moneyline/h1',
      'prop/full/player_points',
      'total/full',
    ]);
    expect(everything.ev).toEqual(['moneyline/full', 'total/h1']);
    expect(everything.middles).toEqual(['spread/full', 'spread/full']);

    expect(await snapshotOf('markets=moneyline&period=full')).toEqual({
      prices: ['moneyline/full'],
      arbs: ['moneyline/full'],
      ev: ['moneyline/full'],
      middles: [],
    });
    expect(await snapshotOf('period=h1')).toEqual({
      prices: expect.arrayContaining(['moneyline/h1', 'total/h1']),
      arbs: ['moneyline/h1'],
      ev: ['total/h1'],
      middles: [],
    });
    const points = await snapshotOf('stat=player_points');
    expect(points.arbs).toEqual(['prop/full/player_points']);
    expect(points.ev).toEqual([]);
    expect(points.middles).toEqual([]);
  });
});

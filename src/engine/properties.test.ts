import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalDecimal, edgePct } from '#domain/arbitrage.ts';
import { outcomesOf, sideId, type MarketSpec, type GameMarketType, type Period } from '#domain/markets.ts';
import { specOutcomes } from '#domain/market-labels.ts';
import { americanToDecimal, type AmericanOdds } from '#domain/odds.ts';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { OddsEngine } from './engine.ts';
import { feedBody } from './publisher.ts';

// Properties of every published feed, over random update streams and clocks: the maths, and the pairing rules of
// docs/product.md §10 (no mismatched points or periods, no suspended or stale price, never one book with itself).

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);
const BOOKS = ['fanduel', 'draftkings', 'betmgm', 'caesars', 'circa'] as const;
const FIXTURES = [
  { sourceEventId: 'f-nba', league: 'nba', home: 'Los Angeles Lakers', away: 'Boston Celtics' },
  { sourceEventId: 'f-epl', league: 'epl', home: 'Arsenal', away: 'Chelsea' },
] as const;

const priceOp = fc.record({
  op: fc.constant('price' as const),
  fixture: fc.integer({ min: 0, max: 1 }),
  book: fc.constantFrom(...BOOKS),
  market: fc.constantFrom<GameMarketType>('moneyline', 'moneyline', 'spread', 'total', '1x2', '1x2'),
  period: fc.constantFrom<Period>('full', 'full', 'full', 'h1'),
  point: fc.constantFrom(-3.5, 3.5, 4.5),
  totalPoint: fc.constantFrom(210.5, 211.5),
  outcome: fc.integer({ min: 0, max: 3 }),
  american: fc.oneof(fc.integer({ min: 100, max: 400 }), fc.integer({ min: -400, max: -100 })),
  suspended: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, fc.constant(true)),
  age: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 5_000 }) },
    fc.integer({ min: -8_000, max: 90_000 }),
  ),
});
const clockOp = fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 20_000 }) });
const liveOp = fc.record({
  op: fc.constant('live' as const),
  fixture: fc.integer({ min: 0, max: 1 }),
  live: fc.boolean(),
});
const tickOp = fc.constant({ op: 'tick' as const });
const ops = fc.array(
  fc.oneof({ weight: 12, arbitrary: priceOp }, clockOp, liveOp, { weight: 3, arbitrary: tickOp }),
  { minLength: 10, maxLength: 150, size: 'max' },
);

interface Held {
  spec: MarketSpec;
  outcome: string;
  book: string;
  decimal: number;
  suspended: boolean;
  updatedAt: number;
}

describe('published feed properties', () => {
  it('every arb is correct, fresh, unsuspended, paired by docs/product.md §10 rules and cross-book', () => {
    let checked = 0;
    fc.assert(
      fc.property(ops, fc.double({ min: -3, max: 0, noNaN: true }), (stream, floorPct) => {
        let now = T0;
        const engine = new OddsEngine({ source: 'replay', now: () => now, scan: { floorPct } });
        engine.markReady();
        const live = [false, false];
        const send = (index: number) => {
          const f = FIXTURES[index]!;
          engine.ingest({
            kind: 'event',
            sourceEventId: f.sourceEventId,
            league: f.league,
            home: { name: f.home },
            away: { name: f.away },
            startsAt: T0 + 3_600_000,
            live: live[index],
          });
        };
        send(0);
        send(1);
        const idOf = (index: number) =>
          engine.store.events().find((e) => e.home.name === FIXTURES[index]!.home)!.id;
        const held = new Map<string, Held>(); // side id → latest accepted price
        const check = () => {
          engine.tick();
          // The body's arbs are JSON.stringify of the arbs it carries, byte for byte, whichever arbs' JSON was kept
          // from earlier ticks (publisher.ts `arbsJson`).
          const latest = engine.latest!;
          expect(latest.body.toString('utf8')).toBe(
            feedBody(latest.at, 'replay', JSON.stringify(latest.arbs)).toString('utf8'),
          );
          const feed = ArbFeedSchema.parse(JSON.parse(latest.body.toString('utf8')));
          for (const arb of feed.arbs) {
            checked += 1;
            const fixture = FIXTURES.findIndex((f) => f.home === arb.event.teams.home.name);
            const maxAge = live[fixture] ? 10_000 : 60_000;
            const prices = arb.sides.map((side) => held.get(side.id)!);
            expect(prices.every(Boolean)).toBe(true);
            const spec = prices[0]!.spec;
            for (const p of prices) expect(p.spec).toEqual(spec);
            expect(prices.map((p) => p.outcome).sort()).toEqual([...specOutcomes(spec)].sort());
            expect(new Set(prices.map((p) => p.book)).size).toBe(prices.length);
            for (const p of prices) {
              expect(p.suspended).toBe(false);
              expect(now - p.updatedAt).toBeLessThanOrEqual(maxAge);
            }
            arb.sides.forEach((side, i) => {
              expect(side.decimal_odds).toBe(prices[i]!.decimal);
              expect(Math.abs(side.implied_prob - 1 / side.decimal_odds)).toBeLessThan(5e-7);
            });
            const exact = edgePct(arb.sides.map((side) => side.decimal_odds));
            expect(arb.edge_pct).toBeLessThanOrEqual(exact + 1e-9);
            expect(exact - arb.edge_pct).toBeLessThan(0.001);
            expect(arb.sides.reduce((s, side) => s + 1 / side.decimal_odds, 0)).toBeLessThan(
              1 - floorPct / 100,
            );
          }
          const edges = feed.arbs.map((arb) => arb.edge_pct);
          expect(edges).toEqual([...edges].sort((a, b) => b - a));
        };
        for (const op of stream) {
          if (op.op === 'advance') now += op.ms;
          else if (op.op === 'tick') check();
          else if (op.op === 'live') {
            live[op.fixture] = op.live;
            send(op.fixture);
          } else {
            const f = FIXTURES[op.fixture]!;
            const point =
              op.market === 'moneyline' || op.market === '1x2'
                ? null
                : op.market === 'total'
                  ? op.totalPoint
                  : op.point;
            // Mostly a valid outcome of the market; index 3 sends one that is not (dropped as unknown_market).
            const outcome =
              op.outcome === 3 ? 'draw' : outcomesOf(op.market)[op.outcome % outcomesOf(op.market).length]!;
            const accepted = engine.ingest({
              kind: 'price',
              sourceEventId: f.sourceEventId,
              book: op.book,
              market: op.market,
              period: op.period,
              point,
              outcome,
              american: op.american,
              suspended: op.suspended,
              updatedAt: now - op.age,
            });
            if (accepted) {
              const marketPoint =
                op.market === 'spread' && outcome === 'away' && point !== null ? -point : point;
              const spec: MarketSpec = { type: op.market, period: op.period, point: marketPoint };
              const id = sideId(idOf(op.fixture), spec, outcome, op.book);
              held.set(id, {
                spec,
                outcome,
                book: op.book,
                decimal: canonicalDecimal(americanToDecimal(op.american as AmericanOdds)),
                suspended: op.suspended,
                updatedAt: Math.min(now - op.age, now),
              });
            }
          }
        }
        check();
      }),
      { numRuns: 300 },
    );
    // The streams must actually produce arbs, or the properties above would hold vacuously.
    expect(checked).toBeGreaterThan(100);
  });
});

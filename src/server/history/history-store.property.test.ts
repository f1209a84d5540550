import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candles, closingTick, openingTick, type Tick } from '#domain/history.ts';
import { americanToDecimal, toAmericanOdds } from '#domain/odds.ts';
import { canonicalDecimal } from '#domain/arbitrage.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard } from '#tests/support/server/history.ts';

// Random price sequences fed through the real engine and written by the real writer: what the store keeps (ticks,
// opening line, closing line) is what the pure definitions in src/domain/history.ts give for the sequence fed, and
// the movement API's candles agree with the ticks it returns.

const clock = virtualClock(Date.UTC(2026, 10, 23, 9));
let app: FastifyInstance;
let board: HandBoard;

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  board = new HandBoard(app, clock, 'pp');
});

afterAll(async () => {
  await app.close();
});

const step = fc.record({
  waitMs: fc.integer({ min: 1, max: 90_000 }),
  american: fc.oneof(fc.integer({ min: -400, max: -101 }), fc.integer({ min: 100, max: 400 })),
  suspended: fc.boolean(),
});

describe('odds history store, random sequences', () => {
  it('keeps exactly the changes fed, with the opening and closing lines of the domain definitions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 26 }),
        async (steps, startAfter) => {
          // The event starts after `startAfter` of the steps (after all of them when it is past the end).
          const startsInMs = steps.slice(0, startAfter).reduce((sum, s) => sum + s.waitMs, 0) + 500;
          const event = board.addEvent({ league: 'nhl', startsInMs });
          const fed: Tick[] = [];
          for (const s of steps) {
            clock.advance(s.waitMs);
            board.price(event, 'caesars', 'moneyline', 'home', s.american, { suspended: s.suspended });
            const decimal = canonicalDecimal(americanToDecimal(toAmericanOdds(s.american)));
            const state = s.suspended ? 'suspended' : 'open';
            const last = fed.at(-1);
            // A re-confirmation (same price, same state) is not a change.
            if (!last || last.american !== s.american || last.state !== state) {
              fed.push({ at: clock.now(), american: s.american, decimal, state });
            }
          }
          if (clock.now() < event.startsAt) {
            clock.advance(event.startsAt - clock.now() + 1);
            board.start(event);
          }
          clock.advance(1_500);
          await board.flush();

          const [series] = await app.history.series(event.id);
          const ticks = await app.history.ticks([series!.id], { from: 0, to: clock.now(), limit: 1_000 });
          expect(ticks.map(({ at, american, decimal, state }) => ({ at, american, decimal, state }))).toEqual(
            fed,
          );
          const opening = openingTick(fed);
          expect(series!.opening).toEqual(
            opening ? { at: opening.at, american: opening.american, decimal: opening.decimal } : null,
          );
          const closing = closingTick(fed, event.startsAt);
          expect(series!.closing).toEqual(
            closing ? { at: closing.at, american: closing.american, decimal: closing.decimal } : null,
          );
          board.end(event);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the movement API’s candles are the domain candles of the ticks it lists', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.constantFrom('1m', '5m'),
        async (steps, interval) => {
          const event = board.addEvent({ league: 'nhl', startsInMs: 10 * 3_600_000 });
          for (const s of steps) {
            clock.advance(s.waitMs);
            board.price(event, 'fanduel', 'moneyline', 'away', s.american, { suspended: s.suspended });
          }
          await board.flush();
          const key = await enterpriseKey();
          const get = (query: string) =>
            app.inject({
              method: 'GET',
              url: `/v1/events/${encodeURIComponent(event.id)}/movement?limit=5000${query}`,
              headers: { 'x-api-key': key },
            });
          const points = (await get('')).json();
          const ticks: Tick[] = points.series[0].points.map(
            (point: { at: string; price: string; decimal_odds: number; state: Tick['state'] }) => ({
              at: Date.parse(point.at),
              american: Number(point.price),
              decimal: point.decimal_odds,
              state: point.state,
            }),
          );
          const answer = (await get(`&interval=${interval}`)).json();
          const intervalMs = interval === '1m' ? 60_000 : 300_000;
          const expected = candles(ticks, intervalMs, Date.parse(answer.from), Date.parse(answer.to));
          const got = (answer.series[0]?.candles ?? []).map(
            (candle: { at: string; open: number; high: number; low: number; close: number }) => ({
              ...candle,
              at: Date.parse(candle.at),
            }),
          );
          expect(
            got.map(({ at, open, high, low, close }: Record<string, number>) => ({
              at,
              open,
              high,
              low,
              close,
            })),
          ).toEqual(expected);
          board.end(event);
        },
      ),
      { numRuns: 15 },
    );
  });
});

let key: string | undefined;
async function enterpriseKey(): Promise<string> {
  if (key) return key;
  const { createKey } = await import('#tests/support/server/odds-api.ts');
  key = await createKey(app, 'enterprise');
  return key;
}

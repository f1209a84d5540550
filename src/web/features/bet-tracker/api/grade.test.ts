import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { betId, type ParlayLeg, type TrackedBet } from '#domain/bet-tracker.ts';
import { KeyedFeedError } from '#web/lib/keyed-fetch.ts';
import { buildTestApp, virtualClock } from '#tests/support/server/app.ts';
import { HandBoard, type BoardEvent } from '#tests/support/server/history.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { gradeWithKey } from './grade.ts';

// "Grade with your API key" (decision 257, 282) against the real app over real HTTP: the page's own gradeWithKey posts
// the tracked bets to POST /v1/grade with a Pro key made by the app's key service, and writes back the API's result,
// payout, profit and CLV. The app listens on a loopback port; the page's relative /v1 path is resolved against it, as
// the browser resolves it against the page's origin. Every figure is worked out by hand below.

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: Awaited<ReturnType<typeof buildTestApp>>;
let origin: string;
let proKey: string;
let game: BoardEvent;
let other: BoardEvent;
const realFetch = globalThis.fetch;

/**
 * `game` (NBA): two books hang the spread home −3.5 / away +3.5, the moneyline and Hale's and Price's points props at
 * −110 both ways, so every outcome's fair closing probability is 0.5. It ends 103–100; Hale scores 27, Price does not
 * play. `other` is never final.
 */
beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
  await app.ready();
  const board = new HandBoard(app, clock, 'gk');
  proKey = await createKey(app, 'pro');
  game = board.addEvent({ startsInMs: 60_000 });
  other = board.addEvent({ startsInMs: 60_000 });
  board.roster(game, [
    { id: 'gk-hale', name: 'Marcus Hale', team: 'home' },
    { id: 'gk-price', name: 'Devon Price', team: 'away' },
  ]);
  for (const book of ['fanduel', 'draftkings']) {
    board.price(game, book, 'spread', 'home', -110, { point: -3.5 });
    board.price(game, book, 'spread', 'away', -110, { point: 3.5 });
    for (const outcome of ['home', 'away']) {
      board.price(game, book, 'moneyline', outcome, -110);
      board.price(other, book, 'moneyline', outcome, -110);
    }
    for (const outcome of ['over', 'under'])
      for (const [player, point] of [
        ['gk-hale', 25.5],
        ['gk-price', 19.5],
      ] as const)
        board.price(game, book, 'prop', outcome, -110, {
          stat: 'player_points',
          player: { id: player },
          point,
        });
  }
  clock.advance(61_000);
  board.start(game);
  board.start(other);
  clock.advance(1_000);
  board.final(game, 103, 100, {
    periods: { h1: { home: 50, away: 52 } },
    players: { 'gk-hale': { full: { player_points: 27 } }, 'gk-price': null },
  });
  board.end(game);
  await board.flush();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The app is not listening on a port');
  origin = `http://127.0.0.1:${address.port}`;
  // The page's fetch('/v1/grade') as the browser makes it: relative to the page's origin, here the app's.
  vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) =>
    realFetch(new URL(input, origin), init),
  );
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await app.close();
});

function single(event: BoardEvent, extra: Partial<TrackedBet>): TrackedBet {
  const known = app.engine.store.event(event.id) ?? app.engine.scores.get(event.id);
  const base: Omit<TrackedBet, 'id'> = {
    group: null,
    kind: 'ev',
    placed_at: '2026-11-22T11:00:00.000Z',
    sport: 'basketball',
    league: 'nba',
    event_id: event.id,
    home: known?.home.name ?? 'Home',
    away: known?.away.name ?? 'Away',
    starts_at: null,
    market: 'moneyline',
    period: 'full',
    line: null,
    outcome: 'home',
    selection: 'Home',
    book: 'fanduel',
    decimal_odds: 2.1,
    american_odds: '+110',
    stake: 10_000,
    settlement: null,
    ...extra,
  };
  return { id: betId(base), ...base };
}

const leg = (bet: TrackedBet, decimal: number | null): ParlayLeg => ({
  sport: bet.sport,
  league: bet.league,
  event_id: bet.event_id,
  home: bet.home,
  away: bet.away,
  starts_at: bet.starts_at,
  market: bet.market as ParlayLeg['market'],
  period: bet.period,
  line: bet.line,
  outcome: bet.outcome!,
  selection: bet.selection,
  ...(bet.prop ? { prop: bet.prop } : {}),
  decimal_odds: decimal,
  result: null,
});

describe('Grade with your API key', () => {
  it('writes back the API’s result, payout, profit and CLV of singles, props and a parlay, in batches', async () => {
    const spread = single(game, {
      market: 'spread',
      line: 3.5,
      outcome: 'away',
      decimal_odds: 1.9091,
      stake: 11_000,
    });
    const hale = single(game, {
      market: 'prop',
      line: 25.5,
      outcome: 'over',
      prop: { stat: 'player_points', player: 'Marcus Hale', player_id: 'gk-hale' },
    });
    // Typed by name as a bettor writes it, on a player who did not play: void.
    const price = single(game, {
      market: 'prop',
      line: 19.5,
      outcome: 'under',
      prop: { stat: 'player_points', player: 'devon PRICE', player_id: null },
    });
    const open = single(other, {});
    // Home moneyline (won at 2.0) and Price's points (void, 1.9091): the void leg drops out, the ticket pays 2.0.
    const ticket = single(game, {
      kind: 'parlay',
      market: 'parlay',
      event_id: null,
      home: '',
      away: '',
      outcome: null,
      selection: '2-leg parlay',
      decimal_odds: 3.8,
      american_odds: '+280',
      legs: [leg(single(game, { decimal_odds: 2 }), 2), leg(price, 1.9091)],
    });
    const byHand = single(game, { kind: 'manual', event_id: null });
    // 151 bets, 150 of them with event ids: two requests (100 and 50), the second batch graded too.
    const fillers = Array.from({ length: 145 }, (_, k) => single(game, { stake: 100 + k }));
    const bets = [spread, hale, price, open, ticket, byHand, ...fillers];
    const posts: number[] = [];
    const counting = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => {
      if (init?.method === 'POST')
        posts.push((JSON.parse(String(init.body)) as { bets: unknown[] }).bets.length);
      return counting(input, init);
    });
    const answer = await gradeWithKey(bets, proKey, () => '2026-11-22T13:00:00.000Z').finally(() =>
      vi.stubGlobal('fetch', counting),
    );
    expect(posts).toEqual([100, 50]);
    expect(answer).toMatchObject({ sent: 150, graded: 149 });
    const out = new Map(answer.bets.map((bet) => [bet.id, bet]));
    const settled = (bet: TrackedBet) => out.get(bet.id)!.settlement;
    // Away +3.5 at −110 on a 103–100 home win: won, $110 → $210, CLV (1.9091 × 0.5 − 1) = −4.545 %.
    expect(settled(spread)).toEqual({
      result: 'won',
      payout: 21_000,
      profit: 10_000,
      clv_pct: -4.545,
      settled_at: '2026-11-22T13:00:00.000Z',
      settled_by: 'api',
    });
    // Hale 27 over 25.5, $100 at 2.1: won $110, CLV (2.1 × 0.5 − 1) = +5 %.
    expect(settled(hale)).toMatchObject({ result: 'won', payout: 21_000, profit: 11_000, clv_pct: 5 });
    expect(settled(price)).toMatchObject({ result: 'void', payout: 10_000, profit: 0, clv_pct: 5 });
    // The parlay: $100 at 2.0 once Price's leg is void; its legs take the API's results.
    expect(settled(ticket)).toMatchObject({
      result: 'won',
      payout: 20_000,
      profit: 10_000,
      settled_by: 'api',
    });
    expect(out.get(ticket.id)!.legs!.map((one) => one.result)).toEqual(['won', 'void']);
    // Not final: left open. Typed by hand (no event id): never sent.
    expect(settled(open)).toBeNull();
    expect(out.get(byHand.id)).toBe(byHand);
    // The last bet of the second batch: $2.44 at 2.1 pays $5.12.
    expect(settled(fillers[144]!)).toMatchObject({ result: 'won', payout: 512, settled_by: 'api' });
  });

  it('a parlay lost before its other game ended: the API’s leg closes are kept, and it is sent again until that game is graded', async () => {
    // Away lost 103–100 at 2.0 (close 0.5); `other` has started (its close 0.5 is known) and not ended. The ticket at
    // 4.2 is lost, its CLV 4.2 × 0.5 × 0.5 − 1 = +5 %.
    const ticket = single(game, {
      kind: 'parlay',
      market: 'parlay',
      event_id: null,
      home: '',
      away: '',
      outcome: null,
      selection: '2-leg parlay',
      decimal_odds: 4.2,
      american_odds: '+320',
      legs: [leg(single(game, { outcome: 'away' }), 2), leg(single(other, {}), 2)],
    });
    const first = await gradeWithKey([ticket], proKey, () => '2026-11-22T13:00:00.000Z');
    const lost = first.bets[0]!;
    expect(lost.settlement).toMatchObject({ result: 'lost', payout: 0, clv_pct: 5, settled_by: 'api' });
    // The graded leg keeps its close; the pending one waits for its game (the results fill it at its final).
    expect(lost.legs!.map((one) => [one.result, one.closing_probability])).toEqual([
      ['lost', 0.5],
      [null, undefined],
    ]);
    // Still waiting on `other`: sent again (and answered the same); once every leg is graded, not any more.
    expect(await gradeWithKey([lost], proKey, () => '2026-11-22T13:05:00.000Z')).toMatchObject({
      sent: 1,
      graded: 1,
    });
    const done: TrackedBet = {
      ...lost,
      legs: lost.legs!.map((one) => ({ ...one, result: 'lost' as const })),
    };
    expect(await gradeWithKey([done], proKey, () => '2026-11-22T13:05:00.000Z')).toMatchObject({
      sent: 0,
      graded: 0,
    });
  });

  it('says why a bad key is refused, and changes nothing', async () => {
    const bet = single(game, {});
    const refused = await gradeWithKey([bet], 'sl_live_NotAKey0000000000000000000000000').then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(KeyedFeedError);
    expect(refused).toMatchObject({ status: 401, message: expect.stringMatching(/key/i) });
    expect(bet.settlement).toBeNull();
  });
});

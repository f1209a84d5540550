import { describe, expect, it } from 'vitest';
import { OddsEngine } from '#engine/engine.ts';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import { decodeEntries, encodeEntries, MessageBook } from './message-book.ts';

// Saturday 21 November 2026, 21:10 ET: the evening's 19:00 games end within the half hour the test runs (decision 221).
const T0 = Date.UTC(2026, 10, 22, 2, 10, 0);

/** Every market's current prices, by market key: what /v1/odds and the scans read. */
function board(engine: OddsEngine): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const market of engine.store.allMarkets()) out.set(market.key, engine.store.prices(market.key));
  return out;
}

describe('MessageBook', () => {
  it('replayed into an empty engine, rebuilds the fixtures, prices and arbs of the engine that accepted the messages', () => {
    let now = T0;
    const leader = new OddsEngine({ source: 'simulator', now: () => now });
    const book = new MessageBook();
    // Props posted from listing: rosters and player prices are part of what must be rebuilt.
    const sim = new MarketSimulator({
      seed: 7,
      startMs: T0,
      events: 20,
      stepMs: 20_000,
      propsPostedMs: Infinity,
    });
    let batch = sim.initial();
    let accepted = 0;
    let ended = 0;
    for (let step = 0; step < 90; step += 1) {
      for (const message of batch) {
        if (leader.ingest(message, now)) {
          book.record(message, now);
          accepted += 1;
          if (message.kind === 'end') ended += 1;
        }
      }
      now += 20_000;
      batch = sim.step();
    }
    expect(ended).toBeGreaterThan(0);

    const entries = decodeEntries(encodeEntries(book.entries()));
    expect(entries.length).toBeLessThan(accepted);
    const follower = new OddsEngine({ source: 'simulator', now: () => now });
    for (const [at, message] of entries) expect(follower.ingest(message, at)).toBe(true);

    expect(follower.store.eventCount).toBe(leader.store.eventCount);
    // The same fixtures, field for field. Their order in the store is not kept (the book moves a fixture to its latest
    // event message, e.g. its kick-off) and nothing reads it: listings sort by start time and id (views.ts).
    const byId = (events: { id: string }[]) => [...events].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(follower.store.events())).toEqual(byId(leader.store.events()));
    const leaderBoard = board(leader);
    expect(leaderBoard.size).toBeGreaterThan(100);
    expect(board(follower)).toEqual(leaderBoard);
    for (const event of leader.store.events()) {
      expect([...follower.store.eventState(event.id)!.players.values()]).toEqual([
        ...leader.store.eventState(event.id)!.players.values(),
      ]);
    }
    // The live scores too (issue 57); finals left with their fixtures.
    const byEvent = (scores: { eventId: string }[]) =>
      [...scores].sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
    const live = leader.scores.list().filter((score) => score.status === 'live');
    expect(live.length).toBeGreaterThan(0);
    expect(byEvent(follower.scores.list())).toEqual(byEvent(live));
    leader.markReady();
    follower.markReady();
    const published = leader.tick()!;
    expect(published.arbs.length).toBeGreaterThan(0);
    expect(follower.tick()!.body.equals(published.body)).toBe(true);
  });

  it('forgets a finished fixture and its prices, and keeps the links a later message left out', () => {
    const book = new MessageBook();
    const event = {
      kind: 'event',
      sourceEventId: 'g',
      league: 'nba',
      home: { name: 'Los Angeles Lakers' },
      away: { name: 'Boston Celtics' },
      startsAt: T0 + 3_600_000,
    };
    const price = { kind: 'price', sourceEventId: 'g', book: 'circa', market: 'moneyline', outcome: 'home' };
    book.record(event, T0);
    book.record({ ...price, american: 120, links: { desktop: 'https://circa.example/g' } }, T0 + 1);
    book.record({ ...price, american: 125 }, T0 + 2);
    const entries = book.entries().map(([at, json]) => [at, JSON.parse(json)]);
    expect(entries).toEqual([
      [T0, event],
      [T0 + 2, { ...price, american: 125, links: { desktop: 'https://circa.example/g' } }],
    ]);
    book.record({ kind: 'end', sourceEventId: 'g' }, T0 + 3);
    expect(book.entries()).toEqual([]);
    expect(book.size).toBe(0);
  });

  it('refuses a replicated payload that is not [at, message] pairs', () => {
    expect(() => decodeEntries('{"a":1}')).toThrow(/array/);
    expect(() => decodeEntries('[["x",{}]]')).toThrow(/\[at, message\]/);
  });
});

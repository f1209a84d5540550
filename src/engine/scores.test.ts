import { describe, expect, it } from 'vitest';
import { OddsEngine } from './engine.ts';
import { RECENT_FINAL_MS, SCORE_HISTORY_MS } from './scores.ts';

// Issue 57: `score` messages in, the engine's scoreboard out (live scores and recent finals).

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);

function setup() {
  let now = T0;
  const engine = new OddsEngine({ source: 'replay', now: () => now });
  engine.markReady();
  return {
    engine,
    advance(ms: number) {
      now += ms;
    },
    event(n: number) {
      return engine.ingest({
        kind: 'event',
        sourceEventId: `c${n}`,
        league: 'nba',
        home: { name: `Home ${n}` },
        away: { name: `Away ${n}` },
        startsAt: now - 60_000,
        live: true,
      });
    },
    id(n: number) {
      return engine.store.events().find((e) => e.home.name === `Home ${n}`)?.id;
    },
  };
}

const score = (n: number, extra: Record<string, unknown> = {}) => ({
  kind: 'score',
  sourceEventId: `c${n}`,
  status: 'live',
  home: 10,
  away: 8,
  periods: { q1: { home: 10, away: 8 }, h1: { home: 10, away: 8 }, full: { home: 10, away: 8 } },
  clock: 'Q1',
  ...extra,
});

describe('OddsEngine scores', () => {
  it('keeps the latest live score of a known event, with its teams and periods', () => {
    const s = setup();
    s.event(1);
    expect(s.engine.ingest(score(1))).toBe(true);
    expect(s.engine.ingest(score(1, { home: 12, clock: 'Q2' }))).toBe(true);
    const held = s.engine.scores.get(s.id(1)!);
    expect(held).toMatchObject({
      status: 'live',
      score: { home: 12, away: 8 },
      clock: 'Q2',
      home: { name: 'Home 1' },
      completedAt: null,
    });
    expect(held!.periods.q1).toEqual({ home: 10, away: 8 });
  });

  it('refuses a score of an unknown event, and malformed ones, counting why', () => {
    const s = setup();
    s.event(1);
    expect(s.engine.ingest(score(9))).toBe(false);
    expect(s.engine.ingest(score(1, { home: -1 }))).toBe(false);
    expect(s.engine.ingest(score(1, { away: 2.5 }))).toBe(false);
    expect(s.engine.ingest(score(1, { status: 'halftime' }))).toBe(false);
    expect(s.engine.ingest(score(1, { periods: { q9: { home: 1, away: 0 } } }))).toBe(false);
    expect(s.engine.ingest(score(1, { clock: 'x'.repeat(33) }))).toBe(false);
    expect(s.engine.ingest(score(1, { clock: '\u202e' }))).toBe(false);
    expect(s.engine.ingest(score(1, { updatedAt: T0 + 60_000 }))).toBe(false);
    const drops = s.engine.stats().drops;
    expect(drops.unknown_event).toBe(1);
    expect(drops.malformed).toBe(5);
    expect(drops.control_characters).toBe(1);
    expect(drops.future_timestamp).toBe(1);
    expect(s.engine.scores.list()).toEqual([]);
  });

  it('keeps a final after the event ends, ignores a live score after it, and drops a live one whose game ended without', () => {
    const s = setup();
    s.event(1);
    s.event(2);
    const one = s.id(1)!;
    const two = s.id(2)!;
    s.engine.ingest(score(1, { status: 'final', home: 101, away: 99, clock: 'Q4' }));
    s.engine.ingest(score(2));
    s.engine.ingest({ kind: 'end', sourceEventId: 'c1' });
    s.engine.ingest({ kind: 'end', sourceEventId: 'c2' });
    expect(s.engine.scores.get(one)).toMatchObject({
      status: 'final',
      score: { home: 101, away: 99 },
      clock: null,
    });
    expect(s.engine.scores.get(one)!.completedAt).toBe(T0);
    expect(s.engine.scores.get(two)).toBeUndefined();
  });

  it(`forgets a final ${RECENT_FINAL_MS / 86_400_000} days after the game ended`, () => {
    const s = setup();
    s.event(1);
    s.engine.ingest(score(1, { status: 'final' }));
    s.advance(RECENT_FINAL_MS - 1);
    expect(s.engine.scores.list()).toHaveLength(1);
    s.advance(2);
    expect(s.engine.scores.list()).toHaveLength(0);
  });

  it('keeps a final’s box score, naming each player from the roster, and marks one who did not play', () => {
    const s = setup();
    s.engine.ingest({
      kind: 'event',
      sourceEventId: 'c1',
      league: 'nba',
      home: { name: 'Home 1' },
      away: { name: 'Away 1' },
      startsAt: T0 - 60_000,
      live: true,
      players: [
        { id: 'p1', name: 'Marcus Hale', team: 'home' },
        { id: 'p2', name: 'Devon Price', team: 'away' },
      ],
    });
    const players = { p1: { full: { player_points: 27 }, q1: { player_points: 9 } }, p2: null };
    expect(s.engine.ingest(score(1, { status: 'final', players }))).toBe(true);
    expect(s.engine.scores.get(s.id(1)!)!.players).toEqual([
      { id: 'p1', name: 'Marcus Hale', team: 'home', played: true, periods: players.p1 },
      { id: 'p2', name: 'Devon Price', team: 'away', played: false, periods: {} },
    ]);
    expect(s.engine.scores.get(s.id(1)!)!.periodScores).toBe(true);
  });

  it('refuses player figures on a live score, an unknown stat, a fraction or an unknown period', () => {
    const s = setup();
    s.event(1);
    const final = (players: unknown) => score(1, { status: 'final', players });
    expect(s.engine.ingest(score(1, { players: { p1: { full: { player_points: 3 } } } }))).toBe(false);
    expect(s.engine.ingest(final({ p1: { full: { player_dunks: 3 } } }))).toBe(false);
    expect(s.engine.ingest(final({ p1: { full: { player_points: 2.5 } } }))).toBe(false);
    expect(s.engine.ingest(final({ p1: { q9: { player_points: 3 } } }))).toBe(false);
    expect(s.engine.ingest(final({ 'p\u202e1': { full: { player_points: 3 } } }))).toBe(false);
    expect(s.engine.ingest(score(1, { periodScores: 'no' }))).toBe(false);
    expect(s.engine.stats().drops.malformed).toBe(6);
    expect(s.engine.scores.list()).toEqual([]);
  });

  it(`gives each game's score as it stood at an instant of the last ${SCORE_HISTORY_MS / 60_000} minutes`, () => {
    const s = setup();
    s.event(1);
    s.event(2);
    s.engine.ingest(score(1, { home: 2, away: 0 }));
    s.advance(10_000);
    s.engine.ingest(score(1, { home: 4, away: 0 }));
    s.engine.ingest(score(2, { home: 1, away: 0 }));
    s.advance(10_000);
    s.engine.ingest(score(1, { home: 6, away: 0 }));
    const at = (ms: number) => s.engine.scores.listAt(T0 + ms).map((g) => [g.home.name, g.score.home]);
    expect(at(5_000)).toEqual([['Home 1', 2]]);
    expect(at(15_000)).toEqual([
      ['Home 2', 1],
      ['Home 1', 4],
    ]);
    expect(at(20_000)).toEqual([
      ['Home 2', 1],
      ['Home 1', 6],
    ]);
    expect(at(-1)).toEqual([]);
  });
});

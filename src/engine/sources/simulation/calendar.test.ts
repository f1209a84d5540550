import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeagueKey } from '#domain/markets.ts';
import type { SourceMessage } from '../../messages.ts';
import { TEAMS } from '../teams.ts';
import { FixtureCalendar, zonedInstant } from './calendar.ts';
import { MarketSimulator } from './market-simulator.ts';

// Issue 56, decision 221: the demo's fixtures at each league's real local slots and days, daylight saving time
// included, no team twice within a day (the NFL once a week), seasons and postseasons as in the real calendar. The
// slots below are written from the leagues' published schedules, not read from calendar.ts.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const ZONES: Readonly<Record<LeagueKey, string>> = {
  nba: 'America/New_York',
  nhl: 'America/New_York',
  ncaab: 'America/New_York',
  mlb: 'America/New_York',
  nfl: 'America/New_York',
  mls: 'America/New_York',
  epl: 'Europe/London',
};

/** Weekday (Sun…Sat), local "HH:MM" and month of an instant in a zone, read with Intl. */
function local(zone: string, ms: number): { day: string; time: string; month: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      month: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  return { day: parts.weekday!, time: `${parts.hour}:${parts.minute}`, month: Number(parts.month) };
}

const weekend = (day: string) => day === 'Sat' || day === 'Sun';
const within = (time: string, from: string, to: string) => time >= from && time <= to;

/** Whether a start (local weekday, time, month) is one of the league's real slots. */
const SLOTS: Readonly<Record<LeagueKey, (at: { day: string; time: string; month: number }) => boolean>> = {
  // Evenings Eastern time (a West Coast home game at 19:00 PT is 22:00 ET), weekend afternoons.
  nba: ({ day, time }) => within(time, weekend(day) ? '12:00' : '19:00', '22:30'),
  nhl: ({ day, time }) => within(time, weekend(day) ? '12:00' : '19:00', '22:30'),
  // College basketball: weeknights from 18:30, weekends from noon.
  ncaab: ({ day, time }) => within(time, weekend(day) ? '12:00' : '18:30', '21:30'),
  // Day games from 12:30, night games until 22:15 ET.
  mlb: ({ time }) => within(time, '12:30', '22:15'),
  // Thursday night (three on Thanksgiving), Saturdays in December and January, Sunday 13:00 / 16:05 / 16:25 and night
  // (the playoffs' 15:00 / 16:30 / 18:30 too), Monday night.
  nfl: ({ day, time, month }) =>
    (day === 'Thu' && (time === '20:15' || (month === 11 && ['12:30', '16:30', '20:20'].includes(time)))) ||
    (day === 'Sat' && (month === 12 || month === 1) && ['16:30', '20:00', '20:15'].includes(time)) ||
    (day === 'Sun' &&
      ['13:00', '15:00', '16:05', '16:25', '16:30', '18:30', '20:15', '20:20'].includes(time)) ||
    (day === 'Mon' && time === '20:15'),
  // UK time: Saturday 12:30 / 15:00 / 17:30, Sunday 14:00 / 16:30, Friday or Monday 20:00, midweek 19:30 / 20:00.
  epl: ({ day, time }) =>
    (day === 'Sat' && ['12:30', '15:00', '17:30'].includes(time)) ||
    (day === 'Sun' && ['14:00', '16:30'].includes(time)) ||
    ((day === 'Fri' || day === 'Mon') && time === '20:00') ||
    ((day === 'Tue' || day === 'Wed') && ['19:30', '20:00'].includes(time)),
  // Saturday evenings Eastern time (22:30 for a West Coast home game), some Sunday games.
  mls: ({ day, time }) =>
    (day === 'Sat' && within(time, '19:30', '22:30')) || (day === 'Sun' && within(time, '15:00', '21:00')),
};

/** Least hours between two starts of one team: a day (a day game after a night game in MLB), 3.5 days in the NFL. */
const REST_HOURS: Readonly<Record<LeagueKey, number>> = {
  nba: 20,
  nhl: 20,
  ncaab: 20,
  mlb: 16,
  nfl: 84,
  epl: 44,
  mls: 44,
};

interface Listed {
  league: LeagueKey;
  home: string;
  away: string;
  startsAt: number;
}

/** The breaches of the slot and rest rules among fixtures (empty when none). */
function breaches(fixtures: readonly Listed[]): string[] {
  const out: string[] = [];
  const starts = new Map<string, number[]>();
  for (const f of fixtures) {
    const at = local(ZONES[f.league], f.startsAt);
    if (!SLOTS[f.league](at))
      out.push(
        `${f.league} ${f.away} at ${f.home} on ${at.day} ${at.time} (${new Date(f.startsAt).toISOString()})`,
      );
    for (const team of [f.home, f.away]) {
      const key = `${f.league}:${team}`;
      starts.set(key, [...(starts.get(key) ?? []), f.startsAt]);
    }
  }
  for (const [key, list] of starts) {
    const league = key.slice(0, key.indexOf(':')) as LeagueKey;
    list.sort((a, b) => a - b);
    for (let k = 1; k < list.length; k += 1)
      if (list[k]! - list[k - 1]! < REST_HOURS[league] * HOUR_MS)
        out.push(`${key} at ${new Date(list[k - 1]!).toISOString()} and ${new Date(list[k]!).toISOString()}`);
  }
  return out;
}

const fromCalendar = (calendar: FixtureCalendar, from: number, to: number): Listed[] =>
  calendar
    .between(from, to)
    .map((f) => ({ league: f.league, home: f.home[0], away: f.away[0], startsAt: f.startsAt }));

/** Days from 1 Jan 2026 to the end of 2028: every season and daylight saving change of three years. */
const anyDay = fc.integer({ min: 0, max: 3 * 365 }).map((day) => Date.UTC(2026, 0, 1) + day * DAY_MS);
const anySeed = fc.integer({ min: 1, max: 2 ** 31 - 1 });

describe('the fixture calendar (decision 221)', { timeout: 120_000 }, () => {
  it('starts every fixture at one of its league’s local slots, and no team within its rest, over seeds and fortnights', () => {
    fc.assert(
      fc.property(anySeed, anyDay, (seed, from) => {
        const fixtures = fromCalendar(new FixtureCalendar(seed), from, from + 14 * DAY_MS);
        expect(breaches(fixtures)).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it('has NFL teams play once a week: Thursday to Monday, never a Thursday after a Monday night', () => {
    fc.assert(
      fc.property(anySeed, fc.integer({ min: 2026, max: 2028 }), (seed, year) => {
        const from = Date.UTC(year, 8, 1);
        const fixtures = new FixtureCalendar(seed)
          .between(from, Date.UTC(year + 1, 2, 1))
          .filter((f) => f.league === 'nfl');
        const weeks = new Map<string, number>();
        for (const f of fixtures)
          for (const [team] of [f.home, f.away]) {
            // Weeks from Tuesday (the day after Monday night) in Eastern time.
            const week = Math.floor((f.startsAt - 5 * HOUR_MS - Date.UTC(2025, 11, 30)) / (7 * DAY_MS));
            const key = `${team}:${week}`;
            weeks.set(key, (weeks.get(key) ?? 0) + 1);
          }
        expect([...weeks.values()].every((count) => count === 1)).toBe(true);
        // 18 weeks of 17 games per team (a bye each), then 6 + 4 + 2 + 1 playoff games.
        expect(fixtures).toHaveLength(272 + 13);
        const superBowl = fixtures[fixtures.length - 1]!;
        const at = local('America/New_York', superBowl.startsAt);
        expect(at).toMatchObject({ day: 'Sun', month: 2, time: '18:30' });
        // The second Sunday of February.
        expect(new Date(superBowl.startsAt).getUTCDate()).toBeGreaterThanOrEqual(8);
        expect(new Date(superBowl.startsAt).getUTCDate()).toBeLessThanOrEqual(14);
      }),
      { numRuns: 6 },
    );
  });

  it('plays a full NFL Sunday of 13:00, 16:05 / 16:25 and night games, none overnight', () => {
    // Sunday 22 November 2026, week 11.
    const sunday = new FixtureCalendar(7)
      .between(Date.UTC(2026, 10, 22, 5), Date.UTC(2026, 10, 23, 5))
      .filter((f) => f.league === 'nfl')
      .map((f) => local('America/New_York', f.startsAt).time);
    expect(sunday.filter((t) => t === '13:00').length).toBeGreaterThanOrEqual(6);
    expect(sunday.filter((t) => t === '16:05' || t === '16:25').length).toBeGreaterThanOrEqual(3);
    expect(sunday).toContain('20:20');
    expect(sunday.every((t) => t >= '13:00' && t <= '20:20')).toBe(true);
  });

  it('follows daylight saving time: the same local slot is an hour earlier in UTC in summer', () => {
    const calendar = new FixtureCalendar(11);
    const utcHours = (league: LeagueKey, from: number, to: number, time: string) =>
      new Set(
        calendar
          .between(from, to)
          .filter((f) => f.league === league && local(ZONES[league], f.startsAt).time === time)
          .map((f) => new Date(f.startsAt).getUTCHours()),
      );
    // British Summer Time from 28 March 2027: Saturday 15:00 kick-offs at 15:00 UTC, then at 14:00 UTC.
    expect(utcHours('epl', Date.UTC(2027, 1, 27), Date.UTC(2027, 2, 28), '15:00')).toEqual(new Set([15]));
    expect(utcHours('epl', Date.UTC(2027, 2, 28), Date.UTC(2027, 3, 25), '15:00')).toEqual(new Set([14]));
    // US Eastern daylight time from 14 March 2027: 19:00 ET tip-offs at 00:00 UTC, then at 23:00 UTC.
    expect(utcHours('nba', Date.UTC(2027, 1, 1), Date.UTC(2027, 2, 14), '19:00')).toEqual(new Set([0]));
    expect(utcHours('nba', Date.UTC(2027, 2, 15), Date.UTC(2027, 3, 10), '19:00')).toEqual(new Set([23]));
    // The day of the change itself (a slot after 03:00 local has the new offset).
    expect(zonedInstant('America/New_York', Date.UTC(2027, 2, 14) / DAY_MS, 13 * 60)).toBe(
      Date.UTC(2027, 2, 14, 17),
    );
    expect(zonedInstant('Europe/London', Date.UTC(2026, 9, 25) / DAY_MS, 16 * 60 + 30)).toBe(
      Date.UTC(2026, 9, 25, 16, 30),
    );
  });

  it.each([
    ['2026-07-15', ['mlb', 'mls'], ['nba', 'nhl', 'nfl', 'ncaab', 'epl']],
    ['2026-11-20', ['nba', 'nhl', 'nfl', 'ncaab', 'epl'], ['mlb']],
    ['2027-01-20', ['nba', 'nhl', 'ncaab', 'epl'], ['mlb', 'mls']],
  ] as const)('in the week from %s lists %j and nothing of %j', (date, open, closed) => {
    const from = Date.parse(`${date}T12:00:00Z`);
    const leagues = new Set(new FixtureCalendar(3).between(from, from + 7 * DAY_MS).map((f) => f.league));
    for (const league of open) expect(leagues).toContain(league);
    for (const league of closed) expect(leagues).not.toContain(league);
  });

  it('plays soccer in weekly rounds: an MLS or Premier League week (Friday to Thursday) has each team once at most', () => {
    // Issue 56 saw 12 MLS fixtures in one week. A regular-season round is half the teams at most, each playing once;
    // the Premier League's four midweek rounds (weeks of 3 Dec, 14 Jan, 25 Feb, 2 Apr) are left out of its weeks.
    /** Whether the week from `ms` (or a day either side) holds a midweek round's dates. */
    const midweek = (ms: number) =>
      [
        [11, 3],
        [0, 14],
        [1, 25],
        [3, 2],
      ].some(([month, day]) => {
        const at = Date.UTC(new Date(ms).getUTCFullYear(), month!, day!);
        return at >= ms - 3 * DAY_MS && at < ms + 10 * DAY_MS;
      });
    fc.assert(
      fc.property(anySeed, fc.integer({ min: 0, max: 3 * 52 }), (seed, week) => {
        // The week's Friday, 06:00 UTC (a Friday: 2 Jan 2026).
        const from = Date.UTC(2026, 0, 2, 6) + week * 7 * DAY_MS;
        const fixtures = new FixtureCalendar(seed).between(from, from + 7 * DAY_MS);
        for (const league of ['mls', 'epl'] as const) {
          if (league === 'epl' && midweek(from)) continue;
          const games = fixtures.filter((f) => f.league === league);
          const teams = games.flatMap((f) => [f.home[0], f.away[0]]);
          expect(new Set(teams).size, `${league} week of ${new Date(from).toISOString()}`).toBe(teams.length);
          expect(games.length).toBeLessThanOrEqual(TEAMS[league].length / 2);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('thins each postseason to its final: one game on its last day, at most four a day before', () => {
    const calendar = new FixtureCalendar(5);
    const perDay = (league: LeagueKey, from: number, to: number) => {
      const days = new Map<number, number>();
      for (const f of calendar.between(from, to))
        if (f.league === league) {
          const day = Math.floor((f.startsAt - 5 * HOUR_MS) / DAY_MS);
          days.set(day, (days.get(day) ?? 0) + 1);
        }
      return [...days.entries()].sort(([a], [b]) => a - b).map(([, count]) => count);
    };
    for (const [league, from, to] of [
      ['nba', Date.UTC(2027, 3, 20), Date.UTC(2027, 6, 1)],
      ['nhl', Date.UTC(2027, 3, 20), Date.UTC(2027, 6, 1)],
      ['mlb', Date.UTC(2027, 9, 2), Date.UTC(2027, 11, 1)],
      ['mls', Date.UTC(2027, 10, 1), Date.UTC(2028, 0, 1)],
    ] as const) {
      const counts = perDay(league, from, to);
      expect(counts.length, league).toBeGreaterThan(3);
      expect(Math.max(...counts), league).toBeLessThanOrEqual(4);
      expect(counts[counts.length - 1], league).toBe(1);
    }
  });
});

describe('the simulator’s board on the calendar (issue 56)', { timeout: 180_000 }, () => {
  /** Every fixture a week's run lists (opening board, then as games end), hour by hour. */
  function listedInAWeek(seed: number, startMs: number): Listed[] {
    const sim = new MarketSimulator({ seed, startMs, stepMs: HOUR_MS, props: false });
    const seen = new Map<string, Listed>();
    const take = (batch: SourceMessage[]) => {
      for (const m of batch)
        if (m.kind === 'event' && !seen.has(m.sourceEventId))
          seen.set(m.sourceEventId, {
            league: m.league as LeagueKey,
            home: m.home.name,
            away: m.away.name,
            startsAt: m.startsAt as number,
          });
    };
    take(sim.initial());
    for (let hour = 0; hour < 7 * 24; hour += 1) take(sim.step());
    return [...seen.values()];
  }

  it('lists fixtures only at their leagues’ slots, never a team twice within its rest, over seeds and weeks', () => {
    fc.assert(
      fc.property(anySeed, anyDay, (seed, from) => {
        const fixtures = listedInAWeek(seed, from + Math.floor((seed % 24) * HOUR_MS));
        expect(fixtures.length).toBeGreaterThan(110);
        expect(breaches(fixtures)).toEqual([]);
      }),
      // ~16 s of CPU a week listed (every fixture's prices are simulated hour by hour): three weeks a run, the
      // calendar's own rules being checked over many more seeds and fortnights above.
      { numRuns: 3 },
    );
  });

  it('lists the games in play at their real start times: at 10:00 UTC on a Tuesday in January, none', () => {
    const sim = new MarketSimulator({ seed: 7, startMs: Date.UTC(2027, 0, 12, 10), props: false });
    const events = sim.initial().filter((m) => m.kind === 'event');
    expect(events).toHaveLength(110);
    expect(events.filter((m) => m.live)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { LeagueKey, Period } from '#domain/markets.ts';
import type { PriceMessage } from '../../messages.ts';
import { MarketSimulator } from './market-simulator.ts';
import { PERIOD_ENDS, periodEndsAt, plansFor } from './models.ts';

// Sunday 22 November 2026, 08:00 ET: the day's games from the Premier League's 14:00 UK kick-offs to the evening's.
const T0 = Date.UTC(2026, 10, 22, 13, 0, 0);

// The 12 simulated hours below take ~120 s of CPU; on a machine shared with other test files that has been 273 s of wall
// time at a load average of 5 and 366 s at 5–7 (2026-12-07): the timeout is a safety net, not a speed check.
describe('period markets close when their period ends (decision 162)', { timeout: 900_000 }, () => {
  it('the game clock model ends every period a league quotes inside the game, in order', () => {
    for (const [league, ends] of Object.entries(PERIOD_ENDS) as [
      LeagueKey,
      Partial<Record<Period, number>>,
    ][]) {
      for (const plan of plansFor(league))
        if (plan.period !== 'full') expect(ends[plan.period], `${league} ${plan.period}`).toBeDefined();
      for (const fraction of Object.values(ends)) {
        expect(fraction).toBeGreaterThan(0);
        expect(fraction).toBeLessThan(1);
      }
      if (ends.q1 !== undefined && ends.h1 !== undefined) expect(ends.q1).toBeLessThan(ends.h1);
    }
    // An NBA game listed 19:00 to 21:30: its first half is over at 20:10, an NHL first period at 19:39.
    const nba = { league: 'nba' as const, startsAt: T0, endsAt: T0 + 150 * 60_000 };
    expect(periodEndsAt(nba, 'h1') - T0).toBe(70.5 * 60_000);
    expect(periodEndsAt(nba, 'full')).toBe(nba.endsAt);
    expect(periodEndsAt({ ...nba, league: 'nhl' }, 'p1') - T0).toBe(39 * 60_000);
  });

  it('quotes no period market (game line or prop) after its period, and nothing after the game', () => {
    // Steps of 15 s: 12 hours are 2,880 steps (at 5 s, 5,760 steps took 108 s on a loaded CI machine). 30 fixtures of
    // a Sunday on the calendar (decision 221); seed 30's has NBA afternoon games, so every league's periods end in
    // those hours.
    const STEP_MS = 15_000;
    const sim = new MarketSimulator({ seed: 30, startMs: T0, events: 30, stepMs: STEP_MS });
    const fixtures = new Map<string, { league: LeagueKey; startsAt: number; endedAt?: number }>();
    /** Per fixture: its period prices (time, period, book, market key, suspended). */
    const periodPrices = new Map<string, { at: number; period: Period; key: string; suspended: boolean }[]>();
    const afterEnd: PriceMessage[] = [];
    const take = (batch: ReturnType<MarketSimulator['step']>) => {
      for (const m of batch) {
        const fixture = fixtures.get(m.sourceEventId);
        if (m.kind === 'event') {
          if (!fixture)
            fixtures.set(m.sourceEventId, { league: m.league as LeagueKey, startsAt: m.startsAt as number });
          continue;
        }
        if (m.kind === 'end') {
          fixture!.endedAt = sim.now;
          continue;
        }
        if (m.kind !== 'price') continue;
        if (fixture?.endedAt !== undefined) afterEnd.push(m);
        const period = (m.period ?? 'full') as Period;
        if (period === 'full') continue;
        const key = `${m.book}|${m.market}|${m.stat ?? ''}|${m.player?.id ?? m.player?.name ?? ''}|${m.point}`;
        const list = periodPrices.get(m.sourceEventId) ?? [];
        list.push({ at: sim.now, period, key, suspended: m.suspended === true });
        periodPrices.set(m.sourceEventId, list);
      }
    };
    take(sim.initial());
    for (let step = 0; step < (12 * 3_600_000) / STEP_MS; step += 1) take(sim.step());

    expect(afterEnd).toEqual([]);
    let checked = 0;
    let quotedInPlay = 0;
    const periods = new Set<string>();
    for (const [id, fixture] of fixtures) {
      if (fixture.endedAt === undefined) continue;
      const window = { league: fixture.league, startsAt: fixture.startsAt, endsAt: fixture.endedAt };
      const last = new Map<string, { at: number; suspended: boolean }>();
      for (const price of periodPrices.get(id) ?? []) {
        const end = periodEndsAt(window, price.period);
        // Within one step of the end (the simulator's clock moves in steps), every quote after it is a suspension.
        if (price.at >= end + STEP_MS)
          expect(price.suspended, `${id} ${price.period} ${price.key}`).toBe(true);
        if (!price.suspended && price.at >= fixture.startsAt && price.at < end) {
          quotedInPlay += 1;
          periods.add(`${fixture.league}:${price.period}`);
        }
        last.set(price.key, price);
      }
      // Each book's last word on each period market is a suspension.
      for (const [key, price] of last) expect(price.suspended, `${id} ${key}`).toBe(true);
      checked += last.size;
    }
    expect(checked).toBeGreaterThan(500);
    // The markets were there while their period was played: closing them is what changed.
    expect(quotedInPlay).toBeGreaterThan(500);
    for (const period of ['nba:h1', 'nba:q1', 'ncaab:h1', 'nfl:h1', 'nhl:p1', 'epl:h1'])
      expect(periods).toContain(period);
  });
});

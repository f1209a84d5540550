import { describe, expect, it } from 'vitest';
import type { LeagueKey } from '#domain/markets.ts';
import type { SourceMessage } from '../../messages.ts';
import { MarketSimulator } from './market-simulator.ts';
import { inSeason, leaguesInSeason } from './seasons.ts';

const at = (iso: string) => Date.parse(iso);

/** The leagues of the fixtures a run lists (its opening board, then each new fixture with the time it was listed). */
function listed(startMs: number, hours: number): { league: LeagueKey; at: number }[] {
  // The default board: on the fixture calendar (decision 221) it holds the next days' fixtures, MLS's Saturday among
  // them on a Wednesday in July.
  const sim = new MarketSimulator({ seed: 7, startMs, stepMs: 300_000, props: false });
  const seen = new Set<string>();
  const out: { league: LeagueKey; at: number }[] = [];
  const take = (batch: SourceMessage[]) => {
    for (const m of batch)
      if (m.kind === 'event' && !seen.has(m.sourceEventId)) {
        seen.add(m.sourceEventId);
        out.push({ league: m.league as LeagueKey, at: sim.now });
      }
  };
  take(sim.initial());
  for (let step = 0; step < hours * 12; step += 1) take(sim.step());
  return out;
}

describe('league seasons (decision 162)', { timeout: 180_000 }, () => {
  it.each([
    ['2026-11-22', ['nba', 'ncaab', 'nfl', 'nhl', 'epl', 'mls'], ['mlb']],
    ['2026-07-15', ['mlb', 'mls'], ['nba', 'ncaab', 'nfl', 'nhl', 'epl']],
    ['2027-01-15', ['nba', 'ncaab', 'nfl', 'nhl', 'epl'], ['mlb', 'mls']],
    ['2027-02-14', ['nba', 'ncaab', 'nfl', 'nhl', 'epl'], ['mlb', 'mls']],
    ['2027-02-20', ['nba', 'ncaab', 'nhl', 'epl'], ['nfl', 'mlb']],
    ['2027-04-20', ['nba', 'nhl', 'mlb', 'epl', 'mls'], ['nfl', 'ncaab']],
    ['2027-06-10', ['nba', 'nhl', 'mlb', 'mls'], ['nfl', 'ncaab', 'epl']],
    ['2026-12-26', ['nba', 'ncaab', 'nfl', 'nhl', 'epl'], ['mlb', 'mls']],
    ['2026-09-10', ['nfl', 'mlb', 'epl', 'mls'], ['nba', 'nhl', 'ncaab']],
  ] as const)('on %s: in season %j, out %j', (date, open, closed) => {
    const noon = at(`${date}T12:00:00Z`);
    for (const league of open) expect(inSeason(league, noon), league).toBe(true);
    for (const league of closed) expect(inSeason(league, noon), league).toBe(false);
    expect(leaguesInSeason(noon).sort()).toEqual([...open].sort());
  });

  it('keeps at least two leagues in season on every day of the year (the demo is never empty)', () => {
    const start = at('2027-01-01T12:00:00Z');
    for (let day = 0; day < 366; day += 1)
      expect(leaguesInSeason(start + day * 86_400_000).length, `day ${day}`).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['2026-11-22T00:00:00Z', ['mlb']],
    ['2026-07-15T18:00:00Z', ['nba', 'ncaab', 'nfl', 'nhl', 'epl']],
    ['2027-01-10T18:00:00Z', ['mlb', 'mls']],
  ] as const)('a run from %s lists no fixture of a league out of season (%j)', (iso, closed) => {
    const fixtures = listed(at(iso), 8);
    expect(fixtures.length).toBeGreaterThan(50);
    const leagues = new Set(fixtures.map((f) => f.league));
    for (const league of closed) expect(leagues).not.toContain(league);
    for (const league of leaguesInSeason(at(iso))) expect(leagues).toContain(league);
  });

  it("follows the simulator's own clock across a season's end: no MLB fixture is listed after the World Series", () => {
    const fixtures = listed(at('2026-11-01T14:00:00Z'), 16);
    const midnight = at('2026-11-02T00:00:00Z');
    expect(fixtures.some((f) => f.league === 'mlb' && f.at < midnight)).toBe(true);
    expect(fixtures.filter((f) => f.at >= midnight).length).toBeGreaterThan(10);
    expect(fixtures.filter((f) => f.league === 'mlb' && f.at >= midnight)).toEqual([]);
  });
});

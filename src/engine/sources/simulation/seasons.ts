import { LEAGUES, type LeagueKey } from '#domain/markets.ts';

// The leagues' seasons (issue 34, decision 162): the simulator lists a fixture of a league only on a date inside its
// season, preseason excluded and postseason included, as the books' boards have them. Dates are month and day (UTC),
// the same every year: the real calendars move by a few days a year, which a demo need not follow. A season that
// crosses the new year (NFL, NBA, NHL, NCAAB, Premier League) runs from its start to its end of the next year.
// Every date of the year has at least two leagues in season (MLB and MLS in the summer, when the others rest), so
// the demo board is never empty.

export type MonthDay = readonly [month: number, day: number];

export interface Season {
  /** First day with games (regular season). */
  from: MonthDay;
  /** Last day with games (the final, the Super Bowl, the World Series…). */
  to: MonthDay;
  /** First day of the postseason, whose slate thins to the final (calendar.ts); none for the Premier League. */
  postseason?: MonthDay;
  /** Breaks inside the season with no games (from and to inclusive). */
  breaks?: readonly (readonly [MonthDay, MonthDay])[];
}

export const SEASONS: Readonly<Record<LeagueKey, Season>> = {
  // Week 1 on the Thursday after Labor Day; the Super Bowl on the second Sunday of February (calendar.ts counts the
  // NFL's weeks from Labor Day, its Wild Card weekend after week 18).
  nfl: { from: [9, 3], to: [2, 14] },
  // Opening night in the third week of October; the Finals end in mid to late June.
  nba: { from: [10, 20], to: [6, 20], postseason: [4, 14] },
  // Opening night in early October; the Stanley Cup Final ends in mid to late June.
  nhl: { from: [10, 7], to: [6, 20], postseason: [4, 18] },
  // Opening Day in the last week of March; the World Series can reach the first days of November.
  mlb: { from: [3, 26], to: [11, 1], postseason: [9, 30] },
  // Men's college basketball: tip-off in the first week of November; the national final in early April.
  ncaab: { from: [11, 3], to: [4, 6], postseason: [3, 17] },
  // The Premier League plays mid-August to late May, through the holidays: it has no winter break.
  epl: { from: [8, 15], to: [5, 24] },
  // MLS: late February to MLS Cup in early December.
  mls: { from: [2, 21], to: [12, 6], postseason: [10, 22] },
};

const dayOfYear = ([month, day]: MonthDay) => month * 100 + day;

function within(at: number, from: MonthDay, to: MonthDay): boolean {
  const start = dayOfYear(from);
  const end = dayOfYear(to);
  return start <= end ? at >= start && at <= end : at >= start || at <= end;
}

/** Whether the league has games on the (UTC) date of `ms`. */
export function inSeason(league: LeagueKey, ms: number): boolean {
  const date = new Date(ms);
  const at = dayOfYear([date.getUTCMonth() + 1, date.getUTCDate()]);
  const season = SEASONS[league];
  if (!within(at, season.from, season.to)) return false;
  return !(season.breaks ?? []).some(([from, to]) => within(at, from, to));
}

/** The leagues with games on the (UTC) date of `ms`, in the catalogue's order. */
export function leaguesInSeason(ms: number): LeagueKey[] {
  return (Object.keys(LEAGUES) as LeagueKey[]).filter((league) => inSeason(league, ms));
}

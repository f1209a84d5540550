import { LEAGUES, type LeagueKey } from '#domain/markets.ts';
import { seededRandom } from '#domain/random.ts';
import { TEAMS } from '../teams.ts';
import { SEASONS, type MonthDay } from './seasons.ts';

// The simulator's fixture calendar (issue 56, decision 221): each league's games at its real local slots and days, in
// one IANA zone per league (daylight saving time from Intl, never a hand-written offset), inside its season
// (seasons.ts), with a thinner postseason, and no team twice within its rest (a day; a week for the NFL). A season's
// schedule is drawn once, date by date, from a generator seeded by the seed, the league and the season's year, so the
// calendar is the same for a SIM_SEED whatever the clock or the board size.

export type TeamRow = readonly [name: string, abbreviation: string];

export interface CalendarFixture {
  league: LeagueKey;
  home: TeamRow;
  away: TeamRow;
  /** Kick-off, unix ms. */
  startsAt: number;
}

/** A slot: local time "HH:MM" (from 04:00: daylight saving changes happen before) and its weight among the day's. */
type Slot = readonly [time: string, weight: number];

/** A weekday of a league that plays every day: how many games (inclusive range) and at which local times. */
interface DayPlan {
  games: readonly [number, number];
  slots: readonly Slot[];
}

/** Weekdays from Sunday (0) to Saturday (6), as `Date.getUTCDay`. */
type Week<T> = readonly [T, T, T, T, T, T, T];

interface DailyLeague {
  kind: 'daily';
  zone: string;
  /** Least time between two starts of one team. */
  restHours: number;
  days: Week<DayPlan>;
  /** Games a day in the postseason (capped by half the teams still playing). */
  postseasonGames: readonly [number, number];
}

/** A weekly round's games: weekday (0 Sunday … 6 Saturday), local time, count. */
type RoundSlots = readonly (readonly [weekday: number, time: string, count: number])[];

interface WeeklyLeague {
  kind: 'weekly';
  zone: string;
  restHours: number;
  /** The weekday a round starts (its slots' weekdays count from it, wrapping). */
  roundStarts: number;
  /** A round's possible layouts (one drawn per round); each places half the teams. */
  rounds: readonly RoundSlots[];
  /** A midweek round's layout, played in the weeks holding MIDWEEK dates. */
  midweek?: RoundSlots;
  midweekDates?: readonly MonthDay[];
  /** Games in a postseason round (capped by half the teams still playing). */
  postseasonRound?: RoundSlots;
}

const weekday = (games: readonly [number, number], slots: readonly Slot[]): DayPlan => ({ games, slots });

// NBA: evenings Eastern time, 19:00–22:30 (a West Coast home game at 19:00 or 19:30 Pacific is 22:00 or 22:30 ET);
// weekend afternoons now and then. About 1,230 games from late October to mid-April, 7 a night.
const NBA_EVENING: readonly Slot[] = [
  ['19:00', 4],
  ['19:30', 4],
  ['20:00', 3],
  ['20:30', 1],
  ['21:00', 1],
  ['22:00', 3],
  ['22:30', 1],
];
// NHL: evenings Eastern time, mostly 19:00; Saturday and Sunday matinees.
const NHL_EVENING: readonly Slot[] = [
  ['19:00', 6],
  ['19:30', 3],
  ['20:00', 2],
  ['21:00', 1],
  ['22:00', 2],
  ['22:30', 1],
];
// NCAAB: weeknights from 18:30 ET, Saturdays from noon, Sunday afternoons.
const NCAAB_EVENING: readonly Slot[] = [
  ['18:30', 2],
  ['19:00', 3],
  ['20:00', 2],
  ['21:00', 2],
  ['21:30', 1],
];
// MLB: night games 18:40–22:10 ET (West Coast night games are 21:40–22:10 ET), day games 12:35–16:10 ET.
const MLB_NIGHT: readonly Slot[] = [
  ['18:40', 3],
  ['19:05', 3],
  ['19:10', 3],
  ['19:40', 2],
  ['20:10', 2],
  ['21:40', 2],
  ['22:10', 2],
];
const MLB_GETAWAY: readonly Slot[] = [['12:35', 1], ['13:05', 1], ['13:10', 2], ['16:10', 1], ...MLB_NIGHT];

export const CALENDARS: Readonly<Record<LeagueKey, DailyLeague | WeeklyLeague>> = {
  nba: {
    kind: 'daily',
    zone: 'America/New_York',
    restHours: 20,
    days: [
      weekday(
        [4, 8],
        [
          ['13:00', 1],
          ['15:30', 2],
          ['18:00', 2],
          ['19:00', 2],
          ['21:00', 1],
          ['21:30', 1],
        ],
      ),
      weekday([5, 9], NBA_EVENING),
      weekday([3, 7], NBA_EVENING),
      weekday([7, 11], NBA_EVENING),
      weekday([2, 5], NBA_EVENING),
      weekday([6, 10], NBA_EVENING),
      weekday([4, 8], [['15:00', 1], ['17:00', 1], ...NBA_EVENING]),
    ],
    postseasonGames: [1, 4],
  },
  nhl: {
    kind: 'daily',
    zone: 'America/New_York',
    restHours: 20,
    days: [
      weekday(
        [3, 7],
        [
          ['12:30', 1],
          ['15:00', 2],
          ['17:00', 2],
          ['19:00', 2],
          ['20:00', 1],
        ],
      ),
      weekday([3, 6], NHL_EVENING),
      weekday([7, 11], NHL_EVENING),
      weekday([2, 5], NHL_EVENING),
      weekday([8, 12], NHL_EVENING),
      weekday([3, 7], NHL_EVENING),
      weekday([9, 13], [['13:00', 1], ['16:00', 1], ...NHL_EVENING]),
    ],
    postseasonGames: [1, 4],
  },
  ncaab: {
    kind: 'daily',
    zone: 'America/New_York',
    restHours: 20,
    days: [
      weekday(
        [1, 3],
        [
          ['12:00', 2],
          ['14:00', 2],
          ['16:00', 1],
          ['18:00', 1],
        ],
      ),
      weekday([1, 3], NCAAB_EVENING),
      weekday([2, 4], NCAAB_EVENING),
      weekday([2, 4], NCAAB_EVENING),
      weekday([1, 3], NCAAB_EVENING),
      weekday([1, 2], NCAAB_EVENING),
      weekday(
        [5, 8],
        [
          ['12:00', 2],
          ['14:00', 2],
          ['16:00', 2],
          ['18:00', 2],
          ['20:00', 2],
        ],
      ),
    ],
    postseasonGames: [1, 4],
  },
  mlb: {
    kind: 'daily',
    zone: 'America/New_York',
    // A day game after a night game, as on a real getaway day: 16 hours, not 20.
    restHours: 16,
    days: [
      weekday(
        [15, 15],
        [
          ['13:35', 4],
          ['13:40', 3],
          ['14:10', 2],
          ['16:10', 2],
          ['19:10', 1],
        ],
      ),
      weekday([6, 11], MLB_NIGHT),
      weekday([14, 15], MLB_NIGHT),
      weekday([13, 15], MLB_GETAWAY),
      weekday([6, 11], MLB_GETAWAY),
      weekday([14, 15], MLB_NIGHT),
      weekday(
        [15, 15],
        [
          ['13:05', 1],
          ['16:05', 3],
          ['16:10', 3],
          ['18:15', 1],
          ['19:10', 3],
          ['19:15', 2],
          ['22:05', 1],
        ],
      ),
    ],
    postseasonGames: [1, 4],
  },
  // NFL: weeks from Thursday. Thursday night, Sunday 13:00 / 16:05 / 16:25 / Sunday night, Monday night (ET); the
  // season's dates follow Labor Day (nflRounds).
  nfl: {
    kind: 'weekly',
    zone: 'America/New_York',
    // Thursday night follows the Sunday before (4 days), never a Monday night.
    restHours: 84,
    roundStarts: 4,
    rounds: [],
  },
  // Premier League: matchweeks of ten games, Saturday 12:30 / 15:00 / 17:30 and Sunday 14:00 / 16:30 UK time, now
  // and then Friday or Monday 20:00; a few midweek rounds (Tuesday and Wednesday 19:30 / 20:00).
  epl: {
    kind: 'weekly',
    zone: 'Europe/London',
    restHours: 44,
    roundStarts: 5,
    rounds: [
      [
        [6, '12:30', 1],
        [6, '15:00', 4],
        [6, '17:30', 1],
        [0, '14:00', 2],
        [0, '16:30', 1],
        [1, '20:00', 1],
      ],
      [
        [5, '20:00', 1],
        [6, '12:30', 1],
        [6, '15:00', 4],
        [6, '17:30', 1],
        [0, '14:00', 2],
        [0, '16:30', 1],
      ],
      [
        [6, '12:30', 1],
        [6, '15:00', 5],
        [6, '17:30', 1],
        [0, '14:00', 2],
        [0, '16:30', 1],
      ],
    ],
    midweek: [
      [2, '19:30', 3],
      [2, '20:00', 2],
      [3, '19:30', 3],
      [3, '20:00', 2],
    ],
    midweekDates: [
      [12, 3],
      [1, 14],
      [2, 25],
      [4, 2],
    ],
  },
  // MLS: Saturday evenings Eastern time (19:30, and 22:30 for a West Coast home game), one or two on Sunday.
  mls: {
    kind: 'weekly',
    zone: 'America/New_York',
    restHours: 44,
    roundStarts: 5,
    rounds: [
      [
        [6, '19:30', 5],
        [6, '20:30', 1],
        [6, '22:30', 2],
        [0, '19:00', 1],
      ],
      [
        [6, '19:30', 4],
        [6, '21:30', 1],
        [6, '22:30', 2],
        [0, '18:00', 1],
        [0, '21:00', 1],
      ],
    ],
    postseasonRound: [
      [6, '19:30', 1],
      [6, '21:30', 1],
      [0, '15:00', 1],
      [0, '19:00', 1],
    ],
  },
};

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The civil day number (days since 1970-01-01) of a year, month and day. */
const civilDay = (year: number, month: number, day: number) => Date.UTC(year, month - 1, day) / DAY_MS;
const weekdayOf = (day: number) => (((day + 4) % 7) + 7) % 7;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `ms` (ms; positive east of Greenwich), read from Intl. */
function offsetAt(zone: string, ms: number): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(ms)) part[type] = Number(value);
  const local = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return local - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant of a local time on a civil day in `zone` (from 04:00: every daylight saving change of the leagues'
 * zones happens between 01:00 and 03:00, so the offset at the day's noon holds for the whole afternoon and evening).
 */
export function zonedInstant(zone: string, day: number, minutes: number): number {
  const key = `${zone} ${day}`;
  let offset = noonOffsets.get(key);
  if (offset === undefined) {
    const noon = day * DAY_MS + 12 * HOUR_MS;
    offset = offsetAt(zone, noon - offsetAt(zone, noon));
    if (noonOffsets.size >= 100_000) noonOffsets.clear();
    noonOffsets.set(key, offset);
  }
  return day * DAY_MS + minutes * 60_000 - offset;
}

/** Each zone's offset at a civil day's local noon, as Intl gave it (Intl is slow; a season asks for a day many times). */
const noonOffsets = new Map<string, number>();

/** 32-bit mix of the seed, the league and the season's year: one generator per season. */
function seasonSeed(seed: number, league: LeagueKey, year: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ ((Object.keys(LEAGUES).indexOf(league) + 1) * 0x27d4eb2f), 0xc2b2ae35);
  h = Math.imul(h ^ year, 0x165667b1);
  return (h ^ (h >>> 15)) >>> 0;
}

/** The day number of a month and day in the season that starts in `year` (a date before its start is next year's). */
function seasonDay(year: number, from: MonthDay, date: MonthDay): number {
  const crosses = date[0] * 100 + date[1] < from[0] * 100 + from[1];
  return civilDay(crosses ? year + 1 : year, date[0], date[1]);
}

interface Scheduler {
  random: () => number;
  /** Each team's last start (ms) and games played. */
  last: Map<string, number>;
  played: Map<string, number>;
  restMs: number;
  out: CalendarFixture[];
  league: LeagueKey;
}

/** Shuffles in place (Fisher–Yates) with the season's generator. */
function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * Puts two teams in each slot (instants, in order): the first two of `pool` (in its order) that are free in this round
 * and rested; a slot with no two such teams is left out.
 */
function fill(s: Scheduler, slots: readonly number[], pool: readonly TeamRow[], taken: Set<string>): void {
  for (const startsAt of slots) {
    const pair: TeamRow[] = [];
    for (const team of pool) {
      if (taken.has(team[0])) continue;
      if (startsAt - (s.last.get(team[0]) ?? -Infinity) < s.restMs) continue;
      pair.push(team);
      if (pair.length === 2) break;
    }
    if (pair.length < 2) continue;
    const [a, b] = s.random() < 0.5 ? [pair[0]!, pair[1]!] : [pair[1]!, pair[0]!];
    for (const team of pair) {
      taken.add(team[0]);
      s.last.set(team[0], startsAt);
      s.played.set(team[0], (s.played.get(team[0]) ?? 0) + 1);
    }
    s.out.push({ league: s.league, home: a, away: b, startsAt });
  }
}

/** A draw from an inclusive integer range. */
const between = (random: () => number, [least, most]: readonly [number, number]) =>
  least + Math.floor(random() * (most - least + 1));

/** The teams still playing `fraction` into the postseason: the season's seeded order, from `first` down to two. */
function playoffPool(order: readonly TeamRow[], first: number, fraction: number): TeamRow[] {
  const count = Math.max(2, Math.round(first - (first - 2) * fraction));
  return order.slice(0, count);
}

/** How many teams reach the postseason (the Premier League has none). */
const PLAYOFF_TEAMS: Readonly<Record<LeagueKey, number>> = {
  nba: 16,
  nhl: 16,
  mlb: 12,
  ncaab: 16,
  nfl: 14,
  epl: 0,
  mls: 14,
};

function dailySeason(s: Scheduler, plan: DailyLeague, first: number, last: number, post: number): void {
  const order = shuffle([...TEAMS[s.league]], s.random);
  for (let day = first; day <= last; day += 1) {
    const postseason = day >= post;
    const pool = postseason
      ? playoffPool(order, PLAYOFF_TEAMS[s.league], (day - post) / Math.max(1, last - post))
      : [...TEAMS[s.league]];
    const today = plan.days[weekdayOf(day)]!;
    const games = Math.min(
      between(s.random, postseason ? plan.postseasonGames : today.games),
      Math.floor(pool.length / 2),
    );
    // The day's slots, drawn by weight; teams with the fewest games first (ties in a fresh order).
    const total = today.slots.reduce((sum, [, weight]) => sum + weight, 0);
    const slots: number[] = [];
    for (let k = 0; k < games; k += 1) {
      let roll = s.random() * total;
      const slot = today.slots.find(([, weight]) => (roll -= weight) < 0) ?? today.slots[0]!;
      slots.push(zonedInstant(plan.zone, day, minutesOf(slot[0])));
    }
    slots.sort((a, b) => a - b);
    const tiebreak = new Map(pool.map((team) => [team[0], s.random()] as const));
    const ranked = [...pool].sort(
      (a, b) =>
        (s.played.get(a[0]) ?? 0) - (s.played.get(b[0]) ?? 0) || tiebreak.get(a[0])! - tiebreak.get(b[0])!,
    );
    fill(s, slots, ranked, new Set());
  }
}

/** A round's slot instants from the day its round starts. */
function roundInstants(zone: string, start: number, roundStarts: number, layout: RoundSlots): number[] {
  const out: number[] = [];
  for (const [day, time, count] of layout) {
    const offset = (((day - roundStarts) % 7) + 7) % 7;
    for (let k = 0; k < count; k += 1) out.push(zonedInstant(zone, start + offset, minutesOf(time)));
  }
  return out.sort((a, b) => a - b);
}

function weeklySeason(s: Scheduler, plan: WeeklyLeague, first: number, last: number, post: number): void {
  const order = shuffle([...TEAMS[s.league]], s.random);
  const midweek = new Set(
    (plan.midweekDates ?? []).map((date) => {
      const day = seasonDay(new Date(first * DAY_MS).getUTCFullYear(), SEASONS[s.league].from, date);
      return day - ((weekdayOf(day) - plan.roundStarts + 7) % 7);
    }),
  );
  // The first round starts on the season's first round day.
  let start = first + ((plan.roundStarts - weekdayOf(first) + 7) % 7);
  for (; start <= last; start += 7) {
    const postseason = start >= post;
    const pool = postseason
      ? playoffPool(order, PLAYOFF_TEAMS[s.league], (start - post) / Math.max(1, last - post))
      : shuffle([...TEAMS[s.league]], s.random);
    const layout = postseason
      ? (plan.postseasonRound ?? plan.rounds[0]!).slice(0, Math.max(1, Math.floor(pool.length / 2) - 1))
      : plan.rounds[Math.floor(s.random() * plan.rounds.length)]!;
    const end = zonedInstant(plan.zone, last + 1, 0);
    const instants = roundInstants(plan.zone, start, plan.roundStarts, layout).filter((at) => at < end);
    fill(s, instants.slice(0, Math.floor(pool.length / 2)), pool, new Set());
    // A midweek round in the week after this one's weekend (its own teams may rest 44 hours).
    if (plan.midweek && midweek.has(start) && !postseason)
      fill(
        s,
        roundInstants(plan.zone, start, plan.roundStarts, plan.midweek),
        shuffle([...pool], s.random),
        new Set(),
      );
  }
}

/** The first Monday of September: Labor Day. */
function laborDay(year: number): number {
  const first = civilDay(year, 9, 1);
  return first + ((1 - weekdayOf(first) + 7) % 7);
}

/**
 * The NFL season that starts in `year`: 18 weeks from the Thursday after Labor Day (Thanksgiving's three Thursday
 * games; Saturday games in weeks 15–18; byes in weeks 5–14), then Wild Card weekend (Saturday to Monday), the
 * divisional round, the conference championships and, two weeks later, the Super Bowl (the second Sunday of
 * February). Playoff teams go on as one of each game's two teams, drawn.
 */
function nflSeason(s: Scheduler, year: number): void {
  const zone = CALENDARS.nfl.zone;
  const kickoff = laborDay(year) + 3;
  const thanksgiving = (() => {
    const first = civilDay(year, 11, 1);
    return first + ((4 - weekdayOf(first) + 7) % 7) + 21;
  })();
  // Every team has one bye, in weeks 5–14: four teams off in six of them, two in the other four.
  const byes = new Set<string>();
  const byeCounts = shuffle([4, 4, 4, 4, 4, 4, 2, 2, 2, 2], s.random);
  for (let week = 1; week <= 18; week += 1) {
    const thursday = kickoff + (week - 1) * 7;
    const at = (offset: number, time: string) => zonedInstant(zone, thursday + offset, minutesOf(time));
    const teams = shuffle([...TEAMS.nfl], s.random);
    let pool = teams;
    if (week >= 5 && week <= 14) {
      const resting = teams.filter(([name]) => !byes.has(name)).slice(0, byeCounts[week - 5]);
      for (const [name] of resting) byes.add(name);
      pool = teams.filter((team) => !resting.includes(team));
    }
    const slots: number[] = [];
    if (week === 18) slots.push(at(2, '16:30'), at(2, '20:00'));
    else if (thursday === thanksgiving) slots.push(at(0, '12:30'), at(0, '16:30'), at(0, '20:20'));
    else slots.push(at(0, '20:15'));
    if (week >= 15 && week < 18) slots.push(at(2, '16:30'), at(2, '20:00'));
    const late = week === 18 ? [at(3, '16:25'), at(3, '16:25'), at(3, '16:25'), at(3, '16:25')] : [];
    const evening = week === 18 ? [at(3, '20:20')] : [at(3, '20:20'), at(4, '20:15')];
    const afternoon = week === 18 ? [] : [at(3, '16:05'), at(3, '16:05'), at(3, '16:25'), at(3, '16:25')];
    const games = pool.length / 2;
    const early = games - slots.length - late.length - evening.length - afternoon.length;
    for (let k = 0; k < early; k += 1) slots.push(at(3, '13:00'));
    slots.push(...late, ...afternoon, ...evening);
    fill(
      s,
      slots.sort((a, b) => a - b),
      pool,
      new Set(),
    );
  }
  // The postseason: 14 teams, the two top seeds resting on Wild Card weekend.
  const saturday = kickoff + 17 * 7 + 2 + 7;
  const at = (day: number, time: string) => zonedInstant(zone, day, minutesOf(time));
  let alive = shuffle([...TEAMS.nfl], s.random).slice(0, PLAYOFF_TEAMS.nfl);
  const round = (slots: number[], playing: TeamRow[], resting: TeamRow[]) => {
    const before = s.out.length;
    fill(s, slots, playing, new Set());
    const winners = s.out.slice(before).map((game) => (s.random() < 0.5 ? game.home : game.away));
    alive = [...resting, ...winners];
  };
  round(
    [
      at(saturday, '16:30'),
      at(saturday, '20:15'),
      at(saturday + 1, '13:00'),
      at(saturday + 1, '16:30'),
      at(saturday + 1, '20:15'),
      at(saturday + 2, '20:15'),
    ],
    alive.slice(2),
    alive.slice(0, 2),
  );
  round(
    [
      at(saturday + 7, '16:30'),
      at(saturday + 7, '20:15'),
      at(saturday + 8, '15:00'),
      at(saturday + 8, '18:30'),
    ],
    shuffle(alive, s.random),
    [],
  );
  round([at(saturday + 15, '15:00'), at(saturday + 15, '18:30')], shuffle(alive, s.random), []);
  round([at(saturday + 29, '18:30')], alive, []);
}

/** The league's season starting in `year`, in start order. */
function season(seed: number, league: LeagueKey, year: number): CalendarFixture[] {
  const plan = CALENDARS[league];
  const s: Scheduler = {
    random: seededRandom(seasonSeed(seed, league, year)),
    last: new Map(),
    played: new Map(),
    restMs: plan.restHours * HOUR_MS,
    out: [],
    league,
  };
  const { from, to, postseason } = SEASONS[league];
  const first = civilDay(year, from[0], from[1]);
  const last = seasonDay(year, from, to);
  const post = postseason ? seasonDay(year, from, postseason) : last + 1;
  if (league === 'nfl') nflSeason(s, year);
  else if (plan.kind === 'daily') dailySeason(s, plan, first, last, post);
  else weeklySeason(s, plan, first, last, post);
  return s.out.sort((a, b) => a.startsAt - b.startsAt);
}

/** The fixtures of every league for one seed, by season, drawn when first asked for. */
export class FixtureCalendar {
  private readonly seasons = new Map<string, CalendarFixture[]>();

  constructor(private readonly seed: number) {}

  private season(league: LeagueKey, year: number): CalendarFixture[] {
    const key = `${league}:${year}`;
    let fixtures = this.seasons.get(key);
    if (!fixtures) {
      fixtures = season(this.seed, league, year);
      this.seasons.set(key, fixtures);
    }
    return fixtures;
  }

  /** Every league's fixtures starting in [fromMs, toMs), by start (then league, then home team). */
  between(fromMs: number, toMs: number): CalendarFixture[] {
    const out: CalendarFixture[] = [];
    const firstYear = new Date(fromMs).getUTCFullYear() - 1;
    const lastYear = new Date(toMs).getUTCFullYear();
    for (const league of Object.keys(LEAGUES) as LeagueKey[])
      for (let year = firstYear; year <= lastYear; year += 1)
        for (const fixture of this.season(league, year))
          if (fixture.startsAt >= fromMs && fixture.startsAt < toMs) out.push(fixture);
    const order = Object.keys(LEAGUES);
    return out.sort(
      (a, b) =>
        a.startsAt - b.startsAt ||
        order.indexOf(a.league) - order.indexOf(b.league) ||
        a.home[0].localeCompare(b.home[0]),
    );
  }
}

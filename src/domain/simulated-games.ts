import type { LeagueKey } from './markets.ts';

// How long the demo simulator's games last, kick-off to final score, stoppages and breaks included: the simulator's
// models read them (src/engine/sources/simulation/models.ts, `durationMinutes`), and the calibration page says from
// them when the demo's first results come (decision 306), so the page stays true when a length changes.

export const SIMULATED_GAME_MINUTES: Readonly<Record<LeagueKey, number>> = {
  nba: 150,
  ncaab: 125,
  nfl: 195,
  mlb: 170,
  nhl: 150,
  epl: 115,
  mls: 115,
};

/** The shortest and the longest simulated game, in minutes. */
export function simulatedGameSpan(): { shortest: number; longest: number } {
  const minutes = Object.values(SIMULATED_GAME_MINUTES);
  return { shortest: Math.min(...minutes), longest: Math.max(...minutes) };
}

/** Minutes as a reader says them: "1 h 55 min", "2 h", "45 min". */
export function hoursAndMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

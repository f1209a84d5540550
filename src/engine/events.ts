import type { LeagueKey } from '#domain/markets.ts';

// Event matching: one fixture may arrive under several source ids (different sources, or books with their own ids).
// Two ids are the same fixture when league, home team and away team match (names normalised) and the start times are
// within a tolerance; the nearest start wins, so the two games of a doubleheader (hours apart) stay two events.

export const DEFAULT_MERGE_TOLERANCE_MS = 45 * 60_000;

export function normaliseTeamName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

export function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'x'
  );
}

interface Fixture {
  id: string;
  startsAt: number;
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace(/[-:T]/g, '');
}

export class EventRegistry {
  private readonly bySourceId = new Map<string, string>();
  private readonly byTeams = new Map<string, Fixture[]>();
  private readonly ids = new Set<string>();

  constructor(private readonly toleranceMs = DEFAULT_MERGE_TOLERANCE_MS) {}

  lookup(sourceEventId: string): string | undefined {
    return this.bySourceId.get(sourceEventId);
  }

  /** The canonical id for a source id, merging with a known fixture when teams and start time match. */
  resolve(
    sourceEventId: string,
    league: LeagueKey,
    home: { name: string; abbreviation: string },
    away: { name: string; abbreviation: string },
    startsAt: number,
  ): string {
    const known = this.bySourceId.get(sourceEventId);
    if (known) return known;
    const teamsKey = `${league}|${normaliseTeamName(home.name)}|${normaliseTeamName(away.name)}`;
    const fixtures = this.byTeams.get(teamsKey) ?? [];
    let best: Fixture | undefined;
    for (const fixture of fixtures) {
      const gap = Math.abs(fixture.startsAt - startsAt);
      if (gap <= this.toleranceMs && (!best || gap < Math.abs(best.startsAt - startsAt))) best = fixture;
    }
    if (!best) {
      const base = `${league}-${slug(away.abbreviation)}-${slug(home.abbreviation)}-${stamp(startsAt)}`;
      let id = base;
      for (let n = 2; this.ids.has(id); n += 1) id = `${base}-${n}`;
      best = { id, startsAt };
      this.ids.add(id);
      fixtures.push(best);
      this.byTeams.set(teamsKey, fixtures);
    }
    this.bySourceId.set(sourceEventId, best.id);
    return best.id;
  }

  /** Forgets a finished fixture and every source id that pointed at it. */
  forget(canonicalId: string): void {
    for (const [sourceId, id] of this.bySourceId) if (id === canonicalId) this.bySourceId.delete(sourceId);
    for (const [key, fixtures] of this.byTeams) {
      const kept = fixtures.filter((fixture) => fixture.id !== canonicalId);
      if (kept.length === 0) this.byTeams.delete(key);
      else if (kept.length !== fixtures.length) this.byTeams.set(key, kept);
    }
    this.ids.delete(canonicalId);
  }
}

import { describe, expect, it } from 'vitest';
import { evFeedRow } from './finder-rows.ts';
import type { EvPriceDto } from './schemas/api/ev.ts';

// A /v1/ev price as the positive-EV feed's row (decision 282): a prop's row carries its leg, the stat, period and
// player read back from the market key and the player's name from the label, as the bet tracker grades it.

function dto(key: string, type: 'prop' | 'total', label: string, point: number | null): EvPriceDto {
  return {
    id: `${key}|over|fanduel`,
    event: {
      id: 'nba-bos-lal-1',
      league: 'nba',
      sport: 'basketball',
      home: { name: 'Los Angeles Lakers' },
      away: { name: 'Boston Celtics' },
      starts_at: '2026-11-22T00:30:00.000Z',
      live: false,
    },
    market: { key, type, period: 'full', point, label },
    outcome: { outcome: 'over', name: `${label} Over` },
    book: 'fanduel',
    price: {
      american: '+110',
      decimal: 2.1,
      updated_at: '2026-11-22T00:00:00.000Z',
      age_seconds: 0,
      links: { desktop: null, mobile: null },
    },
    fair: { probability: 0.5, decimal: 2, american: '+100', books: 4 },
    ev_pct: 5,
  } as unknown as EvPriceDto;
}

describe('evFeedRow', () => {
  it('gives a prop price its leg: stat, period and player id from the key, the name from the label', () => {
    const row = evFeedRow(
      dto(
        'nba-bos-lal-1|prop|player_points|q1|nba-lal%7Cp01|7.5',
        'prop',
        "D'Angelo O. Hale Jr. 1st Quarter Points Over/Under 7.5",
        7.5,
      ),
    );
    expect(row.leg).toEqual({
      market: 'prop',
      period: 'q1',
      line: 7.5,
      outcome: 'over',
      stat: 'player_points',
      player_id: 'nba-lal|p01',
      player: "D'Angelo O. Hale Jr.",
    });
  });

  it('gives a game line its leg as before, and a prop whose key it cannot read none', () => {
    expect(evFeedRow(dto('nba-bos-lal-1|total|full|221.5', 'total', 'Total 221.5', 221.5)).leg).toEqual({
      market: 'total',
      period: 'full',
      line: 221.5,
      outcome: 'over',
    });
    expect(evFeedRow(dto('nba-bos-lal-1|prop|not_a_stat|full|x|1.5', 'prop', 'X', 1.5)).leg).toBeUndefined();
  });
});

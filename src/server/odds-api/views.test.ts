import { describe, expect, it } from 'vitest';
import { filterKey } from './views.ts';

describe('filterKey', () => {
  it('gives equal filters one key whatever the order of their list values', () => {
    expect(filterKey(['nba', new Set(['fanduel', 'betmgm'])])).toBe(
      filterKey(['nba', new Set(['betmgm', 'fanduel'])]),
    );
  });

  it('tells filters apart by position, value and absence', () => {
    const keys = [
      filterKey(['nba', undefined]),
      filterKey([undefined, 'nba']),
      filterKey(['nhl', undefined]),
      filterKey([undefined, undefined]),
      filterKey([new Set(['spread']), false]),
      filterKey([new Set(['spread']), true]),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

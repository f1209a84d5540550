import { describe, expect, it } from 'vitest';
import { createSource } from './index.ts';
import { TheOddsApiSource } from './the-odds-api.ts';

// ODDS_SOURCE → the source, with the settings it needs.

describe('createSource', () => {
  it('hands The Odds API source the player-prop budget from the configuration (decision 123)', () => {
    const source = createSource({
      ODDS_SOURCE: 'the-odds-api',
      SIM_SEED: 1,
      ODDS_API_KEY: 'k',
      ODDS_API_PROPS_BUDGET: 1234,
      ODDS_API_PROPS_RESERVE: 567,
      ODDS_API_PROPS_WINDOW_H: 6,
      ODDS_API_PROPS_MAX_EVENTS: 3,
    });
    expect(source).toBeInstanceOf(TheOddsApiSource);
    const options = (source as unknown as { options: Record<string, unknown> }).options;
    expect(options).toMatchObject({
      propsBudget: 1234,
      propsReserve: 567,
      propsWindowMs: 6 * 3_600_000,
      propsMaxEvents: 3,
    });
  });

  it('keeps the source defaults when the budget is not configured', () => {
    const source = createSource({ ODDS_SOURCE: 'the-odds-api', SIM_SEED: 1, ODDS_API_KEY: 'k' });
    const options = (source as unknown as { options: Record<string, unknown> }).options;
    expect(options).toMatchObject({ propsBudget: 10_000, propsWindowMs: 24 * 3_600_000 });
  });

  it('refuses The Odds API without a key', () => {
    expect(() => createSource({ ODDS_SOURCE: 'the-odds-api', SIM_SEED: 1 })).toThrow(/ODDS_API_KEY/);
  });
});

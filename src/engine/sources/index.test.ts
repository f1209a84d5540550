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

  it('runs the simulator with player props unless SIM_PROPS is false', () => {
    const markets = (props: boolean | undefined) => {
      const source = createSource({ ODDS_SOURCE: 'simulator', SIM_SEED: 3, SIM_PROPS: props });
      const kinds = new Set<string>();
      void source.start({
        ingest: (message) => {
          kinds.add((message as { market?: string }).market ?? '');
          return true;
        },
        drop: () => undefined,
        ready: () => undefined,
        now: () => Date.UTC(2026, 10, 24),
        log: { info: () => undefined, warn: () => undefined },
      });
      void source.stop();
      return kinds;
    };
    expect(markets(undefined).has('prop')).toBe(true);
    expect(markets(true).has('prop')).toBe(true);
    const without = markets(false);
    expect(without.has('prop')).toBe(false);
    expect(without.has('moneyline')).toBe(true);
  });

  it('refuses The Odds API without a key', () => {
    expect(() => createSource({ ODDS_SOURCE: 'the-odds-api', SIM_SEED: 1 })).toThrow(/ODDS_API_KEY/);
  });
});

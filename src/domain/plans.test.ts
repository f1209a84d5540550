import { describe, expect, it } from 'vitest';
import {
  API_FEATURES,
  cheapestPlanWith,
  delayMs,
  getPlan,
  includes,
  isPlanId,
  PLAN_IDS,
  PLANS,
} from './plans.ts';

describe('the plan table', () => {
  it('gives each plan the rate, delay, streams and credits of DESIGN.md', () => {
    const table = PLANS.map((plan) => [
      plan.id,
      plan.price,
      plan.requestsPerMinute,
      delayMs(plan),
      plan.streamConnections,
      plan.sgpCreditsPerMonth,
    ]);
    expect(table).toEqual([
      ['starter', 29, 30, 120_000, 2, null],
      ['pro', 99, 100, 15_000, 5, null],
      ['elite', 249, 250, 0, 20, 10_000],
      ['enterprise', 999, 2000, 0, 100, 100_000],
    ]);
  });

  it('lists each plan id once and recognises only those', () => {
    expect(PLAN_IDS).toEqual(['starter', 'pro', 'elite', 'enterprise']);
    expect(isPlanId('elite')).toBe(true);
    expect(isPlanId('gold')).toBe(false);
    expect(isPlanId('')).toBe(false);
  });

  it('gates line movement to Enterprise, the cheapest plan that has it', () => {
    expect(PLANS.filter((plan) => includes(plan, API_FEATURES.lineMovement)).map((plan) => plan.id)).toEqual([
      'enterprise',
    ]);
    expect(cheapestPlanWith(API_FEATURES.lineMovement)).toBe(getPlan('enterprise'));
  });
});

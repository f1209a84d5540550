import { describe, expect, it } from 'vitest';
import { API_FEATURES, delayMs, getPlan, includes, isPlanId, PLAN_IDS, PLANS, plansWith } from './plans.ts';

describe('the plan table', () => {
  it('gives each plan the rate, delay, streams and credits of docs/product.md §9', () => {
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
    expect(plansWith(API_FEATURES.lineMovement)[0]).toBe(getPlan('enterprise'));
  });

  it('gates closing lines (CLV, OLV) and historical odds to Elite and Enterprise, and names both', () => {
    for (const feature of [API_FEATURES.closingLines, API_FEATURES.historicalOdds]) {
      expect(plansWith(feature).map((plan) => plan.id)).toEqual(['elite', 'enterprise']);
      expect(plansWith(feature)[0]).toBe(getPlan('elite'));
    }
    expect(plansWith(API_FEATURES.lineMovement).map((plan) => plan.id)).toEqual(['enterprise']);
    expect(PLANS.map((plan) => [plan.id, plan.apiFeatures])).toEqual([
      ['starter', []],
      ['pro', []],
      ['elite', ['closing-lines', 'historical-odds', 'same-game-parlays']],
      ['enterprise', ['line-movement', 'closing-lines', 'historical-odds', 'same-game-parlays']],
    ]);
  });

  it('gates same-game parlays to exactly the plans with monthly SGP credits (Elite 10K, Enterprise 100K)', () => {
    expect(plansWith(API_FEATURES.sameGameParlays).map((plan) => plan.id)).toEqual(['elite', 'enterprise']);
    // One rule from two fields: the feature gate (POST /v1/sgp's 403) and the credits (its 402) must agree.
    for (const plan of PLANS)
      expect(includes(plan, API_FEATURES.sameGameParlays), plan.id).toBe((plan.sgpCreditsPerMonth ?? 0) > 0);
  });

  it('links the positive-EV bullet of every plan and the history and SGP bullets of Elite and Enterprise to their /docs operations, text unchanged', () => {
    const EV_BULLET = 'Positive-EV prices with their fair odds';
    const linked = PLANS.flatMap((plan) =>
      plan.features
        .filter((feature) => feature.docsHref)
        .map((feature) => [plan.id, feature.text, feature.docsHref]),
    );
    expect(linked).toEqual([
      ['starter', EV_BULLET, '/docs#GET--v1-ev'],
      ['pro', EV_BULLET, '/docs#GET--v1-ev'],
      ['elite', EV_BULLET, '/docs#GET--v1-ev'],
      ['elite', '10K same-game-parlay credits per month', '/docs#POST--v1-sgp'],
      [
        'elite',
        'Historical closing and opening line values (CLV, OLV)',
        '/docs#GET--v1-events-eventId-lines',
      ],
      ['enterprise', EV_BULLET, '/docs#GET--v1-ev'],
      ['enterprise', '100K same-game-parlay credits per month', '/docs#POST--v1-sgp'],
      [
        'enterprise',
        'Historical closing and opening line values (CLV, OLV)',
        '/docs#GET--v1-events-eventId-lines',
      ],
      ['enterprise', 'Historical line movement', '/docs#GET--v1-events-eventId-movement'],
    ]);
  });
});

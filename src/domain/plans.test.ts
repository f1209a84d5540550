import { describe, expect, it } from 'vitest';
import {
  API_FEATURES,
  CAPABILITIES,
  delayMs,
  finderTerms,
  FREE_PLAN,
  freeShowsArb,
  getPlan,
  includes,
  isPlanId,
  PLAN_IDS,
  PLANS,
  plansWith,
  TIERS,
  valuesDelaySeconds,
} from './plans.ts';

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
      ['pro', ['scores-and-grading']],
      ['elite', ['closing-lines', 'historical-odds', 'same-game-parlays', 'scores-and-grading']],
      [
        'enterprise',
        ['line-movement', 'closing-lines', 'historical-odds', 'same-game-parlays', 'scores-and-grading'],
      ],
    ]);
  });

  it('gates scores and grading (GET /v1/scores, POST /v1/grade) to Pro and above (issue 57)', () => {
    expect(plansWith(API_FEATURES.scoresAndGrading).map((plan) => plan.id)).toEqual([
      'pro',
      'elite',
      'enterprise',
    ]);
  });

  it('gates same-game parlays to exactly the plans with monthly SGP credits (Elite 10K, Enterprise 100K)', () => {
    expect(plansWith(API_FEATURES.sameGameParlays).map((plan) => plan.id)).toEqual(['elite', 'enterprise']);
    // One rule from two fields: the feature gate (POST /v1/sgp's 403) and the credits (its 402) must agree.
    for (const plan of PLANS)
      expect(includes(plan, API_FEATURES.sameGameParlays), plan.id).toBe((plan.sgpCreditsPerMonth ?? 0) > 0);
  });

  it('links each included row to its /docs operation: EV and middles, same-game parlays and the history features', () => {
    const linked = PLANS.flatMap((plan) =>
      plan.features
        .filter((feature) => feature.docsHref)
        .map((feature) => [plan.id, feature.id, feature.docsHref]),
    );
    expect(linked).toEqual([
      ['starter', 'values', '/docs#GET--v1-ev'],
      ['starter', 'results', '/docs#GET--v1-scores'],
      ['pro', 'values', '/docs#GET--v1-ev'],
      ['pro', 'results', '/docs#GET--v1-scores'],
      ['pro', 'scores-and-grading', '/docs#GET--v1-scores'],
      ['elite', 'values', '/docs#GET--v1-ev'],
      ['elite', 'same-game-parlays', '/docs#POST--v1-sgp'],
      ['elite', 'closing-lines', '/docs#GET--v1-events-eventId-lines'],
      ['elite', 'historical-odds', '/docs#GET--v1-historical-odds'],
      ['elite', 'results', '/docs#GET--v1-scores'],
      ['elite', 'scores-and-grading', '/docs#GET--v1-scores'],
      ['enterprise', 'values', '/docs#GET--v1-ev'],
      ['enterprise', 'same-game-parlays', '/docs#POST--v1-sgp'],
      ['enterprise', 'closing-lines', '/docs#GET--v1-events-eventId-lines'],
      ['enterprise', 'historical-odds', '/docs#GET--v1-historical-odds'],
      ['enterprise', 'line-movement', '/docs#GET--v1-events-eventId-movement'],
      ['enterprise', 'results', '/docs#GET--v1-scores'],
      ['enterprise', 'scores-and-grading', '/docs#GET--v1-scores'],
    ]);
  });
});

describe('the free tier (issue 56)', () => {
  it('is a row of the table beside the paid plans: arbs up to 1 % in real time, EV and middles 2 minutes old, best 100', () => {
    expect(TIERS.map((tier) => tier.id)).toEqual(['free', 'starter', 'pro', 'elite', 'enterprise']);
    expect(FREE_PLAN.finders).toEqual({ arbEdgeCapPct: 1, valuesDelaySeconds: 120, valuesRows: 100 });
    expect(freeShowsArb(1)).toBe(true);
    expect(freeShowsArb(-0.8)).toBe(true);
    expect(freeShowsArb(1.001)).toBe(false);
  });

  it('gives every paid plan at least the free finders, at least as fresh', () => {
    const free = finderTerms(FREE_PLAN);
    for (const plan of PLANS) {
      const terms = finderTerms(plan);
      expect(terms.arbEdgeCapPct, plan.id).toBeNull();
      expect(terms.valuesRows, plan.id).toBeNull();
      expect(terms.valuesDelaySeconds, plan.id).toBeLessThanOrEqual(free.valuesDelaySeconds);
    }
    expect(PLANS.map((plan) => valuesDelaySeconds(plan))).toEqual([120, 15, 0, 0]);
  });
});

describe('the cards, one row per capability', () => {
  it('gives every card, free included, one row per capability in the same order', () => {
    for (const tier of TIERS)
      expect(
        tier.features.map((feature) => feature.id),
        tier.id,
      ).toEqual(CAPABILITIES.map((capability) => capability.id));
  });

  it('lists on Pro every row Starter lists (none omitted), each included or not', () => {
    const starter = getPlan('starter').features;
    const pro = getPlan('pro').features;
    expect(pro.map((row) => row.id)).toEqual(starter.map((row) => row.id));
    expect(pro.filter((row) => !row.included).map((row) => row.text)).toEqual([
      'Same-game-parlay pricing',
      'Historical closing and opening line values (CLV, OLV)',
      'Historical odds',
      'Historical line movement',
    ]);
  });

  it('says a gated row is included exactly when the API lets the plan use the feature', () => {
    const gates = {
      'same-game-parlays': API_FEATURES.sameGameParlays,
      'closing-lines': API_FEATURES.closingLines,
      'historical-odds': API_FEATURES.historicalOdds,
      'line-movement': API_FEATURES.lineMovement,
    } as const;
    for (const plan of PLANS)
      for (const [row, feature] of Object.entries(gates))
        expect(plan.features.find((f) => f.id === row)!.included, `${plan.id} ${row}`).toBe(
          includes(plan, feature),
        );
    expect(getPlan('elite').features.find((f) => f.id === 'historical-odds')).toMatchObject({
      included: true,
      text: 'Historical odds',
    });
  });

  it('states the stream limit, the rate and when SGP credits renew, from the plan fields', () => {
    const text = (id: string) => PLANS.map((plan) => plan.features.find((f) => f.id === id)!.text);
    expect(text('streams')).toEqual([
      '2 concurrent streams (server-sent events)',
      '5 concurrent streams (server-sent events)',
      '20 concurrent streams (server-sent events)',
      '100 concurrent streams (server-sent events)',
    ]);
    expect(text('rate')).toEqual([
      '30 requests per minute',
      '100 requests per minute',
      '250 requests per minute',
      '2,000 requests per minute',
    ]);
    expect(text('same-game-parlays').slice(2)).toEqual([
      '10K same-game-parlay credits per month, renewed on the 1st (UTC)',
      '100K same-game-parlay credits per month, renewed on the 1st (UTC)',
    ]);
    expect(text('arbs')).toEqual([
      'Arbs up to 1% edge in real time; above 1%, delayed up to 2 minutes',
      'Arbs up to 1% edge in real time; above 1%, delayed up to 15 seconds',
      'Every arb in real time',
      'Every arb in real time',
    ]);
  });

  it('says on the free card exactly what the free pages show, and nothing of the API', () => {
    expect(FREE_PLAN.features.map((f) => [f.id, f.included, f.text])).toEqual([
      ['arbs', true, 'Arbs up to 1% edge in real time, and near-arbs; the rest counted'],
      ['odds', false, 'Odds API (REST)'],
      ['values', true, 'Positive EV and middles as of 2 minutes ago, best 100 of each'],
      ['rate', false, 'API requests'],
      ['streams', false, 'Streaming (server-sent events)'],
      ['markets', true, 'Main lines, alternates and player props'],
      ['same-game-parlays', false, 'Same-game-parlay pricing'],
      ['closing-lines', false, 'Historical closing and opening line values (CLV, OLV)'],
      ['historical-odds', false, 'Historical odds'],
      ['line-movement', false, 'Historical line movement'],
      [
        'results',
        true,
        'Final scores and fair closing lines of the last 3 days: the bet tracker grades your bets with CLV',
      ],
      ['scores-and-grading', false, 'Live scores and the grading API (payout, profit, CLV)'],
    ]);
  });
});

import { getPlan, PLANS, type Plan, type PlanId } from '#domain/plans.ts';

// What each plan may do on the paid API beyond DESIGN.md's table (requests per minute and delay come from
// `src/domain/plans.ts`): concurrent stream connections per key, and plan-gated features.

export const STREAM_CONNECTIONS: Readonly<Record<PlanId, number>> = {
  starter: 2,
  pro: 5,
  elite: 20,
  enterprise: 100,
};

export interface Feature {
  id: string;
  name: string;
  /** Plans that include it, cheapest first. */
  plans: readonly PlanId[];
}

export const FEATURES = {
  lineMovement: { id: 'line-movement', name: 'Historical line movement', plans: ['enterprise'] },
} as const satisfies Record<string, Feature>;

export function delayMs(plan: Plan): number {
  return plan.realTime ? 0 : plan.latencySeconds * 1000;
}

export function includes(plan: Plan, feature: Feature): boolean {
  return feature.plans.includes(plan.id);
}

/** The cheapest plan that includes the feature. */
export function cheapestPlanWith(feature: Feature): Plan {
  const plans = PLANS.filter((plan) => feature.plans.includes(plan.id)).sort((a, b) => a.price - b.price);
  return plans[0] ?? getPlan('enterprise');
}

export function featuresOf(plan: Plan): string[] {
  return Object.values(FEATURES)
    .filter((feature) => includes(plan, feature))
    .map((feature) => feature.id);
}

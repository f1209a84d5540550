import { SITE } from './site.ts';

// The four API plans (DESIGN.md "Business constants", SPEC §9 Plans). Where SPEC says "not stated" the plan simply
// does not list that feature: nothing is claimed either way.

export type PlanId = 'starter' | 'pro' | 'elite' | 'enterprise';
export type FeatureIcon = 'bolt' | 'clock' | 'gauge' | 'layers' | 'history' | 'chart';

export interface PlanFeature {
  text: string;
  included: boolean;
  icon?: FeatureIcon;
}

export interface Plan {
  id: PlanId;
  name: string;
  /** Monthly price in whole US dollars. */
  price: number;
  period: 'month';
  /** Maximum delay of the data in seconds; 0 is real time. */
  latencySeconds: number;
  requestsPerMinute: number;
  /** Same-game-parlay credits per month; null when the plan has none or the figure is not stated. */
  sgpCreditsPerMonth: number | null;
  features: readonly PlanFeature[];
  checkoutUrl: string;
  realTime: boolean;
  highlighted?: boolean;
}

export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    price: 29,
    period: 'month',
    latencySeconds: 120,
    requestsPerMinute: 30,
    sgpCreditsPerMonth: null,
    realTime: false,
    checkoutUrl: SITE.checkoutUrls.starter,
    features: [
      { text: 'Odds delayed up to 2 minutes', included: true, icon: 'clock' },
      { text: '30 requests per minute', included: true, icon: 'gauge' },
      { text: 'Main lines, alternates and player props', included: true, icon: 'layers' },
      { text: 'Same-game-parlay pricing', included: false },
      { text: 'Historical odds', included: false },
    ],
  },
  {
    id: 'pro',
    name: 'Pro',
    price: 99,
    period: 'month',
    latencySeconds: 15,
    requestsPerMinute: 100,
    sgpCreditsPerMonth: null,
    realTime: false,
    highlighted: true,
    checkoutUrl: SITE.checkoutUrls.pro,
    features: [
      { text: 'Odds delayed up to 15 seconds', included: true, icon: 'clock' },
      { text: '100 requests per minute', included: true, icon: 'gauge' },
      { text: 'Main lines, alternates and player props', included: true, icon: 'layers' },
    ],
  },
  {
    id: 'elite',
    name: 'Elite',
    price: 249,
    period: 'month',
    latencySeconds: 0,
    requestsPerMinute: 250,
    sgpCreditsPerMonth: 10_000,
    realTime: true,
    checkoutUrl: SITE.checkoutUrls.elite,
    features: [
      { text: 'Real-time odds', included: true, icon: 'bolt' },
      { text: '250 requests per minute', included: true, icon: 'gauge' },
      { text: 'Main lines, alternates and player props', included: true, icon: 'layers' },
      { text: '10K same-game-parlay credits per month', included: true, icon: 'layers' },
      { text: 'Historical closing and opening line values (CLV, OLV)', included: true, icon: 'history' },
    ],
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price: 999,
    period: 'month',
    latencySeconds: 0,
    requestsPerMinute: 2000,
    sgpCreditsPerMonth: 100_000,
    realTime: true,
    checkoutUrl: SITE.checkoutUrls.enterprise,
    features: [
      { text: 'Real-time odds', included: true, icon: 'bolt' },
      { text: '2,000 requests per minute', included: true, icon: 'gauge' },
      { text: 'Main lines, alternates and player props', included: true, icon: 'layers' },
      { text: '100K same-game-parlay credits per month', included: true, icon: 'layers' },
      { text: 'Historical closing and opening line values (CLV, OLV)', included: true, icon: 'history' },
      { text: 'Historical line movement', included: true, icon: 'chart' },
    ],
  },
];

/** A trial key lasts 7 days and has the Pro plan's limits (DESIGN.md). */
export const TRIAL = { days: 7, planId: 'pro' as PlanId } as const;

export function getPlan(id: PlanId): Plan {
  const plan = PLANS.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

export function formatPrice(plan: Plan): string {
  return `$${plan.price.toLocaleString('en-US')}`;
}

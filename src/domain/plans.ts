import { SITE } from './site.ts';

// The four API plans (docs/product.md §9): the one table of what each plan gets (price, request rate, delay,
// concurrent streams, gated API features, SGP credits) and the text the pricing page shows. The server reads its
// limits from here. Where the product does not state a figure the plan simply does not list that feature: nothing is
// claimed either way. How a plan is bought is the server's configuration, not data here (decision 151).

export type PlanId = 'starter' | 'pro' | 'elite' | 'enterprise';
export type FeatureIcon = 'bolt' | 'clock' | 'gauge' | 'layers' | 'history' | 'chart';

/** A paid-API capability that only some plans include (answered 403 with the cheapest plan that has it). */
export interface ApiFeature {
  id: 'line-movement' | 'closing-lines' | 'historical-odds' | 'same-game-parlays';
  name: string;
}

export const API_FEATURES = {
  /** GET /v1/events/{id}/movement: every change of an event's prices, or candles. */
  lineMovement: { id: 'line-movement', name: 'Historical line movement' },
  /** GET /v1/events/{id}/lines and POST /v1/clv: opening, current and closing lines, fair probabilities, CLV/OLV. */
  closingLines: { id: 'closing-lines', name: 'Historical closing and opening line values (CLV, OLV)' },
  /** GET /v1/historical/odds: the odds board of a league at a past instant. */
  historicalOdds: { id: 'historical-odds', name: 'Historical odds' },
  /** POST /v1/sgp: same-game-parlay pricing, one monthly credit per priced request (`sgpCreditsPerMonth`). */
  sameGameParlays: { id: 'same-game-parlays', name: 'Same-game parlay pricing' },
} as const satisfies Record<string, ApiFeature>;

/** Where the /docs page documents an operation (the anchor its renderer gives `METHOD path`). */
export const DOCS_ANCHORS = {
  lines: `${SITE.docsUrl}#GET--v1-events-eventId-lines`,
  clv: `${SITE.docsUrl}#POST--v1-clv`,
  movement: `${SITE.docsUrl}#GET--v1-events-eventId-movement`,
  historicalOdds: `${SITE.docsUrl}#GET--v1-historical-odds`,
  sgp: `${SITE.docsUrl}#POST--v1-sgp`,
  ev: `${SITE.docsUrl}#GET--v1-ev`,
} as const;

export type ApiFeatureId = ApiFeature['id'];

export interface PlanFeature {
  text: string;
  included: boolean;
  icon?: FeatureIcon;
  /** The API documentation of the feature (the pricing page links the bullet's text to it). */
  docsHref?: string;
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
  /** Concurrent `/v1/stream` connections per key. */
  streamConnections: number;
  /** Gated API features (`/v1/me` lists them). */
  apiFeatures: readonly ApiFeatureId[];
  /** Same-game-parlay credits per month; null when the plan has none or the figure is not stated. */
  sgpCreditsPerMonth: number | null;
  features: readonly PlanFeature[];
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
    streamConnections: 2,
    apiFeatures: [],
    sgpCreditsPerMonth: null,
    realTime: false,
    features: [
      { text: 'Odds delayed up to 2 minutes', included: true, icon: 'clock' },
      { text: '30 requests per minute', included: true, icon: 'gauge' },
      { text: 'Main lines, alternates and player props', included: true, icon: 'layers' },
      {
        text: 'Positive-EV prices with their fair odds',
        included: true,
        icon: 'chart',
        docsHref: DOCS_ANCHORS.ev,
      },
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
    streamConnections: 5,
    apiFeatures: [],
    sgpCreditsPerMonth: null,
    realTime: false,
    highlighted: true,
    features: [
      { text: 'Odds delayed up to 15 seconds', included: true, icon: 'clock' },
      { text: '100 requests per minute', included: true, icon: 'gauge' },
      { text: 'Main lines, alternates and player props', included: true, icon: 'layers' },
      {
        text: 'Positive-EV prices with their fair odds',
        included: true,
        icon: 'chart',
        docsHref: DOCS_ANCHORS.ev,
      },
    ],
  },
  {
    id: 'elite',
    name: 'Elite',
    price: 249,
    period: 'month',
    latencySeconds: 0,
    requestsPerMinute: 250,
    streamConnections: 20,
    apiFeatures: ['closing-lines', 'historical-odds', 'same-game-parlays'],
    sgpCreditsPerMonth: 10_000,
    realTime: true,
    features: [
      { text: 'Real-time odds', included: true, icon: 'bolt' },
      { text: '250 requests per minute', included: true, icon: 'gauge' },
      { text: 'Main lines, alternates and player props', included: true, icon: 'layers' },
      {
        text: 'Positive-EV prices with their fair odds',
        included: true,
        icon: 'chart',
        docsHref: DOCS_ANCHORS.ev,
      },
      {
        text: '10K same-game-parlay credits per month',
        included: true,
        icon: 'layers',
        docsHref: DOCS_ANCHORS.sgp,
      },
      {
        text: 'Historical closing and opening line values (CLV, OLV)',
        included: true,
        icon: 'history',
        docsHref: DOCS_ANCHORS.lines,
      },
    ],
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price: 999,
    period: 'month',
    latencySeconds: 0,
    requestsPerMinute: 2000,
    streamConnections: 100,
    apiFeatures: ['line-movement', 'closing-lines', 'historical-odds', 'same-game-parlays'],
    sgpCreditsPerMonth: 100_000,
    realTime: true,
    features: [
      { text: 'Real-time odds', included: true, icon: 'bolt' },
      { text: '2,000 requests per minute', included: true, icon: 'gauge' },
      { text: 'Main lines, alternates and player props', included: true, icon: 'layers' },
      {
        text: 'Positive-EV prices with their fair odds',
        included: true,
        icon: 'chart',
        docsHref: DOCS_ANCHORS.ev,
      },
      {
        text: '100K same-game-parlay credits per month',
        included: true,
        icon: 'layers',
        docsHref: DOCS_ANCHORS.sgp,
      },
      {
        text: 'Historical closing and opening line values (CLV, OLV)',
        included: true,
        icon: 'history',
        docsHref: DOCS_ANCHORS.lines,
      },
      {
        text: 'Historical line movement',
        included: true,
        icon: 'chart',
        docsHref: DOCS_ANCHORS.movement,
      },
    ],
  },
];

/** A trial key lasts 7 days and has the Pro plan's limits (docs/product.md §12). */
export const TRIAL = { days: 7, planId: 'pro' as PlanId } as const;

/**
 * What a trial key gets, as the site says it (issue 34: the trial box promised real-time odds): "Pro plan limits:
 * odds delayed up to 15 seconds, 100 requests per minute", from the trial's plan.
 */
export function trialTerms(): string {
  const plan = getPlan(TRIAL.planId);
  const data = plan.realTime ? 'real-time odds' : `odds delayed up to ${plan.latencySeconds} seconds`;
  return `${plan.name} plan limits: ${data}, ${plan.requestsPerMinute} requests per minute`;
}

export const PLAN_IDS: readonly PlanId[] = PLANS.map((plan) => plan.id);

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function getPlan(id: PlanId): Plan {
  const plan = PLANS.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

export function formatPrice(plan: Plan): string {
  return `$${plan.price.toLocaleString('en-US')}`;
}

/** How long the plan's data is delayed, in milliseconds (0: real time). */
export function delayMs(plan: Plan): number {
  return plan.realTime ? 0 : plan.latencySeconds * 1000;
}

export function includes(plan: Plan, feature: ApiFeature): boolean {
  return plan.apiFeatures.includes(feature.id);
}

/** Every plan that includes the feature, cheapest first. */
export function plansWith(feature: ApiFeature): Plan[] {
  return PLANS.filter((plan) => includes(plan, feature)).sort((a, b) => a.price - b.price);
}

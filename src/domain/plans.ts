import { SITE } from './site.ts';

// The plan table (docs/product.md §9): the free tier and the four API plans, what each gets (price, request rate,
// delay, concurrent streams, gated API features, SGP credits, what the finder pages show) and, generated from those
// fields, every row of the pricing page's cards (`CAPABILITIES`, decision 212). The server reads its limits from
// here and the public feeds apply the free row (decision 210). How a plan is bought is the server's configuration,
// not data here (decision 151).

export type PlanId = 'starter' | 'pro' | 'elite' | 'enterprise';
export type FeatureIcon = 'bolt' | 'clock' | 'gauge' | 'layers' | 'history' | 'chart';

/** A paid-API capability that only some plans include (answered 403 with the cheapest plan that has it). */
export interface ApiFeature {
  id: 'line-movement' | 'closing-lines' | 'historical-odds' | 'same-game-parlays' | 'scores-and-grading';
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
  /**
   * GET /v1/scores's live games and POST /v1/grade (issue 57): live scores, and bets graded with payout, profit and CLV.
   * Finals are every tier's (`RESULTS_WINDOW_DAYS`, decision 256): the free bet tracker grades with them.
   */
  scoresAndGrading: {
    id: 'scores-and-grading',
    name: 'Live scores and the grading API (payout, profit, CLV)',
  },
} as const satisfies Record<string, ApiFeature>;

/**
 * How many days of final scores every tier gets (decision 256): the public results feed (GET /tools/results.json, the
 * bet tracker's) and GET /v1/scores on every plan. The engine keeps finals on its scoreboard this long.
 */
export const RESULTS_WINDOW_DAYS = 3;

/** Where the /docs page documents an operation (the anchor its renderer gives `METHOD path`). */
export const DOCS_ANCHORS = {
  lines: `${SITE.docsUrl}#GET--v1-events-eventId-lines`,
  clv: `${SITE.docsUrl}#POST--v1-clv`,
  movement: `${SITE.docsUrl}#GET--v1-events-eventId-movement`,
  historicalOdds: `${SITE.docsUrl}#GET--v1-historical-odds`,
  sgp: `${SITE.docsUrl}#POST--v1-sgp`,
  ev: `${SITE.docsUrl}#GET--v1-ev`,
  scores: `${SITE.docsUrl}#GET--v1-scores`,
} as const;

export type ApiFeatureId = ApiFeature['id'];

export interface PlanFeature {
  /** The capability's row (`CAPABILITIES`): every card has one feature per row, in the same order. */
  id: CapabilityId;
  text: string;
  included: boolean;
  icon?: FeatureIcon;
  /** The API documentation of the feature (the pricing page links the bullet's text to it). */
  docsHref?: string;
}

/**
 * What the finder pages (arbitrage, positive EV, middles) show a tier (docs/product.md §9, decision 210). Every paid
 * plan gets at least the free tier's, at least as fresh: the arbs the free tier sees come in real time on every plan,
 * the plan's delay applies only to the arbs above the free cap, and positive EV and middles are never older than the
 * free pages'.
 */
export interface FinderTerms {
  /** Arbs shown in full, in real time, up to this edge (%); null: every arb. Near-arbs (edge ≤ 0) are always shown. */
  arbEdgeCapPct: number | null;
  /** How old (s) the positive-EV and middles rows are at most. */
  valuesDelaySeconds: number;
  /** How many positive-EV prices and middles are shown (the best by EV); null: every one. */
  valuesRows: number | null;
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
  /** The card's rows, one per capability (`CAPABILITIES`), generated from the fields above. */
  features: readonly PlanFeature[];
  realTime: boolean;
  highlighted?: boolean;
}

/** The free tier: the public finder pages and feeds, without a key. A row of the plan table like the paid plans. */
export interface FreePlan {
  id: 'free';
  name: string;
  price: 0;
  period: 'month';
  finders: FinderTerms;
  /** The card's rows, one per capability (`CAPABILITIES`). */
  features: readonly PlanFeature[];
}

/** A row of the plan table: the free tier or a paid plan. */
export type Tier = FreePlan | Plan;

type PlanRow = Omit<Plan, 'features'>;

/** The free tier's row (issue 56). The pages and public feeds apply it; every paid plan gets at least this. */
const FREE_ROW: Omit<FreePlan, 'features'> = {
  id: 'free',
  name: 'Free',
  price: 0,
  period: 'month',
  finders: { arbEdgeCapPct: 1, valuesDelaySeconds: 120, valuesRows: 100 },
};

const PAID_ROWS: readonly PlanRow[] = [
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
  },
  {
    id: 'pro',
    name: 'Pro',
    price: 99,
    period: 'month',
    latencySeconds: 15,
    requestsPerMinute: 100,
    streamConnections: 5,
    apiFeatures: ['scores-and-grading'],
    sgpCreditsPerMonth: null,
    realTime: false,
    highlighted: true,
  },
  {
    id: 'elite',
    name: 'Elite',
    price: 249,
    period: 'month',
    latencySeconds: 0,
    requestsPerMinute: 250,
    streamConnections: 20,
    apiFeatures: ['closing-lines', 'historical-odds', 'same-game-parlays', 'scores-and-grading'],
    sgpCreditsPerMonth: 10_000,
    realTime: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price: 999,
    period: 'month',
    latencySeconds: 0,
    requestsPerMinute: 2000,
    streamConnections: 100,
    apiFeatures: [
      'line-movement',
      'closing-lines',
      'historical-odds',
      'same-game-parlays',
      'scores-and-grading',
    ],
    sgpCreditsPerMonth: 100_000,
    realTime: true,
  },
];

/** "2 minutes", "15 seconds": a delay as the cards say it. */
export function formatDelay(seconds: number): string {
  if (seconds >= 60 && seconds % 60 === 0) {
    const minutes = seconds / 60;
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** How old a paid plan's positive EV and middles are at most: its delay, never more than the free pages'. */
export function valuesDelaySeconds(plan: PlanRow | Plan): number {
  const own = plan.realTime ? 0 : plan.latencySeconds;
  return Math.min(own, FREE_ROW.finders.valuesDelaySeconds);
}

export type CapabilityId =
  | 'arbs'
  | 'odds'
  | 'values'
  | 'rate'
  | 'streams'
  | 'markets'
  | 'same-game-parlays'
  | 'closing-lines'
  | 'historical-odds'
  | 'line-movement'
  | 'results'
  | 'scores-and-grading';

/** One row of every plan card: what a tier gets of it (`included`, the row's text). */
export interface Capability {
  id: CapabilityId;
  /** The row's text on a card that does not include it. */
  name: string;
  icon: FeatureIcon;
  docsHref?: string;
  /** The row's text on a card that includes it; null: not included. */
  describe(tier: PlanRow | Omit<FreePlan, 'features'>): string | null;
}

const cap = (): number => FREE_ROW.finders.arbEdgeCapPct ?? 0;
const gated =
  (feature: ApiFeature, text: (plan: PlanRow) => string) =>
  (tier: PlanRow | Omit<FreePlan, 'features'>): string | null =>
    tier.id !== 'free' && tier.apiFeatures.includes(feature.id) ? text(tier) : null;

/**
 * The one list of capabilities every plan card shows, in order, each card saying included or not for every row
 * (issue 56). Each row's text comes from the plan's fields the API enforces, and `plans-against-api.test.ts` checks
 * every row of every plan against the API with a key of that plan.
 */
export const CAPABILITIES: readonly Capability[] = [
  {
    id: 'arbs',
    name: 'Arbitrage opportunities',
    icon: 'bolt',
    describe: (tier) => {
      if (tier.id === 'free')
        return `Arbs up to ${cap()}% edge in real time, and near-arbs; the rest counted`;
      if (tier.realTime) return 'Every arb in real time';
      return `Arbs up to ${cap()}% edge in real time; above ${cap()}%, delayed up to ${formatDelay(tier.latencySeconds)}`;
    },
  },
  {
    id: 'odds',
    name: 'Odds API (REST)',
    icon: 'clock',
    describe: (tier) => {
      if (tier.id === 'free') return null;
      return tier.realTime ? 'Real-time odds' : `Odds delayed up to ${formatDelay(tier.latencySeconds)}`;
    },
  },
  {
    id: 'values',
    name: 'Positive-EV prices and middles',
    icon: 'chart',
    docsHref: DOCS_ANCHORS.ev,
    describe: (tier) => {
      if (tier.id === 'free') {
        const { valuesDelaySeconds: delay, valuesRows: rows } = tier.finders;
        return `Positive EV and middles as of ${formatDelay(delay)} ago${rows === null ? '' : `, best ${rows} of each`}`;
      }
      const delay = valuesDelaySeconds(tier);
      return delay === 0
        ? 'Every positive-EV price and middle in real time'
        : `Every positive-EV price and middle, delayed up to ${formatDelay(delay)}`;
    },
  },
  {
    id: 'rate',
    name: 'API requests',
    icon: 'gauge',
    describe: (tier) =>
      tier.id === 'free' ? null : `${tier.requestsPerMinute.toLocaleString('en-US')} requests per minute`,
  },
  {
    id: 'streams',
    name: 'Streaming (server-sent events)',
    icon: 'bolt',
    describe: (tier) =>
      tier.id === 'free'
        ? null
        : `${tier.streamConnections} concurrent stream${tier.streamConnections === 1 ? '' : 's'} (server-sent events)`,
  },
  {
    id: 'markets',
    name: 'Main lines, alternates and player props',
    icon: 'layers',
    describe: () => 'Main lines, alternates and player props',
  },
  {
    id: 'same-game-parlays',
    name: 'Same-game-parlay pricing',
    icon: 'layers',
    docsHref: DOCS_ANCHORS.sgp,
    describe: gated(
      API_FEATURES.sameGameParlays,
      (plan) =>
        `${compactCount(plan.sgpCreditsPerMonth ?? 0)} same-game-parlay credits per month, renewed on the 1st (UTC)`,
    ),
  },
  {
    id: 'closing-lines',
    name: API_FEATURES.closingLines.name,
    icon: 'history',
    docsHref: DOCS_ANCHORS.lines,
    describe: gated(API_FEATURES.closingLines, () => API_FEATURES.closingLines.name),
  },
  {
    id: 'historical-odds',
    name: API_FEATURES.historicalOdds.name,
    icon: 'history',
    docsHref: DOCS_ANCHORS.historicalOdds,
    describe: gated(API_FEATURES.historicalOdds, () => API_FEATURES.historicalOdds.name),
  },
  {
    id: 'line-movement',
    name: API_FEATURES.lineMovement.name,
    icon: 'chart',
    docsHref: DOCS_ANCHORS.movement,
    describe: gated(API_FEATURES.lineMovement, () => API_FEATURES.lineMovement.name),
  },
  {
    id: 'results',
    name: 'Final scores and closing lines',
    icon: 'history',
    docsHref: DOCS_ANCHORS.scores,
    // Every tier: the free bet tracker grades with these finals and their fair close (CLV), so no plan gets less
    // (decisions 210, 256, 289: GET /v1/scores?closing=true on every plan); the row names both (decision 297).
    describe: (tier) =>
      tier.id === 'free'
        ? `Final scores and fair closing lines of the last ${RESULTS_WINDOW_DAYS} days: the bet tracker grades your bets with CLV`
        : `Final scores and fair closing lines of the last ${RESULTS_WINDOW_DAYS} days, period by period`,
  },
  {
    id: 'scores-and-grading',
    name: API_FEATURES.scoresAndGrading.name,
    icon: 'history',
    docsHref: DOCS_ANCHORS.scores,
    describe: gated(API_FEATURES.scoresAndGrading, () => API_FEATURES.scoresAndGrading.name),
  },
];

/** 10_000 → "10K", 100_000 → "100K". */
function compactCount(count: number): string {
  return count >= 1000 && count % 1000 === 0 ? `${count / 1000}K` : count.toLocaleString('en-US');
}

function featuresOf(tier: PlanRow | Omit<FreePlan, 'features'>): PlanFeature[] {
  return CAPABILITIES.map((capability) => {
    const text = capability.describe(tier);
    return {
      id: capability.id,
      text: text ?? capability.name,
      included: text !== null,
      ...(text !== null ? { icon: capability.icon } : {}),
      // The free tier has no key: its rows are the pages, not API operations to link to.
      ...(text !== null && capability.docsHref && tier.id !== 'free'
        ? { docsHref: capability.docsHref }
        : {}),
    };
  });
}

/** The free tier (the public pages and feeds apply it). */
export const FREE_PLAN: FreePlan = { ...FREE_ROW, features: featuresOf(FREE_ROW) };

/** The four paid API plans (docs/product.md §9), cheapest first. */
export const PLANS: readonly Plan[] = PAID_ROWS.map((row) => ({ ...row, features: featuresOf(row) }));

/** The whole table: the free tier, then the paid plans. */
export const TIERS: readonly Tier[] = [FREE_PLAN, ...PLANS];

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

export function formatPrice(plan: Tier): string {
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

/** What the finder pages show a tier: the free row's terms, or a paid plan's (every row, never staler). */
export function finderTerms(tier: Tier): FinderTerms {
  if (tier.id === 'free') return tier.finders;
  return { arbEdgeCapPct: null, valuesDelaySeconds: valuesDelaySeconds(tier), valuesRows: null };
}

/**
 * Whether the free tier shows an arb of this edge in full, in real time (decision 210): at or below the free cap,
 * near-arbs (edge ≤ 0) included. What it shows, every plan gets in real time; the plan's delay applies to the rest.
 */
export function freeShowsArb(edgePct: number): boolean {
  const cap = FREE_PLAN.finders.arbEdgeCapPct;
  return cap === null || edgePct <= cap;
}

import { coverage } from '#domain/coverage.ts';
import { PLANS } from '#domain/plans.ts';

/** "Elite and Enterprise": the plans whose data is not delayed. */
function realTimePlanNames(): string {
  const names = PLANS.filter((plan) => plan.realTime).map((plan) => plan.name);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

// The four feature blurbs of docs/product.md §2. Each says what exists (issue 34): same-game parlays are priced by the
// API (Elite and Enterprise), there is no parlay builder on the site.
const FEATURES = [
  {
    title: 'Standardized data, sub-second latency',
    // Only the real-time plans get it: the others' data is delayed (src/domain/plans.ts).
    body: `One schema for every sportsbook: teams, markets and prices normalized, and delivered in under a second on the ${realTimePlanNames()} plans.`,
    icon: 'M13 2 4 14h7l-1 8 9-12h-7l1-8Z',
  },
  {
    title: 'Same-game-parlay pricing API',
    body: 'Send the legs of a same-game parlay to POST /v1/sgp and get a fair price from a correlation model and each book’s price. On the Elite and Enterprise plans.',
    icon: 'M4 6h16M4 12h16M4 18h10',
  },
  {
    title: 'Push via SSE or pull via REST',
    body: 'Stream price changes with server-sent events, or poll simple REST endpoints. Your integration, your choice.',
    icon: 'M5 12h14M13 6l6 6-6 6',
  },
  {
    title: 'Full coverage',
    body: `Main lines, alternate lines and player props across ${coverage().leagues}: ${coverage().leagueNames}.`,
    icon: 'M3 12a9 9 0 1 0 18 0 9 9 0 0 0-18 0Zm0 0h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18',
  },
] as const;

export function FeatureBlurbs() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {FEATURES.map((feature) => (
        <li key={feature.title} className="rounded-xl border border-slate-800 bg-slate-900/60 p-5">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-6 w-6 text-emerald-300"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d={feature.icon} />
          </svg>
          <h3 className="mt-3 font-semibold text-white">{feature.title}</h3>
          <p className="mt-2 text-sm leading-relaxed text-slate-300">{feature.body}</p>
        </li>
      ))}
    </ul>
  );
}

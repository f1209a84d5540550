import type { MarketSpec, OutcomeKey } from './markets.ts';
import type { FeedLeg } from './schemas/feed.ts';

// The `leg` a finder row's side carries (issue 57): the bet as POST /v1/grade and the bet tracker grade it. Game
// lines only; a player prop has none (no result to grade it on).

export function feedLeg(spec: MarketSpec, outcome: OutcomeKey): FeedLeg | undefined {
  if (spec.type === 'prop') return undefined;
  return { market: spec.type, period: spec.period, line: spec.point, outcome };
}

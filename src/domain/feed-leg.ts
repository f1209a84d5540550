import type { MarketSpec, OutcomeKey } from './markets.ts';
import type { FeedLeg } from './schemas/feed.ts';

// The `leg` a finder row's side carries (issue 57): the bet as POST /v1/grade and the bet tracker grade it. A game
// line, or a player prop with its stat, player id and the player's name (decision 282).

export function feedLeg(spec: MarketSpec, outcome: OutcomeKey, player?: { name: string } | null): FeedLeg {
  if (spec.type === 'prop')
    return {
      market: 'prop',
      period: spec.period,
      line: spec.point,
      outcome,
      stat: spec.stat,
      player_id: spec.playerId,
      player: player?.name ?? spec.playerId,
    };
  return { market: spec.type, period: spec.period, line: spec.point, outcome };
}

import type { MarketState } from '#engine/store.ts';
import { normalisedName } from '../views.ts';

// What the stream's filters read of a change's market (issue 56: every filter applies to every event type): its type
// and period, and for a player prop its stat, its player's id and normalised name. A price, an arb, a positive-EV
// price and a middle all carry these, from the market they belong to.

export interface MarketFacts {
  marketType: string;
  period: string;
  stat?: string | undefined;
  playerId?: string | undefined;
  playerName?: string | undefined;
}

export function marketFacts(market: Pick<MarketState, 'spec' | 'player'>): MarketFacts {
  const spec = market.spec;
  if (spec.type !== 'prop') return { marketType: spec.type, period: spec.period };
  return {
    marketType: spec.type,
    period: spec.period,
    stat: spec.stat,
    playerId: spec.playerId,
    playerName: market.player ? normalisedName(market.player) : '',
  };
}

import type { PriceMessage } from '#engine/messages.ts';

/**
 * A prop price message for tests: by default LeBron-style points at 27.5 (`player_points`, full game); `extra` changes
 * any field (stat, point, period, suspension…).
 */
export function propPrice(
  sourceEventId: string,
  book: string,
  player: PriceMessage['player'],
  outcome: string,
  american: number,
  extra: Partial<PriceMessage> = {},
): PriceMessage {
  return {
    kind: 'price',
    sourceEventId,
    book,
    market: 'prop',
    stat: 'player_points',
    player,
    point: 27.5,
    outcome,
    american,
    ...extra,
  };
}

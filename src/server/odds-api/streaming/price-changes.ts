import { specLabel, specOutcomeLabel } from '#domain/market-labels.ts';
import type { OddsStore, PriceChange } from '#engine/store.ts';
import { toPlayerDto, toPriceDto } from '../views.ts';
import type { Change } from './change-log.ts';
import { marketFacts } from './market-facts.ts';

/**
 * The stream's `price` change for a price the store accepted; undefined when its event is no longer held. Its `market`
 * has the fields of a /v1/odds Market without `main` and `outcomes`: for a prop also `stat` and `player`.
 */
export function priceChange(store: OddsStore, change: PriceChange): Change | undefined {
  const event = store.event(change.eventId);
  if (!event) return undefined;
  const { spec, price, player } = change;
  const market =
    spec.type === 'prop'
      ? {
          key: change.marketKey,
          type: spec.type,
          period: spec.period,
          stat: spec.stat,
          player: player
            ? toPlayerDto(player, event)
            : { id: spec.playerId, name: spec.playerId, team: null },
          point: spec.point,
          label: specLabel(spec, player),
        }
      : {
          key: change.marketKey,
          type: spec.type,
          period: spec.period,
          point: spec.point,
          label: specLabel(spec),
        };
  return {
    kind: 'price',
    eventId: change.eventId,
    league: event.league,
    ...marketFacts({ spec, player }),
    books: [price.book],
    data: {
      event_id: change.eventId,
      league: event.league,
      market,
      outcome: price.outcome,
      name: specOutcomeLabel(event, spec, price.outcome, player),
      price: toPriceDto(price),
    },
  };
}

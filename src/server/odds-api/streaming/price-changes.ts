import { marketLabel, outcomeLabel } from '#domain/markets.ts';
import type { OddsStore, PriceChange } from '#engine/store.ts';
import { toPriceDto } from '../views.ts';
import type { Change } from './change-log.ts';

/** The stream's `price` change for a price the store accepted; undefined when its event is no longer held. */
export function priceChange(store: OddsStore, change: PriceChange): Change | undefined {
  const event = store.event(change.eventId);
  if (!event) return undefined;
  const { spec, price } = change;
  return {
    kind: 'price',
    eventId: change.eventId,
    league: event.league,
    marketType: spec.type,
    books: [price.book],
    data: {
      event_id: change.eventId,
      league: event.league,
      market: {
        key: change.marketKey,
        type: spec.type,
        period: spec.period,
        point: spec.point,
        label: marketLabel(spec),
      },
      outcome: price.outcome,
      name: outcomeLabel(event, spec, price.outcome),
      price: toPriceDto(price),
    },
  };
}

import type { EvPriceDto } from '#domain/schemas/api/ev.ts';
import type { MiddleDto } from '#domain/schemas/api/middles.ts';
import type { EvRow } from '#engine/values/ev.ts';
import type { MiddleRow } from '#engine/values/middles.ts';
import type { ValueChanges } from '#engine/values/scanner.ts';
import { evPriceDto } from '#domain/ev-dto.ts';
import { middleDto } from '#domain/middle-dto.ts';
import type { Change } from './change-log.ts';
import { marketFacts } from './market-facts.ts';

// The stream's positive-EV and middles changes (decision 170): what the engine's value scan added, changed or removed
// on a tick, as `ev` / `ev_removed` and `middle` / `middle_removed` entries, keyed by the rows' stable ids. A row is
// sent as GET /v1/ev and GET /v1/middles show it, without the ages (`age_seconds`), which only an answer's instant
// gives.

export function evData(row: EvRow): { key: string; ev: Omit<EvPriceDto, 'price'> & { price: object } } {
  const dto = evPriceDto(row);
  const { age_seconds: _age, ...price } = dto.price;
  return { key: row.id, ev: { ...dto, price } };
}

export function middleData(row: MiddleRow): { key: string; middle: object } {
  const dto = middleDto(row);
  const side = (s: MiddleDto['high']) => {
    const { age_seconds: _age, ...price } = s.price;
    return { ...s, price };
  };
  return { key: row.id, middle: { ...dto, high: side(dto.high), low: side(dto.low) } };
}

/** The entries of one scan: new and changed rows, then removed ones; positive EV first, then middles. */
export function valueChanges(changes: ValueChanges): Change[] {
  const out: Change[] = [];
  for (const row of changes.ev) out.push(evChange('ev', row, evData(row)));
  for (const row of changes.evRemoved)
    out.push(evChange('ev_removed', row, { key: row.id, event_id: row.eventId }));
  for (const row of changes.middles) out.push(middleChange('middle', row, middleData(row)));
  for (const row of changes.middlesRemoved)
    out.push(middleChange('middle_removed', row, { key: row.id, event_id: row.eventId }));
  return out;
}

// Every filter of the stream applies to these as to prices (issue 56): the market's type, period, stat and player.
function evChange(kind: 'ev' | 'ev_removed', row: EvRow, data: unknown): Change {
  return {
    kind,
    eventId: row.eventId,
    league: row.league,
    ...marketFacts(row.market),
    books: [row.book],
    data,
  };
}

function middleChange(kind: 'middle' | 'middle_removed', row: MiddleRow, data: unknown): Change {
  // Both sides are of one market type, period, stat and player (one line each).
  return {
    kind,
    eventId: row.eventId,
    league: row.league,
    ...marketFacts(row.high.market),
    books: row.books,
    data,
  };
}

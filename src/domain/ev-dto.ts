import { floorTo } from '#domain/arbitrage.ts';
import { EV_METHOD, EV_REFERENCE, publishedEvPct, publishedFairProbability } from '#domain/ev.ts';
import { toEventDto } from '#domain/event-dto.ts';
import { specLabel, specOutcomeLabel } from '#domain/market-labels.ts';
import { formatAmerican, formatAmericanAtMost } from '#domain/odds.ts';
import type { EvPriceDto } from '#domain/schemas/api/ev.ts';
import { ageSeconds, type PositiveEvPrice } from '#domain/values.ts';

// A positive-EV price as GET /v1/ev, the stream's `ev` events and the public page's feed show it (issue 58: the
// engine judges domain values, the server maps them). Built on first read and kept with the price's object: most
// judged prices are never answered, and an answered one is shown again while its market is not judged again (its age,
// counted to the instant it was judged at, is counted to a board's instant by `evPriceDtoAt`, on a copy).

const dtos = new WeakMap<PositiveEvPrice, EvPriceDto>();

export function evPriceDto(price: PositiveEvPrice): EvPriceDto {
  let dto = dtos.get(price);
  if (dto === undefined) dtos.set(price, (dto = buildEvPriceDto(price)));
  return dto;
}

function buildEvPriceDto(price: PositiveEvPrice): EvPriceDto {
  const { event, market, book, american, decimal, updatedAt, fairProbability, fairSource: source } = price;
  const outcome = market.outcomes[price.outcomeIndex]!;
  return {
    id: `${market.key}|${outcome}|${book}`,
    event: toEventDto(event),
    market: {
      key: market.key,
      type: market.spec.type,
      period: market.spec.period,
      point: market.spec.point,
      label: specLabel(market.spec, market.player),
    },
    outcome: { outcome, name: specOutcomeLabel(event, market.spec, outcome, market.player) },
    book,
    price: {
      american: formatAmerican(american),
      decimal,
      updated_at: new Date(updatedAt).toISOString(),
      age_seconds: ageSeconds(price.instant, updatedAt),
      links: { desktop: price.desktop, mobile: price.mobile },
    },
    fair: {
      probability: publishedFairProbability(fairProbability),
      decimal: floorTo(1 / fairProbability, 4),
      american: formatAmericanAtMost(1 / fairProbability),
      books: price.fairBooks,
      method: source?.method ?? EV_METHOD,
      reference: source?.reference ?? EV_REFERENCE,
      reference_fallback: source?.fallback ?? null,
    },
    ev_pct: publishedEvPct(decimal, fairProbability),
  };
}

/**
 * The price's DTO with its `age_seconds` counted to `at` (a board's instant, decision 273): the kept DTO when that is
 * its age already, else a copy (the kept one is shared with the stream's sets and is not changed).
 */
export function evPriceDtoAt(price: PositiveEvPrice, at: number): EvPriceDto {
  const dto = evPriceDto(price);
  const age = ageSeconds(at, price.updatedAt);
  return dto.price.age_seconds === age ? dto : { ...dto, price: { ...dto.price, age_seconds: age } };
}

import { toEventDto, toPlayerDto } from '#domain/event-dto.ts';
import { specOutcomeLabel } from '#domain/market-labels.ts';
import type { GameMarketSpec, LeagueKey, OddsEvent } from '#domain/markets.ts';
import {
  DEFAULT_CENTRE_SOURCE,
  middleGap,
  middleModel,
  middleReturns,
  middleStakesCents,
  publishedPct,
  type CentreSource,
  type MiddleVariable,
} from '#domain/middles.ts';
import { formatAmerican, roundTo } from '#domain/odds.ts';
import { propStatLabel } from '#domain/props.ts';
import type { MiddleDto } from '#domain/schemas/api/middles.ts';
import { ageSeconds, type MiddlePair, type MiddleQuote } from '#domain/values.ts';

// A middle as GET /v1/middles, the stream's `middle` events and the public page's feed show it (issue 58: the engine
// judges domain values, the server maps them). Built on first read and kept with the middle's object: most judged
// middles are never answered.

/** The example total the answer's stakes are split for (the page computes the visitor's own). */
const STAKE_EXAMPLE_CENTS = 10_000;

const dtos = new WeakMap<MiddlePair, MiddleDto>();

export function middleDto(middle: MiddlePair): MiddleDto {
  let dto = dtos.get(middle);
  if (dto === undefined) dtos.set(middle, (dto = buildMiddleDto(middle)));
  return dto;
}

/**
 * The middle's DTO with its sides' `age_seconds` counted to `at` (a board's instant, decision 273): the kept DTO when
 * those are its ages already, else a copy (the kept one is shared with the stream's sets and is not changed).
 */
export function middleDtoAt(middle: MiddlePair, at: number): MiddleDto {
  const dto = middleDto(middle);
  const high = ageSeconds(at, middle.high.updatedAt);
  const low = ageSeconds(at, middle.low.updatedAt);
  if (dto.high.price.age_seconds === high && dto.low.price.age_seconds === low) return dto;
  return {
    ...dto,
    high: { ...dto.high, price: { ...dto.high.price, age_seconds: high } },
    low: { ...dto.low, price: { ...dto.low.price, age_seconds: low } },
  };
}

function buildMiddleDto(row: MiddlePair): MiddleDto {
  const { event, variable, instant, published, ev } = row;
  const league = event.league as LeagueKey;
  const { high, low } = row;
  const dh = high.decimal;
  const dl = low.decimal;
  const returns = middleReturns(dh, dl);
  const gap = middleGap(high.line, low.line);
  const [highCents, lowCents] = middleStakesCents(STAKE_EXAMPLE_CENTS, dh, dl);
  const returnsPct = {
    middle: publishedPct(returns.hit),
    push_high: publishedPct(returns.pushHigh),
    push_low: publishedPct(returns.pushLow),
    miss: publishedPct(returns.miss),
  };
  const spec = high.market.spec;
  const player = high.market.player;
  const market: MiddleDto['market'] =
    spec.type === 'prop'
      ? {
          type: 'prop',
          period: spec.period,
          variable: 'stat',
          stat: spec.stat,
          label: propStatLabel(player ?? { name: spec.playerId }, spec),
          player: toPlayerDto(player ?? { id: spec.playerId, name: spec.playerId, team: '' }, event),
        }
      : {
          type: row.type as 'spread' | 'total',
          period: 'full',
          variable: variable as MiddleVariable,
          label: row.type === 'spread' ? 'Spread' : 'Total',
        };
  return {
    id: row.id,
    event: toEventDto(event),
    market,
    high: middleSide(event, high, instant, returns.stakeShareHigh),
    low: middleSide(event, low, instant, 1 - returns.stakeShareHigh),
    gap: { from: gap[0]!, to: gap[gap.length - 1]! },
    pushes: {
      high: Number.isInteger(high.line) ? high.line : null,
      low: Number.isInteger(low.line) ? low.line : null,
    },
    probability: {
      middle: published.middle,
      push_high: published.pushHigh,
      push_low: published.pushLow,
      miss: published.miss,
    },
    returns_pct: returnsPct,
    worst_case_pct: Math.min(returnsPct.middle, returnsPct.push_high, returnsPct.push_low, returnsPct.miss),
    ev_pct: publishedPct(ev),
    stakes: { total_cents: STAKE_EXAMPLE_CENTS, high_cents: highCents, low_cents: lowCents },
    model: row.propModel ?? middleModel(league),
    centre: roundTo(row.centre, 2),
    centre_from: centreFrom(row.source ?? DEFAULT_CENTRE_SOURCE),
  };
}

const centreFrom = (source: CentreSource): MiddleDto['centre_from'] => ({
  method: source.method,
  reference: source.reference,
  reference_fallback: source.fallback,
});

function middleSide(event: OddsEvent, quote: MiddleQuote, instant: number, share: number): MiddleDto['high'] {
  const { market } = quote;
  const outcome = market.outcomes[quote.outcome]!;
  return {
    book: quote.book,
    market_key: market.key,
    point: (market.spec as GameMarketSpec).point!,
    outcome: { outcome, name: specOutcomeLabel(event, market.spec, outcome, market.player) },
    line: quote.line,
    price: {
      american: formatAmerican(quote.american),
      decimal: quote.decimal,
      updated_at: new Date(quote.updatedAt).toISOString(),
      age_seconds: ageSeconds(instant, quote.updatedAt),
      links: { desktop: quote.desktop, mobile: quote.mobile },
    },
    stake_share: roundTo(share, 6),
  };
}

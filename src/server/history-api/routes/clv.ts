import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clvPct } from '#domain/history.ts';
import { americanToDecimal, roundTo, type AmericanOdds } from '#domain/odds.ts';
import { API_FEATURES } from '#domain/plans.ts';
import { ProblemSchema } from '#domain/schemas/api/common.ts';
import {
  ClvRequestSchema,
  ClvResponseSchema,
  type ClvBet,
  type ClvResult,
} from '#domain/schemas/api/history.ts';
import type { HistoryEvent, HistorySeries } from '../../history/service.ts';
import { requireFeature } from '../../odds-api/auth.ts';
import {
  chooseMarket,
  fairChoice,
  type FairChoice,
  iso,
  linePrice,
  marketFair,
  matchesChoice,
  preMatchOpening,
  READ_BUDGET_PROBLEM,
  ReadGuard,
} from '../history-reads.ts';
import { COMMON_ERRORS, security, tags } from '../../odds-api/routes/common.ts';

// POST /v1/clv (Elite, Enterprise): closing and opening line value of up to 100 bets against the fair closing and
// opening probabilities of their market (decision 114). Percentages are rounded to 3 places, probabilities to 6. A
// batch is read in two statements and weighs one request per started 10 bets in the quota (decision 147).

interface Loaded {
  event: HistoryEvent;
  series: HistorySeries[];
}

/** Bets one request stands for in the quota: a call counts as one request per started 10 bets (1 to 10). */
export const CLV_BETS_PER_REQUEST = 10;

/** The weight of a POST /v1/clv call, from its body before validation (an invalid one is weighed as what it sent). */
export function clvCost(body: unknown): number {
  const bets = (body as { bets?: unknown } | null | undefined)?.bets;
  const count = Array.isArray(bets) ? bets.length : 0;
  return Math.min(10, Math.max(1, Math.ceil(count / CLV_BETS_PER_REQUEST)));
}

export async function clvRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const referenceBook = app.config.CLV_REFERENCE_BOOK;

  function assess(bet: ClvBet, index: number, loaded: Loaded | null, fair: FairChoice): ClvResult {
    const decimal =
      bet.price !== undefined ? americanToDecimal(bet.price as AmericanOdds) : bet.decimal_odds!;
    const result: ClvResult = {
      index,
      event_id: bet.event_id,
      market: null,
      outcome: bet.outcome,
      book: bet.book ?? null,
      placed_at: bet.placed_at === undefined ? null : iso(Date.parse(bet.placed_at)),
      decimal_odds: decimal,
      status: 'unknown_event',
      reference: null,
      opening_reference: null,
      closing: null,
      fair_opening_probability: null,
      fair_closing_probability: null,
      fair_opening: null,
      fair_closing: null,
      clv_pct: null,
      olv_pct: null,
      olv_reason: null,
    };
    if (!loaded) return result;
    const isKey = bet.market.includes('|');
    const choice = chooseMarket(bet.event_id, bet.market, {
      line: isKey ? undefined : bet.line,
      period: isKey ? undefined : (bet.period ?? 'full'),
    });
    const candidates = loaded.series.filter(
      (row) =>
        (choice.filter.marketKey !== undefined
          ? row.marketKey === choice.filter.marketKey
          : row.marketType === choice.filter.marketType) && matchesChoice(row, choice),
    );
    const mine = candidates.find((row) => row.outcome === bet.outcome);
    if (!mine) {
      result.status = 'unknown_market';
      return result;
    }
    const market = candidates.filter((row) => row.marketKey === mine.marketKey);
    result.market = mine.marketKey;
    // Only openings recorded at or before the start are opening lines; a price first seen in play gives no OLV
    // (docs/decisions/161).
    const opening = marketFair(market, preMatchOpening(loaded.event), fair);
    const pOpen = opening?.exact.get(bet.outcome);
    if (opening && pOpen !== undefined) {
      result.opening_reference = opening.dto.reference;
      result.fair_opening = opening.dto;
      result.fair_opening_probability = roundTo(pOpen, 6);
      // The additive method gives 0 to an outcome priced below its share of the margin: no value to measure.
      if (pOpen > 0) result.olv_pct = roundTo(clvPct(decimal, pOpen), 3);
      else result.olv_reason = 'zero_fair_probability';
    } else {
      const inPlay = marketFair(market, (row) => row.opening, fair);
      result.olv_reason = inPlay ? 'opening_in_play' : 'no_opening_line';
    }
    if (loaded.event.closedAt === null) {
      result.status = 'pending';
      return result;
    }
    if (bet.book !== undefined) {
      const atBook = market.find((row) => row.outcome === bet.outcome && row.book === bet.book);
      result.closing = atBook?.closing ? linePrice(atBook.closing) : null;
    }
    const closing = marketFair(market, (row) => row.closing, fair);
    const pClose = closing?.exact.get(bet.outcome);
    if (!closing || pClose === undefined) {
      result.status = 'no_closing_line';
      return result;
    }
    result.reference = closing.dto.reference;
    result.fair_closing = closing.dto;
    result.fair_closing_probability = roundTo(pClose, 6);
    if (!(pClose > 0)) {
      result.status = 'zero_fair_probability';
      return result;
    }
    result.status = 'ok';
    result.clv_pct = roundTo(clvPct(decimal, pClose), 3);
    return result;
  }

  routes.post(
    '/clv',
    {
      config: { requestCost: (request) => clvCost(request.body) },
      schema: {
        tags,
        security,
        summary:
          'Closing and opening line value of your bets (Elite, Enterprise; one request per started 10 bets)',
        description:
          'Up to 100 bets; a call counts as one request per started 10 bets against the per-minute quota (1–10 bets: 1, 11–20: 2, …, 91–100: 10), and a call that does not fit in what is left is refused (429, `request_cost`) and not charged. For each: the closing price at its book (when `book` is given), the fair closing and opening probabilities of the outcome, from `reference` and by `devig` as in /v1/events/{eventId}/lines (defaults: the server’s `CLV_REFERENCE_BOOK`, `sharp` unless configured otherwise, and `shin`; docs/decisions/164), with the whole market’s fair in `fair_closing` and `fair_opening` (reference, fallback, method, books and inputs), `clv_pct = (bet decimal × fair closing probability − 1) × 100` and `olv_pct`, the same against the fair opening probability (from openings recorded at or before the start only: a price first seen after it is an in-play price, and a market with no other gives `olv_pct: null` with `olv_reason: "opening_in_play"`). The bet’s decimal odds are its own (`price` +150 → 2.5 exactly), not the book’s. Percentages are rounded to 3 places, probabilities to 6; every figure can be recomputed from /v1/events/{eventId}/lines. `status` says when a figure cannot exist yet (`pending`) or at all. A player prop is named by its market key from /v1/odds (`<event>|prop|player_points|full|<player>|27.5`): its fair probabilities come from its over and under (or yes and no) prices, as a game line’s do; the market-type shorthand (`market` with `line`) is for game lines only.',
        body: ClvRequestSchema,
        response: {
          200: ClvResponseSchema.describe(
            'One result per bet, in the order sent: its closing price, fair probabilities, `clv_pct` and `olv_pct`, or a `status` saying why not.',
          ),
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `plans` names the plans that include it, `required_plan` the cheapest.',
          ),
          503: READ_BUDGET_PROBLEM,
        },
      },
    },
    async (request, reply) => {
      requireFeature(request, API_FEATURES.closingLines);
      const guard = new ReadGuard(request, reply, now);
      const { bets } = request.body;
      const choice = fairChoice(referenceBook, request.body);
      // Two statements for the whole batch, however many events it names: the events, then every series of the
      // markets the bets name (by key, or by type for the shorthand), grouped here by event.
      guard.check();
      const events = await app.history.events(bets.map((bet) => bet.event_id));
      const keys = new Set<string>();
      const types = new Set<string>();
      for (const bet of bets) {
        if (!events.has(bet.event_id)) continue;
        const choice = chooseMarket(bet.event_id, bet.market);
        if (choice.filter.marketKey !== undefined) keys.add(choice.filter.marketKey);
        if (choice.filter.marketType !== undefined) types.add(choice.filter.marketType);
      }
      let series: HistorySeries[] = [];
      if (events.size > 0) {
        guard.check();
        series = await app.history.series([...events.keys()], {
          markets: { keys: [...keys], types: [...types] },
        });
      }
      const loaded = new Map<string, Loaded>(
        [...events].map(([id, event]) => [id, { event, series: [] as HistorySeries[] }]),
      );
      for (const row of series) loaded.get(row.eventId)?.series.push(row);
      const results = bets.map((bet, index) => assess(bet, index, loaded.get(bet.event_id) ?? null, choice));
      return { reference_book: referenceBook, reference: choice.reference, devig: choice.method, results };
    },
  );
}

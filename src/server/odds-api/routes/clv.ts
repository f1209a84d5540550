import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clvPct } from '#domain/history.ts';
import { americanToDecimal, roundTo, type AmericanOdds } from '#domain/odds.ts';
import { API_FEATURES } from '#domain/plans.ts';
import {
  ClvRequestSchema,
  ClvResponseSchema,
  ProblemSchema,
  type ClvBet,
  type ClvResult,
} from '#domain/schemas/api.ts';
import type { HistoryEvent, HistorySeries } from '../../history/service.ts';
import { requireFeature } from '../auth.ts';
import { chooseMarket, iso, linePrice, marketFair, matchesChoice } from '../history-reads.ts';
import { COMMON_ERRORS, security, tags } from './common.ts';

// POST /v1/clv (Elite, Enterprise): closing and opening line value of up to 100 bets against the fair closing and
// opening probabilities of their market (decision 114). Percentages are rounded to 3 places, probabilities to 6.

interface Loaded {
  event: HistoryEvent;
  series: HistorySeries[];
}

export async function clvRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const referenceBook = app.config.CLV_REFERENCE_BOOK;

  function assess(bet: ClvBet, index: number, loaded: Loaded | null): ClvResult {
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
      clv_pct: null,
      olv_pct: null,
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
    const opening = marketFair(market, (row) => row.opening, referenceBook);
    const pOpen = opening?.exact.get(bet.outcome);
    if (opening && pOpen !== undefined && pOpen > 0) {
      result.opening_reference = opening.dto.reference;
      result.fair_opening_probability = roundTo(pOpen, 6);
      result.olv_pct = roundTo(clvPct(decimal, pOpen), 3);
    }
    if (loaded.event.closedAt === null) {
      result.status = 'pending';
      return result;
    }
    if (bet.book !== undefined) {
      const atBook = market.find((row) => row.outcome === bet.outcome && row.book === bet.book);
      result.closing = atBook?.closing ? linePrice(atBook.closing) : null;
    }
    const closing = marketFair(market, (row) => row.closing, referenceBook);
    const pClose = closing?.exact.get(bet.outcome);
    if (!closing || pClose === undefined || !(pClose > 0)) {
      result.status = 'no_closing_line';
      return result;
    }
    result.status = 'ok';
    result.reference = closing.dto.reference;
    result.fair_closing_probability = roundTo(pClose, 6);
    result.clv_pct = roundTo(clvPct(decimal, pClose), 3);
    return result;
  }

  routes.post(
    '/clv',
    {
      schema: {
        tags,
        security,
        summary: 'Closing and opening line value of your bets (Elite, Enterprise)',
        description:
          'Up to 100 bets. For each: the closing price at its book (when `book` is given), the fair closing and opening probabilities of the outcome (the reference book, `CLV_REFERENCE_BOOK`, de-vigged multiplicatively from its closing or opening prices when it priced every outcome, otherwise the median implied probability per outcome across books, normalised), `clv_pct = (bet decimal × fair closing probability − 1) × 100` and `olv_pct`, the same against the fair opening probability. The bet’s decimal odds are its own (`price` +150 → 2.5 exactly), not the book’s. Percentages are rounded to 3 places, probabilities to 6; every figure can be recomputed from /v1/events/{eventId}/lines. `status` says when a figure cannot exist yet (`pending`) or at all. A player prop is named by its market key from /v1/odds (`<event>|prop|player_points|full|<player>|27.5`): its fair probabilities come from its over and under (or yes and no) prices, as a game line’s do; the market-type shorthand (`market` with `line`) is for game lines only.',
        body: ClvRequestSchema,
        response: {
          200: ClvResponseSchema,
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            'Not in your plan (`plan-feature`); `plans` names the plans that include it, `required_plan` the cheapest.',
          ),
        },
      },
    },
    async (request) => {
      requireFeature(request, API_FEATURES.closingLines);
      const { bets } = request.body;
      const loads = new Map<string, Promise<Loaded | null>>();
      const load = (eventId: string) => {
        let pending = loads.get(eventId);
        if (!pending) {
          pending = (async () => {
            const event = await app.history.event(eventId);
            return event ? { event, series: await app.history.series(eventId) } : null;
          })();
          loads.set(eventId, pending);
        }
        return pending;
      };
      const results: ClvResult[] = [];
      for (const [index, bet] of bets.entries()) results.push(assess(bet, index, await load(bet.event_id)));
      return { reference_book: referenceBook, results };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  betClvPct,
  gradeGameMarket,
  GradingInputError,
  settle,
  settleParlay,
  type GameResult,
  type GradeResult,
} from '#domain/grading.ts';
import type { OutcomeKey, Period } from '#domain/markets.ts';
import { americanToDecimal, roundTo, type AmericanOdds, type Cents } from '#domain/odds.ts';
import { API_FEATURES, includes } from '#domain/plans.ts';
import { ProblemSchema } from '#domain/schemas/api/common.ts';
import {
  GradeRequestSchema,
  GradeResponseSchema,
  ScoresQuerySchema,
  ScoresResponseSchema,
  type GradeBet,
  type GradeResponse,
} from '#domain/schemas/api/scores.ts';
import type { GameScore } from '#engine/scores.ts';
import type { HistoryEvent, HistorySeries } from '../../history/service.ts';
import { requireFeature } from '../auth.ts';
import {
  chooseMarket,
  fairChoice,
  marketFair,
  matchesChoice,
  READ_BUDGET_PROBLEM,
  ReadGuard,
} from '../history-reads.ts';
import { clvCost } from './clv.ts';
import { COMMON_ERRORS, security, tags } from './common.ts';

// GET /v1/scores and POST /v1/grade (issue 57; Pro, Elite, Enterprise). Scores come from the engine's scoreboard (live
// games and finals of the last three days); grading reads the final from the odds history (the engine's scoreboard
// while the history has not written it yet) and the closing lines from the history, as POST /v1/clv does. The rules
// are src/domain/grading.ts, written out in docs/grading.md.

const iso = (ms: number) => new Date(ms).toISOString();

function scoreDto(score: GameScore) {
  return {
    event_id: score.eventId,
    league: score.league,
    home_team: score.home.name,
    away_team: score.away.name,
    commence_time: iso(score.startsAt),
    status: score.status,
    score: score.score,
    periods: { ...score.periods, full: score.score },
    clock: score.clock,
    updated_at: iso(score.updatedAt),
    completed_at: score.completedAt === null ? null : iso(score.completedAt),
  };
}

type Leg = GradeBet['legs'][number];
type Graded = GradeResponse['results'][number];
type GradedLeg = Graded['legs'][number];

export async function scoresRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const choice = fairChoice(app.config.CLV_REFERENCE_BOOK, {});

  routes.get(
    '/scores',
    {
      schema: {
        tags,
        security,
        summary: 'Recent results (every plan) and live scores (Pro, Elite, Enterprise)',
        description:
          'Every game finished in the last three days with its final, period by period, as bets settle on it (docs/grading.md), on every plan; and, on the plans with live scores and bet grading, every game in play with its score, periods and clock (`includes_live` says which). Filter by `league`, `status` (`live` or `final`; `live` on a plan without live scores is a 403) or `event_id`. Live games first, then finals, most recently changed first.',
        querystring: ScoresQuerySchema,
        response: {
          200: ScoresResponseSchema.describe(
            'The scores that match, live games first, then the latest finals.',
          ),
          ...COMMON_ERRORS,
          403: ProblemSchema.describe(
            '`status=live` on a plan without live scores (`plan-feature`); `plans` names the plans that include it, `required_plan` the cheapest.',
          ),
        },
      },
    },
    async (request) => {
      // Finals are every plan's (the free bet tracker has them: decisions 210, 256); live games are the feature's.
      const live = includes(request.apiKey!.plan, API_FEATURES.scoresAndGrading);
      if (request.query.status === 'live') requireFeature(request, API_FEATURES.scoresAndGrading);
      const { league, status = live ? undefined : 'final', event_id: eventId } = request.query;
      const scores = app.engine.scores
        .list()
        .filter(
          (score) =>
            (league === undefined || score.league === league) &&
            (status === undefined || score.status === status) &&
            (eventId === undefined || score.eventId === eventId),
        )
        .sort((a, b) => (a.status !== b.status ? (a.status === 'live' ? -1 : 1) : b.updatedAt - a.updatedAt));
      return { includes_live: live, scores: scores.map(scoreDto) };
    },
  );

  /** The final of an event: the history's, else the engine's scoreboard's; null while not final. */
  function finalOf(eventId: string, event: HistoryEvent | undefined): GameResult | null {
    if (event?.finalScore) return { periods: event.finalScore };
    const held = app.engine.scores.get(eventId);
    return held?.status === 'final' ? { periods: { ...held.periods, full: held.score } } : null;
  }

  function gradeLeg(
    leg: Leg,
    events: Map<string, HistoryEvent>,
    series: HistorySeries[],
  ): GradedLeg & { grade: GradeResult | null } {
    const event = events.get(leg.event_id);
    const out = {
      event_id: leg.event_id,
      status: 'unknown_event' as GradedLeg['status'],
      result: null as GradeResult | null,
      fair_closing_probability: null as number | null,
      grade: null as GradeResult | null,
    };
    if (!event && !app.engine.scores.get(leg.event_id) && !app.engine.store.event(leg.event_id)) return out;
    const period = (leg.period ?? 'full') as Period;
    const spec = { type: leg.market, period, point: leg.line ?? null };
    if (event) {
      const picked = chooseMarket(leg.event_id, leg.market, { line: spec.point ?? undefined, period });
      const market = series.filter(
        (row) => row.eventId === leg.event_id && row.marketType === leg.market && matchesChoice(row, picked),
      );
      const first = market.find((row) => row.outcome === leg.outcome);
      const closing = first
        ? marketFair(
            market.filter((row) => row.marketKey === first.marketKey),
            (row) => row.closing,
            choice,
          )
        : null;
      const p = closing?.exact.get(leg.outcome);
      if (p !== undefined && p > 0) out.fair_closing_probability = roundTo(p, 6);
    }
    const final = finalOf(leg.event_id, event);
    if (!final) {
      out.status = 'pending';
      return out;
    }
    try {
      out.grade = gradeGameMarket(spec, leg.outcome as OutcomeKey, final);
    } catch (error) {
      if (!(error instanceof GradingInputError)) throw error;
      out.status = 'outcome_not_in_market';
      return out;
    }
    out.status = 'graded';
    out.result = out.grade;
    return out;
  }

  function gradeBet(
    bet: GradeBet,
    index: number,
    events: Map<string, HistoryEvent>,
    series: HistorySeries[],
  ): Graded {
    const decimal =
      bet.price !== undefined ? americanToDecimal(bet.price as AmericanOdds) : bet.decimal_odds!;
    const stake = Math.round(bet.stake * 100) as Cents;
    const legs = bet.legs.map((leg) => gradeLeg(leg, events, series));
    const out: Graded = {
      index,
      status: 'graded',
      result: null,
      decimal_odds: roundTo(decimal, 6),
      settled_decimal: null,
      stake: stake / 100,
      payout: null,
      profit: null,
      clv_pct: null,
      legs: legs.map(({ grade: _grade, ...leg }) => leg),
    };
    const fair = legs.map((leg) => leg.fair_closing_probability);
    if (!bet.same_game && fair.every((p): p is number => p !== null))
      out.clv_pct = roundTo(betClvPct(decimal, fair), 3);
    const bad = legs.find((leg) => leg.status === 'unknown_event' || leg.status === 'outcome_not_in_market');
    if (bad) {
      out.status = bad.status;
      return out;
    }
    const lost = legs.some((leg) => leg.grade === 'lost');
    if (!lost && legs.some((leg) => leg.status === 'pending')) {
      out.status = 'pending';
      return out;
    }
    if (legs.length === 1) {
      const settled = settle(stake, decimal, legs[0]!.grade!);
      out.result = legs[0]!.grade;
      out.settled_decimal = roundTo(decimal, 6);
      out.payout = settled.payout / 100;
      out.profit = settled.profit / 100;
      return out;
    }
    const parlay = settleParlay(
      stake,
      decimal,
      legs.map((leg, k) => {
        const price = bet.legs[k]!.price;
        return {
          result: leg.grade ?? 'lost',
          ...(price !== undefined ? { decimal: americanToDecimal(price as AmericanOdds) } : {}),
        };
      }),
      bet.same_game === true || bet.legs.some((leg) => leg.price === undefined),
    );
    out.result = parlay.result;
    out.settled_decimal = roundTo(parlay.settledDecimal, 6);
    out.payout = parlay.payout / 100;
    out.profit = parlay.profit / 100;
    return out;
  }

  routes.post(
    '/grade',
    {
      config: { requestCost: (request) => clvCost(request.body) },
      schema: {
        tags,
        security,
        summary:
          'Grade bets: result, payout, profit and CLV (Pro, Elite, Enterprise; one request per started 10 bets)',
        description:
          'Up to 100 bets, each a single (one leg) or a parlay (up to 12 legs; `same_game` for a same-game parlay). Each leg names a game line: `market`, `period` (default `full`), `line` (spreads: the home team’s line) and `outcome`. Each bet is graded by the rules of docs/grading.md (pushes, whole, half and quarter lines, periods, 1X2, parlays with pushed or void legs repriced) once every leg’s game is final, with its payout and profit (dollars, rounded down to the cent) and `clv_pct` against the fair closing probability (as POST /v1/clv, the server’s reference and devig). A bet whose game is not final is `pending`; a parlay with a lost leg is graded lost at once. Weighed like POST /v1/clv: one request per started 10 bets.',
        body: GradeRequestSchema,
        response: {
          200: GradeResponseSchema.describe(
            'One result per bet, in the order sent: its status, result, payout, profit and CLV.',
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
      requireFeature(request, API_FEATURES.scoresAndGrading);
      const guard = new ReadGuard(request, reply, now);
      const { bets } = request.body;
      const ids = [...new Set(bets.flatMap((bet) => bet.legs.map((leg) => leg.event_id)))];
      guard.check();
      const events = await app.history.events(ids);
      const types = [...new Set(bets.flatMap((bet) => bet.legs.map((leg) => leg.market)))];
      let series: HistorySeries[] = [];
      if (events.size > 0) {
        guard.check();
        series = await app.history.series([...events.keys()], { markets: { keys: [], types } });
      }
      return { results: bets.map((bet, index) => gradeBet(bet, index, events, series)) };
    },
  );
}

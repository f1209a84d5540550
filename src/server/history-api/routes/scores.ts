import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { closingProbability, type ClosingMarket } from '#domain/closing.ts';
import {
  betClvPct,
  findPlayer,
  gradeGameMarket,
  gradePropOnFinal,
  GradingInputError,
  settleTicket,
  unknownPlayerDetail,
  type BoxScore,
  type GameResult,
  type GradeResult,
} from '#domain/grading.ts';
import {
  isLeagueKey,
  type GameMarketSpec,
  type LeagueKey,
  type OutcomeKey,
  type Period,
} from '#domain/markets.ts';
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
import { boxScoreOf, MAX_FINALS, RECENT_FINAL_MS, type GameScore } from '#engine/scores.ts';
import { historyGameScore, type HistoryEvent, type HistorySeries } from '../../history/service.ts';
import { requireFeature } from '../../odds-api/auth.ts';
import { closingMarkets, fairChoice, READ_BUDGET_PROBLEM, ReadGuard } from '../history-reads.ts';
import { scoreDto } from '../../odds-api/views.ts';
import { HttpProblem } from '../../http/problem.ts';
import { finalCloses, startedCloses } from '../closes.ts';
import { clvCost } from './clv.ts';
import { COMMON_ERRORS, security, tags } from '../../odds-api/routes/common.ts';

// GET /v1/scores and POST /v1/grade (issue 57; Pro, Elite, Enterprise). Scores come from the engine's scoreboard (live
// games and finals of the last three days) and, for finals it does not hold, the odds history; grading reads the final from the odds history (the engine's scoreboard
// while the history has not written it yet) and the closing lines from the history, as POST /v1/clv does. The rules
// are src/domain/grading.ts, written out in docs/grading.md.

type Leg = GradeBet['legs'][number];
type Graded = GradeResponse['results'][number];
type GradedLeg = Graded['legs'][number];

/** How long the history's finals read for GET /v1/scores serve (as the results feed's answer). */
const HISTORY_FINALS_MS = 15_000;

export async function scoresRoutes(app: FastifyInstance, { now }: { now: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const choice = fairChoice(app.config.CLV_REFERENCE_BOOK, {});
  // The history's finals of the window, for the games this instance's scoreboard does not hold (an `api` instance, a
  // server started after they ended; decision 283), as the public results feed has them (decision 210: no plan gets
  // less than the free page): read at most every HISTORY_FINALS_MS, one read at a time; none while it cannot be read.
  let historyFinals: { until: number; scores: GameScore[] } | undefined;
  let reading: Promise<GameScore[]> | null = null;
  const finalsFromHistory = (at: number): Promise<GameScore[]> => {
    if (historyFinals && at < historyFinals.until) return Promise.resolve(historyFinals.scores);
    reading ??= app.history
      .finalsSince(at - RECENT_FINAL_MS, MAX_FINALS)
      .then(
        (finals) =>
          finals.flatMap((final) =>
            isLeagueKey(final.league) ? [historyGameScore({ ...final, league: final.league })] : [],
          ),
        (error: unknown) => {
          app.log.warn({ err: error }, 'scores: the history could not be read; the scoreboard only');
          return [];
        },
      )
      .then((scores) => {
        historyFinals = { until: at + HISTORY_FINALS_MS, scores };
        return scores;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  routes.get(
    '/scores',
    {
      schema: {
        tags,
        security,
        summary: 'Recent results (every plan) and live scores (Pro, Elite, Enterprise)',
        description:
          'Every game finished in the last three days with its final, period by period, as bets settle on it (docs/grading.md), and its box score where the source gives one (`players`: the figures of every player priced on, and who did not play), on every plan; and, on the plans with live scores and bet grading, every game in play with its score, periods and clock (`includes_live` says which). Filter by `league`, `status` (`live` or `final`; `live` on a plan without live scores is a 403) or `event_id`. Live games first, then finals, most recently changed first. With `event_id` and `closing=true`, a final carries `closing`, its fair close (each market a bet can be tracked on, as POST /v1/grade measures CLV against it), on every plan: the public bet tracker shows it (decision 289); so does a game in play once its closing lines are taken, on the plans that list games in play (decision 310).',
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
      const held = app.engine.scores.list();
      if (status !== 'live') {
        const ids = new Set(held.map((score) => score.eventId));
        for (const final of await finalsFromHistory(now())) if (!ids.has(final.eventId)) held.push(final);
      }
      const scores = held
        .filter(
          (score) =>
            (league === undefined || score.league === league) &&
            (status === undefined || score.status === status) &&
            (eventId === undefined || score.eventId === eventId),
        )
        .sort((a, b) => (a.status !== b.status ? (a.status === 'live' ? -1 : 1) : b.updatedAt - a.updatedAt));
      if (request.query.closing === undefined) return { includes_live: live, scores: scores.map(scoreDto) };
      // A final's fair close (decision 289), on every plan: the public bet tracker shows it (decision 210).
      if (eventId === undefined)
        throw new HttpProblem(400, 'invalid-request', 'Invalid request', '`closing=true` needs `event_id`.');
      const finals = scores.filter((score) => score.status === 'final').map((score) => score.eventId);
      const closes = await finalCloses(app, finals);
      // A game in play carries its close too, as the public close does (decision 310); on the plans that list it.
      const inPlay = scores.filter((score) => score.status === 'live').map((score) => score.eventId);
      if (inPlay.length > 0)
        for (const [id, close] of await startedCloses(app, inPlay, now())) closes.set(id, close);
      return {
        includes_live: live,
        scores: scores.map((score) => {
          const close = closes.get(score.eventId);
          return close ? { ...scoreDto(score), closing: close } : scoreDto(score);
        }),
      };
    },
  );

  /** A final as grading reads it: its score, whether it scores periods, its box score (null: the source gave none). */
  interface Final {
    result: GameResult;
    periodsReported: boolean;
    box: BoxScore | null;
  }

  /** The final of an event: the history's, else the engine's scoreboard's; null while not final. */
  function finalOf(eventId: string, event: HistoryEvent | undefined): Final | null {
    if (event?.finalScore)
      return {
        result: { periods: event.finalScore },
        periodsReported: event.periodsReported,
        box: event.boxScore,
      };
    const held = app.engine.scores.get(eventId);
    if (held?.status !== 'final') return null;
    return {
      result: { periods: { ...held.periods, full: held.score } },
      periodsReported: held.periodScores,
      box: held.players === null ? null : boxScoreOf(held.players),
    };
  }

  /**
   * The players a prop leg may name (id → name): the event's players priced in the history, on the scoreboard's final
   * and listed in its box score. A leg's player is found among them by id, or by name however it is written
   * (`findPlayer`); none, or two: `unknown_player`, said in `detail` with `near_players` (decision 297).
   */
  function playersOf(eventId: string, series: HistorySeries[], event?: HistoryEvent): Map<string, string> {
    const known = new Map<string, string>();
    for (const row of series)
      if (row.eventId === eventId && row.player) known.set(row.player.id, row.player.name);
    for (const player of app.engine.scores.get(eventId)?.players ?? []) known.set(player.id, player.name);
    for (const id of Object.keys(event?.boxScore ?? {})) if (!known.has(id)) known.set(id, '');
    return known;
  }

  function gradeLeg(
    leg: Leg,
    events: Map<string, HistoryEvent>,
    series: HistorySeries[],
    closes: Map<string, ClosingMarket[]>,
  ): Omit<GradedLeg, 'clv_pct'> & { grade: GradeResult | null } {
    const event = events.get(leg.event_id);
    const out = {
      event_id: leg.event_id,
      status: 'unknown_event' as GradedLeg['status'],
      result: null as GradeResult | null,
      fair_closing_probability: null as number | null,
      grade: null as GradeResult | null,
    };
    const league = (event?.league ??
      app.engine.scores.get(leg.event_id)?.league ??
      app.engine.store.event(leg.event_id)?.league) as LeagueKey | undefined;
    if (league === undefined) return out;
    const period = (leg.period ?? 'full') as Period;
    const point = leg.line ?? null;
    let playerId: string | undefined;
    if (leg.market === 'prop') {
      const players = playersOf(leg.event_id, series, event);
      playerId = findPlayer(leg.player!, players);
      if (playerId === undefined) {
        const unknown = unknownPlayerDetail(leg.player!, players);
        out.status = 'unknown_player';
        return { ...out, detail: unknown.detail, near_players: unknown.near };
      }
    }
    // The fair close as the public GET /tools/closing.json carries it, found as the bet tracker finds it (decision 289).
    const p = closingProbability(closes.get(leg.event_id) ?? [], {
      market: leg.market,
      period,
      line: point,
      outcome: leg.outcome,
      ...(playerId !== undefined ? { stat: leg.stat, playerId } : {}),
    });
    if (p !== null) out.fair_closing_probability = p;
    const final = finalOf(leg.event_id, event);
    if (!final) {
      out.status = 'pending';
      return out;
    }
    const outcome = leg.outcome as OutcomeKey;
    try {
      if (playerId !== undefined) {
        const spec = { type: 'prop', stat: leg.stat!, period, playerId, point } as const;
        out.grade = gradePropOnFinal(league, spec, outcome, final.box);
        if (out.grade === null) {
          out.status = 'not_graded';
          return out;
        }
      } else {
        if (!final.periodsReported && period !== 'full') {
          out.status = 'not_graded';
          return out;
        }
        const type = leg.market as GameMarketSpec['type'];
        out.grade = gradeGameMarket({ type, period, point }, outcome, final.result);
      }
    } catch (error) {
      if (!(error instanceof GradingInputError)) throw error;
      out.status = 'outcome_not_in_market';
      return out;
    }
    out.status = 'graded';
    out.result = out.grade;
    return out;
  }

  /** A leg's own decimal price, when it was sent with one. */
  const legPrice = (leg: Leg): number | undefined =>
    leg.price !== undefined ? americanToDecimal(leg.price as AmericanOdds) : leg.decimal_odds;

  function gradeBet(
    bet: GradeBet,
    index: number,
    events: Map<string, HistoryEvent>,
    series: HistorySeries[],
    closes: Map<string, ClosingMarket[]>,
  ): Graded {
    const decimal =
      bet.price !== undefined ? americanToDecimal(bet.price as AmericanOdds) : bet.decimal_odds!;
    const stake = Math.round(bet.stake * 100) as Cents;
    const legs = bet.legs.map((leg) => gradeLeg(leg, events, series, closes));
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
      // Each leg's own CLV against its own price (a single's: the bet's), as the ticket's (decision 297).
      legs: legs.map(
        ({ grade: _grade, event_id, status, result, fair_closing_probability: p, ...said }, k) => {
          const price = bet.legs.length === 1 ? decimal : legPrice(bet.legs[k]!);
          const clv = price !== undefined && p !== null ? roundTo(betClvPct(price, [p]), 3) : null;
          return { event_id, status, result, fair_closing_probability: p, clv_pct: clv, ...said };
        },
      ),
    };
    const fair = legs.map((leg) => leg.fair_closing_probability);
    if (!bet.same_game && fair.every((p): p is number => p !== null))
      out.clv_pct = roundTo(betClvPct(decimal, fair), 3);
    const bad = legs.find(
      (leg) =>
        leg.status === 'unknown_event' ||
        leg.status === 'unknown_player' ||
        leg.status === 'outcome_not_in_market',
    );
    if (bad) {
      out.status = bad.status;
      if (bad.detail !== undefined)
        out.detail = bet.legs.length > 1 ? `Leg ${legs.indexOf(bad) + 1}: ${bad.detail}` : bad.detail;
      return out;
    }
    const lost = legs.some((leg) => leg.grade === 'lost');
    const waiting = lost
      ? undefined
      : legs.find((leg) => leg.status === 'pending' || leg.status === 'not_graded');
    if (waiting) {
      out.status = legs.some((leg) => leg.status === 'pending') ? 'pending' : waiting.status;
      return out;
    }
    const parlay = settleTicket(
      stake,
      decimal,
      legs.map((leg, k) => {
        const price = legPrice(bet.legs[k]!);
        return { result: leg.grade, ...(price !== undefined ? { decimal: price } : {}) };
      }),
      bet.same_game === true,
    )!;
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
          'Up to 100 bets, each a single (one leg) or a parlay (up to 12 legs; `same_game` for a same-game parlay). Each leg names a game line (`market`, `period` (default `full`), `line` (spreads: the home team’s line) and `outcome`) or a player prop (`market: prop`, `stat`, `player` by id or name, `period`, `line` for over/under, `outcome`: `over`/`under` or `yes`/`no`). Each bet is graded by the rules of docs/grading.md (pushes, whole, half and quarter lines, periods, 1X2, props void for a player who did not play, parlays with pushed or void legs repriced) once every leg’s game is final, with its payout and profit (dollars, rounded down to the cent) and `clv_pct` against the fair closing probability (as POST /v1/clv, the server’s reference and devig). A bet whose game is not final is `pending`; one the source gives no result for is `not_graded` (a prop without player figures, or a period of a game scored only as a whole, as The Odds API’s); a parlay with a lost leg is graded lost at once. Weighed like POST /v1/clv: one request per started 10 bets.',
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
      const closes = closingMarkets(series, choice);
      return { results: bets.map((bet, index) => gradeBet(bet, index, events, series, closes)) };
    },
  );
}

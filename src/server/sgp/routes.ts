import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { formatAmericanAtMost } from '#domain/odds.ts';
import { API_FEATURES } from '#domain/plans.ts';
import { ProblemSchema } from '#domain/schemas/api/common.ts';
import { SgpRequestSchema, SgpResponseSchema, type SgpRequest } from '#domain/schemas/api/sgp.ts';
import { bookSgpDecimal, calibrateSgp, jointProbability, sgpMargin, type SgpModelLeg } from '#domain/sgp.ts';
import { SGP_BOOKS } from '#engine/sources/simulation/models.ts';
import { describeError } from '../http/log-safe.ts';
import { HttpProblem } from '../http/problem.ts';
import { requireFeature } from '../odds-api/auth.ts';
import { COMMON_ERRORS, eventNotFound, security, tags } from '../odds-api/routes/common.ts';
import { fairChoice } from '../history-api/history-reads.ts';
import { CalibrationCache, priceParlay, resolveLegs } from './sgp-pricing.ts';

// POST /v1/sgp (Elite, Enterprise; issue 16, decisions 127–129): prices a same-game parlay of 2–10 legs. In this order:
// the plan (403), the body (400), the credit (402 when the month's are spent: nothing is priced, decision 203), the
// event (404), the legs (422), the price. A refusal after the credit gives it back, so only a priced answer spends
// one. Every answer to a known key carries X-SGP-Credits-Remaining.

export const SGP_CREDITS_HEADER = 'x-sgp-credits-remaining';

/**
 * The reference page's worked example, computed by the model and the simulator's FanDuel schedule at startup, so the
 * numbers shown are the numbers the API gives for those inputs.
 */
function workedExample(): string {
  const legs: SgpModelLeg[] = [
    { variable: { kind: 'margin', period: 'full' }, side: 'high', line: 4.5, probability: 0.52 },
    { variable: { kind: 'total', period: 'full' }, side: 'high', line: 221.5, probability: 0.5 },
    {
      variable: { kind: 'player', playerId: 'tatum', team: 'home', stat: 'player_points', period: 'full' },
      side: 'high',
      line: 27.5,
      probability: 0.48,
    },
  ];
  const joint = jointProbability(calibrateSgp('nba', 0.64), legs);
  const naive = 0.52 * 0.5 * 0.48;
  const schedule = SGP_BOOKS.get('fanduel')!;
  const single = 1 + 100 / 110;
  const book = bookSgpDecimal(
    joint,
    3,
    schedule,
    { legDecimals: [single, single, single], oppositeDecimals: [single, single, single] },
    naive,
  );
  const american = formatAmericanAtMost;
  return `Worked example (Celtics 64 % to win): Celtics −4.5 (fair 0.52), over 221.5 (0.50) and Jayson Tatum over 27.5 points (0.48). Independent, that is 0.52 × 0.50 × 0.48 = ${naive.toFixed(4)} (decimal ${(1 / naive).toFixed(2)}). Tatum's points rise with the Celtics' score, which rises with both their margin and the total, so the legs win together more often: the model gives ${joint.toFixed(4)} (decimal ${(1 / joint).toFixed(2)}, ${american(1 / joint)}; \`correlation_ratio\` ${(joint / naive).toFixed(2)}). A book with FanDuel's schedule in the simulator (its ${(schedule.perLeg * 100).toFixed(1)} % a leg compounded, plus a ${(schedule.premium * 100).toFixed(0)} % premium: ${(sgpMargin(schedule, 3) * 100).toFixed(1)} % for 3 legs) pays ${book.toFixed(2)} (${american(book)}), less than its three −110 singles parlayed at ${(single ** 3).toFixed(2)}.`;
}

export async function sgpRoutes(app: FastifyInstance, options: { now?: () => number }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const now = options.now ?? Date.now;
  const calibrations = new CalibrationCache();

  /** The parlay on the live board now: 404 for an event gone, 422 for legs it cannot price. */
  function price(body: SgpRequest) {
    const at = now();
    const eventState = app.engine.store.eventState(body.event_id);
    if (!eventState) throw eventNotFound(body.event_id);
    const choice = fairChoice(app.config.CLV_REFERENCE_BOOK, body);
    const legs = resolveLegs(app.engine.store, eventState, body.legs, at, choice);
    const calibration = calibrations.get(eventState, at, choice);
    const priced = priceParlay(
      calibration,
      eventState,
      legs,
      app.oddsSource.sgp,
      body.books ? new Set(body.books) : undefined,
      app.oddsSource.name,
      at,
    );
    return { ...priced, reference: choice.reference, devig: choice.method };
  }

  /** The header on answers that did not set it (refusals before the spend): the key's remaining credits. */
  async function creditsHeader(request: FastifyRequest, reply: FastifyReply) {
    if (reply.hasHeader(SGP_CREDITS_HEADER) || !request.apiKey) return;
    const usage = await app.sgpCredits.usage(request.apiKey);
    reply.header(SGP_CREDITS_HEADER, String(usage.remaining));
  }

  routes.post(
    '/sgp',
    {
      schema: {
        tags,
        security,
        summary: 'Price a same-game parlay',
        description: [
          'Prices 2 to 10 legs of one event as a same-game parlay (Elite and Enterprise; one credit per priced request, 10,000 or 100,000 a calendar month, UTC).',
          '',
          'Each leg’s fair probability comes from the books’ current prices of its market, from `reference` and by `devig` as in /v1/events/{eventId}/lines (defaults: the server’s `CLV_REFERENCE_BOOK`, `sharp` unless configured otherwise, and `shin`; docs/decisions/164); each leg’s `fair` gives the whole market’s, with its inputs. The legs of one game are correlated (a team’s moneyline and spread strongly, a favourite and the over mildly, a player’s stats with his team’s score and the game total): `fair` is the joint probability from the correlation model (soccer: from a Dixon–Coles goals model fitted to the match’s fair 1X2 and its total nearest 2.5, summing the score grid, with anytime scorers tied to their team’s goals, whenever every leg is a full-game 1X2, spread, total or anytime scorer of a known team; NFL, NBA, NCAAB, NHL and MLB: two or more full-game spread, moneyline or total legs are summed over the league’s fitted final margin and total distributions, each leg keeping its own fair probability, a whole line’s push counted as grading settles it (the pushed leg dropped and the ticket repriced by its price), and any other legs joined to them by the correlation model; `fair.model` names the model), `naive` the product of the legs as if independent, and `correlation_ratio` the one over the other. `prices` are the books that would offer the parlay now, each with its own margin for that many legs (`margin_pct`), never above what its single legs would allow.',
          '',
          workedExample(),
          '',
          'Refused without spending a credit: legs that cannot all win together (both sides of a market, an over and an under of one stat whose lines leave no room, a leg of another event: 422 `sgp-conflicting-legs`, naming the legs in `legs`), unknown markets or sides and legs no book offers now (422), a prop key whose player part is no player of the event (422 `sgp-unknown-player`: `detail` says whom it may mean and `near_players` lists them, at most 3, `{ id, name }`, found as POST /v1/grade finds them; the player part may be his id or his name however it is written, as a grade leg’s `player`), an unknown or finished event (404). When the month’s credits are spent: 402 `sgp-credits-exhausted` with `resets_at`, whatever the legs (the credits are checked before the parlay is priced).',
        ].join('\n'),
        body: SgpRequestSchema,
        response: {
          200: SgpResponseSchema.describe(
            "The parlay's fair price, each leg's fair probability, each book's price for it and the credits left; one credit spent.",
          ),
          402: ProblemSchema.describe(
            'No credits left this month (`sgp-credits-exhausted`); see `resets_at`.',
          ),
          403: ProblemSchema.describe(
            'The plan has no same-game parlays (`plan-feature`): Elite and Enterprise do.',
          ),
          404: ProblemSchema.describe('No current event with this id (`event-not-found`).'),
          422: ProblemSchema.describe(
            'Legs that cannot be combined (`sgp-conflicting-legs`), an unknown market or side (`sgp-invalid-leg`), a prop key naming no player of the event (`sgp-unknown-player`, with `near_players`: the players it may mean, as POST /v1/grade’s `unknown_player`), or a leg no book offers now (`sgp-leg-not-offered`); `legs` lists the legs (0-based).',
          ),
          ...COMMON_ERRORS,
        },
      },
      // The answer is built here from checked parts (legs, the model's numbers, the ledger's): it is serialised as it
      // is, not re-validated against its schema on every priced request (the schema still documents it, and the route
      // tests parse every answer with it).
      serializerCompiler: () => (data) => JSON.stringify(data),
      onSend: async (request, reply, payload) => {
        await creditsHeader(request, reply);
        return payload;
      },
    },
    async (request, reply) => {
      requireFeature(request, API_FEATURES.sameGameParlays);
      const key = request.apiKey!;
      const body = request.body;
      // The credit first (issue 55, decision 203): a key with none left costs no pricing; a refusal below (404, 422)
      // gives the credit back.
      const spend = await app.sgpCredits.spendFor(
        key,
        () => price(body),
        (error) => request.log.error({ error: describeError(error) }, 'sgp credit not given back'),
      );
      reply.header(SGP_CREDITS_HEADER, String(spend.remaining));
      const resetsAt = spend.resetsAt.toISOString();
      if (!spend.spent) {
        if (spend.reason === 'not-in-plan') requireFeature(request, API_FEATURES.sameGameParlays);
        throw new HttpProblem(
          402,
          'sgp-credits-exhausted',
          'No same-game-parlay credits left',
          `This key has used its ${spend.limit.toLocaleString('en-US')} same-game-parlay credits for ${spend.month}; they reset at ${resetsAt}.`,
          { limit: spend.limit, used: spend.used, remaining: 0, resets_at: resetsAt },
        );
      }
      app.usage.sgpCredit(key.ledgerId);
      return {
        ...spend.value,
        credits: { used: spend.used, remaining: spend.remaining, resets_at: resetsAt },
      };
    },
  );
}

import { awaitsClose, gradeableByApi, gradeRequestBet, type TrackedBet } from '#domain/bet-tracker.ts';
import { GRADE_RESULTS, type GradeResult } from '#domain/grading.ts';
import { fetchWithKey, KeyedFeedError } from '#web/lib/keyed-fetch.ts';

// The bet tracker with a key (decisions 213, 257): the same bets graded by POST /v1/grade (payout, profit and CLV
// against the fair close), up to 100 a request: singles on game lines and props, and parlays (their legs' own prices
// sent where known, decision 282). Only bets whose every game has an event id can be sent (none typed by hand); the
// key goes only in X-Api-Key.

export const GRADE_BATCH = 100;

interface GradedAnswer {
  status: string;
  result: string | null;
  payout: number | null;
  profit: number | null;
  clv_pct: number | null;
  legs?: { status: string; result: string | null; fair_closing_probability: number | null }[];
}

function isResult(value: string | null): value is GradeResult {
  return value !== null && (GRADE_RESULTS as readonly string[]).includes(value);
}

/**
 * The bets after the API graded them: a graded bet's settlement is the API's (its CLV included); a bet still pending
 * keeps its state. Sent: the open bets, those the results settled, and the parlays the API settled before their other
 * games ended (`awaitsClose`: their CLV waits on those games' closes, decision 297). Returns the new list and how many
 * bets the API graded.
 */
export async function gradeWithKey(
  bets: readonly TrackedBet[],
  key: string,
  now: () => string = () => new Date().toISOString(),
): Promise<{ bets: TrackedBet[]; graded: number; sent: number }> {
  const at = Date.parse(now());
  const send = bets.filter(
    (bet) =>
      gradeableByApi(bet) &&
      (bet.settlement === null ||
        bet.settlement.settled_by === 'results' ||
        (bet.settlement.settled_by === 'api' && awaitsClose(bet, at))),
  );
  const byId = new Map<string, TrackedBet>();
  for (let start = 0; start < send.length; start += GRADE_BATCH) {
    const batch = send.slice(start, start + GRADE_BATCH);
    const { body } = await fetchWithKey('/v1/grade', key, undefined, { bets: batch.map(gradeRequestBet) });
    let answer: { results?: GradedAnswer[] };
    try {
      answer = JSON.parse(body) as { results?: GradedAnswer[] };
    } catch {
      throw new KeyedFeedError('The grading answer could not be read.', 200);
    }
    batch.forEach((bet, index) => {
      const graded = answer.results?.[index];
      if (!graded || graded.status !== 'graded' || !isResult(graded.result)) return;
      if (graded.payout === null || graded.profit === null) return;
      // A parlay's legs take the API's results where it graded them (a leg after a lost one may be unknown), with
      // their fair close, as the results keep a leg's once its game is final (decision 297).
      const legs = bet.legs?.map((leg, k) => {
        const answered = graded.legs?.[k];
        const result = answered?.result ?? null;
        if (!answered || answered.status !== 'graded' || !isResult(result)) return leg;
        return { ...leg, result, closing_probability: answered.fair_closing_probability };
      });
      byId.set(bet.id, {
        ...bet,
        ...(legs ? { legs } : {}),
        settlement: {
          result: graded.result,
          payout: Math.round(graded.payout * 100),
          profit: Math.round(graded.profit * 100),
          clv_pct: graded.clv_pct,
          settled_at: bet.settlement?.settled_at ?? now(),
          settled_by: 'api',
        },
      });
    });
  }
  return { bets: bets.map((bet) => byId.get(bet.id) ?? bet), graded: byId.size, sent: send.length };
}

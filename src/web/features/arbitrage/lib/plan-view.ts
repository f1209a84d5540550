import { formatDelay } from '#domain/plans.ts';
import type { KeyedView } from '../api/get-arbs.ts';

// What the arbitrage page says of a pasted key's plan (decisions 213, 225): its view in the key box, and which rows
// come late (the arbs above the free cap on a delayed plan, decision 210), which the table marks.

/** What the page says the key's plan shows. */
export function planViewText(plan: KeyedView): string {
  if (plan.delaySeconds === 0 || plan.delayedAboveEdgePct === null) return 'every arb in real time';
  return `arbs up to ${plan.delayedAboveEdgePct}% edge in real time, above it ${formatDelay(plan.delaySeconds)} late`;
}

/**
 * How late (s) the key's plan shows an arb of this edge: its delay for an arb above the free cap on a delayed plan,
 * else null (real time: the free part on every plan, every arb on a real-time plan, the public feed's arbs).
 */
export function lateSeconds(edgePct: number, plan: KeyedView | undefined): number | null {
  if (!plan || plan.delaySeconds === 0 || plan.delayedAboveEdgePct === null) return null;
  return edgePct > plan.delayedAboveEdgePct ? plan.delaySeconds : null;
}

/** The late badge's words: "2 minutes late". */
export function lateText(seconds: number): string {
  return `${formatDelay(seconds)} late`;
}

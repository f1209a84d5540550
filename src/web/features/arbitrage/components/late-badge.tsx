import { FREE_PLAN } from '#domain/plans.ts';
import { lateText } from '../lib/plan-view.ts';

// A row a pasted key's plan shows late (decision 225): an arb above the free cap on a delayed plan is as it was the
// plan's delay ago, so its prices may be gone. Rows in real time carry no mark.

export function lateNote(seconds: number): string {
  return `Your plan shows arbs above ${FREE_PLAN.finders.arbEdgeCapPct}% edge ${lateText(seconds)}: these prices may have moved or be gone`;
}

export function LateBadge({ seconds }: { seconds: number }) {
  const note = lateNote(seconds);
  return (
    <span
      data-testid="late-badge"
      title={note}
      className="cursor-help whitespace-nowrap rounded bg-sky-300 px-1.5 text-[11px] font-bold uppercase tracking-wide text-slate-950"
    >
      {lateText(seconds)}
      <span className="sr-only">: {note}</span>
    </span>
  );
}

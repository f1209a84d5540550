// An arb the engine flagged `suspect`: its edge is above the engine's ceiling (ARB_MAX_EDGE_PCT, 10 % unless the
// operator changed it), which real markets almost never offer; it is usually a stale or mistyped price
// (docs/decisions/065).
export const SUSPECT_NOTE =
  'Edge above the plausible ceiling (10 % by default): probably a stale or wrong price; check before betting';

export function SuspectBadge() {
  return (
    <span
      title={SUSPECT_NOTE}
      className="cursor-help rounded bg-amber-300 px-1.5 text-[11px] font-bold uppercase tracking-wide text-slate-950"
    >
      Suspect
      <span className="sr-only">: {SUSPECT_NOTE}</span>
    </span>
  );
}

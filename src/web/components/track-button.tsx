import { useMemo } from 'react';
import type { TrackedBet } from '#domain/bet-tracker.ts';
import { ROUTES } from '#domain/site.ts';
import { cn } from '#web/lib/cn.ts';
import { trackedBets, trackKey, useTrackedBets } from '#web/lib/tracked-bets.ts';

// "Track" on a row of the arbitrage, positive-EV and middles pages (issue 57): adds the row's bets (an arb's or a
// middle's legs, grouped) to the bet tracker in this browser. Once they are there the button is a link to the tracker.
// A row without a gradeable leg (a player prop) has no button: `canTrack` is false.

const base =
  'inline-flex h-8 items-center rounded-md border px-2.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300';

export function TrackButton({
  build,
  keys,
  what,
  className,
}: {
  /** The row's bets, made when the button is pressed (stakes and instant as then). */
  build: () => TrackedBet[];
  /** The row's `trackKey`s (empty: nothing to track, no button). */
  keys: readonly string[];
  /** What is tracked, for screen readers: "Boston Celtics @ Los Angeles Lakers, Spread". */
  what: string;
  className?: string;
}) {
  const bets = useTrackedBets();
  const tracked = useMemo(() => {
    if (keys.length === 0) return false;
    const held = new Set(bets.map(trackKey));
    return keys.every((key) => held.has(key));
  }, [bets, keys]);
  if (keys.length === 0) return null;
  if (tracked)
    return (
      <a
        href={ROUTES.betTracker}
        data-track="tracked"
        aria-label={`Tracked: ${what}. Open the bet tracker`}
        className={cn(
          base,
          'border-emerald-700 bg-emerald-950/60 text-emerald-200 hover:bg-emerald-900',
          className,
        )}
      >
        Tracked
      </a>
    );
  return (
    <button
      type="button"
      data-track="track"
      aria-label={`Track ${what} in the bet tracker`}
      onClick={() => trackedBets.add(build())}
      className={cn(base, 'border-slate-700 bg-slate-900 text-slate-200 hover:bg-slate-800', className)}
    >
      Track
    </button>
  );
}

import { useId } from 'react';
import type { ProfitPoint } from '#domain/bet-tracker.ts';
import { signedDollars } from '#web/lib/finder-view.ts';

// The cumulative profit line (issue 57): one step per settled bet, in the order they settled, drawn as an SVG (no
// chart library). The picture is described in words for screen readers: its title, and the first, lowest, highest
// and last figures.

const W = 640;
const H = 200;
const PAD = { left: 8, right: 8, top: 12, bottom: 12 };

export function ProfitChart({ curve }: { curve: readonly ProfitPoint[] }) {
  const id = useId();
  if (curve.length === 0)
    return (
      <p className="rounded-lg border border-slate-800 bg-slate-900/60 px-3 py-6 text-center text-sm text-slate-400">
        The cumulative profit line appears once a bet is settled.
      </p>
    );
  const values = [0, ...curve.map((point) => point.profit)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const x = (index: number) =>
    PAD.left + (index / Math.max(values.length - 1, 1)) * (W - PAD.left - PAD.right);
  const y = (value: number) => PAD.top + ((high - value) / span) * (H - PAD.top - PAD.bottom);
  const path = values.map(
    (value, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(value).toFixed(1)}`,
  );
  const last = curve[curve.length - 1]!.profit;
  const description = `After ${curve.length} settled ${curve.length === 1 ? 'bet' : 'bets'}: ${signedDollars(last)}. Lowest ${signedDollars(low)}, highest ${signedDollars(high)}.`;
  return (
    <figure className="rounded-lg border border-slate-800 bg-slate-900/60 p-3">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-semibold text-white">Cumulative profit</span>
        <span className="text-xs text-slate-400">
          {signedDollars(high)} high · {signedDollars(low)} low
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="mt-2 h-40 w-full sm:h-52"
        preserveAspectRatio="none"
      >
        <title id={`${id}-title`}>Cumulative profit of the settled bets</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <line
          x1={PAD.left}
          x2={W - PAD.right}
          y1={y(0)}
          y2={y(0)}
          stroke="currentColor"
          className="text-slate-600"
          strokeDasharray="4 4"
          vectorEffect="non-scaling-stroke"
        />
        <path
          d={path.join(' ')}
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          className={last >= 0 ? 'text-emerald-400' : 'text-red-400'}
          vectorEffect="non-scaling-stroke"
          strokeLinejoin="round"
        />
      </svg>
      <p className="mt-1 text-xs text-slate-400">{description} The dashed line is $0.</p>
    </figure>
  );
}

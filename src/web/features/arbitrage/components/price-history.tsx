import { lazy } from 'react';
import { cn } from '#web/lib/cn.ts';
import { FoldChevron } from '#web/ui/fold-chevron.tsx';

// An arb row's price history (issue 13): a toggle in the row and a panel under it. The panel (its own chunk) fetches
// the teaser and loads the chart module (uPlot and the chart component, another chunk) together, only once it is
// opened: the page's initial JavaScript carries only this file (docs/decisions/112-price-history-chart.md).

function ChartIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className="h-3.5 w-3.5"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M1.5 13.5h13M2.5 10l3.5-3.5 3 2.5 4.5-5" />
    </svg>
  );
}

export function PriceHistoryButton({
  open,
  controls,
  onToggle,
}: {
  open: boolean;
  controls: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      onClick={onToggle}
      className={cn(
        'mt-2 inline-flex h-8 items-center gap-1.5 rounded-md border px-2.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300',
        open
          ? 'border-emerald-400/60 bg-emerald-400/10 text-emerald-100'
          : 'border-slate-700 bg-slate-900 text-slate-200 hover:bg-slate-800',
      )}
    >
      <ChartIcon />
      Price history
      <FoldChevron open={open} />
    </button>
  );
}

/** The panel, in a chunk of its own: loaded when a row's history is first opened. */
export const PriceHistoryPanel = lazy(() => import('./price-history-panel.tsx'));

/** What the row shows while the panel's chunk loads (the panel's own loading state). */
export function PriceHistoryLoading() {
  return (
    <p role="status" className="py-4 text-sm text-slate-400">
      Loading price history...
    </p>
  );
}

import type { Arb } from '#domain/schemas/feed.ts';
import { useHistory } from '../api/get-history.ts';
import type { OddsFormat } from '../lib/tool-settings.ts';
import { PriceHistoryLoading } from './price-history.tsx';

// The price-history panel under an arb row (issue 13), loaded with React.lazy when a row's history is first opened:
// it fetches the teaser and the chart module (uPlot, a chunk of its own) together.

const loadChart = () => import('./price-history-chart.tsx');

export default function PriceHistoryPanel({
  id,
  arb,
  oddsFormat,
}: {
  id: string;
  arb: Arb;
  oddsFormat: OddsFormat;
}) {
  const query = useHistory(arb, loadChart);
  const { away, home } = arb.event.teams;
  let body;
  if (query.data) {
    const Chart = query.data.module.PriceHistoryChart;
    body = <Chart arb={arb} history={query.data.history} oddsFormat={oddsFormat} />;
  } else if (query.isError) {
    body = (
      <p role="alert" className="flex flex-wrap items-center gap-3 py-4 text-sm text-slate-300">
        Price history unavailable
        <button
          type="button"
          onClick={() => void query.refetch()}
          className="rounded-md border border-slate-600 px-2 py-1 text-xs font-medium text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300"
        >
          Try again
        </button>
      </p>
    );
  } else {
    body = <PriceHistoryLoading />;
  }
  return (
    <section
      id={id}
      aria-label={`Price history: ${away.name} @ ${home.name}, ${arb.market}`}
      className="min-h-24"
    >
      {body}
    </section>
  );
}

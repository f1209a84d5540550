import { useId } from 'react';
import { USAGE_FAMILIES, type UsageFamily } from '#domain/usage.ts';
import type { UsageResponse } from '#domain/schemas/api/account.ts';
import { formatCount, formatDay } from '../lib/account-text.ts';
import { usageChart } from '../lib/usage-chart.ts';

// Requests per day for the last 30 days (decision 156): an SVG bar chart drawn here (no chart library), named and
// summed up for screen readers (role="img" with a title and a description), a visible total, and every day's
// numbers in a table under "Show the numbers".

/** The route families of GET /v1/me/usage (`src/domain/usage.ts`), in words. */
const FAMILY_NAMES: Record<UsageFamily, string> = {
  odds: 'Odds',
  arbs: 'Arbs',
  ev: 'Positive EV',
  middles: 'Middles',
  events: 'Events and leagues',
  history: 'History and CLV',
  sgp: 'Same-game parlays',
  stream: 'Stream connections',
  // The account's own calls are free and no longer counted (decision 218): only days before that show any.
  account: 'Account calls (counted before they became free)',
  other: 'Other',
};

export function familyName(family: UsageFamily): string {
  return FAMILY_NAMES[family];
}

/** Requests of each family over the days, largest first, families with none left out. */
export function familyTotals(days: UsageResponse['days']): { family: UsageFamily; requests: number }[] {
  const totals = new Map<UsageFamily, number>();
  for (const day of days)
    for (const family of USAGE_FAMILIES)
      totals.set(family, (totals.get(family) ?? 0) + day.by_family[family]);
  return [...totals]
    .filter(([, requests]) => requests > 0)
    .map(([family, requests]) => ({ family, requests }))
    .sort((a, b) => b.requests - a.requests);
}

export function chartSummary(usage: UsageResponse): string {
  const { total, busiest } = usageChart(usage.days);
  const first = usage.days[0];
  const last = usage.days.at(-1);
  if (!first || !last) return 'No days to show.';
  const span = `from ${formatDay(first.date)} to ${formatDay(last.date, true)}`;
  if (!busiest) return `No requests ${span}.`;
  return `${formatCount(total)} request${total === 1 ? '' : 's'} ${span}; the busiest day was ${formatDay(busiest.date)} with ${formatCount(busiest.requests)}.`;
}

export function UsageChart({ usage }: { usage: UsageResponse }) {
  const id = useId();
  const chart = usageChart(usage.days);
  const days = usage.days;
  const streamMinutes = days.reduce((sum, day) => sum + day.stream_minutes, 0);
  const credits = days.reduce((sum, day) => sum + day.sgp_credits, 0);
  const families = familyTotals(days);
  const middle = days[Math.floor((days.length - 1) / 2)];
  return (
    <div>
      <p className="flex flex-wrap items-baseline gap-x-2 text-white">
        <span className="text-3xl font-extrabold tracking-tight" data-testid="usage-total">
          {formatCount(chart.total)}
        </span>
        <span className="text-slate-300">requests in the last {days.length} days</span>
      </p>
      <div className="mt-5 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2">
        <div
          aria-hidden="true"
          className="flex h-44 flex-col-reverse justify-between text-right text-xs tabular-nums text-slate-400"
        >
          {chart.ticks.map((tick) => (
            <span key={tick} className="-my-2 leading-4">
              {formatCount(tick)}
            </span>
          ))}
        </div>
        <svg
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          viewBox={`0 0 ${chart.width} ${chart.height}`}
          preserveAspectRatio="none"
          className="h-44 w-full overflow-visible"
        >
          <title id={`${id}-title`}>Requests per day, last {days.length} days</title>
          <desc id={`${id}-desc`}>{chartSummary(usage)}</desc>
          {chart.ticks.map((tick) => {
            const y = chart.height - (tick / chart.max) * chart.height;
            return (
              <line
                key={tick}
                x1={0}
                x2={chart.width}
                y1={y}
                y2={y}
                stroke="currentColor"
                className={tick === 0 ? 'text-slate-500' : 'text-slate-800'}
                vectorEffect="non-scaling-stroke"
              />
            );
          })}
          {chart.bars.map((bar) => (
            <rect
              key={bar.date}
              data-date={bar.date}
              data-value={bar.value}
              x={bar.x}
              y={bar.y}
              width={bar.width}
              height={bar.height}
              rx={1}
              className="fill-emerald-400 hover:fill-emerald-200"
            >
              <title>{`${formatDay(bar.date)}: ${formatCount(bar.value)} request${bar.value === 1 ? '' : 's'}`}</title>
            </rect>
          ))}
        </svg>
        <div aria-hidden="true" className="col-start-2 mt-1 flex justify-between text-xs text-slate-400">
          <span>{days[0] ? formatDay(days[0].date) : ''}</span>
          <span>{middle ? formatDay(middle.date) : ''}</span>
          <span>{days.at(-1) ? `${formatDay(days.at(-1)!.date)} (UTC)` : ''}</span>
        </div>
      </div>
      <dl className="mt-5 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-400">Stream minutes</dt>
          <dd className="font-semibold text-white">{formatCount(streamMinutes)}</dd>
        </div>
        <div>
          <dt className="text-slate-400">SGP credits spent</dt>
          <dd className="font-semibold text-white">{formatCount(credits)}</dd>
        </div>
      </dl>
      {families.length > 0 ? (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-white">By kind of request</h3>
          <ul className="mt-2 flex flex-wrap gap-2 text-sm">
            {families.map(({ family, requests }) => (
              <li key={family} className="rounded-full border border-slate-700 px-3 py-1 text-slate-200">
                {familyName(family)} <span className="font-semibold text-white">{formatCount(requests)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <details className="mt-5 rounded-lg border border-slate-800 bg-slate-950/40">
        <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-emerald-300 hover:text-emerald-200">
          Show the numbers for each day
        </summary>
        <div className="overflow-x-auto px-4 pb-4">
          <table className="w-full text-left text-sm tabular-nums">
            <caption className="sr-only">
              Requests, stream minutes and SGP credits per day (UTC), oldest first
            </caption>
            <thead className="text-slate-400">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Day (UTC)
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Requests
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Stream minutes
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  SGP credits
                </th>
              </tr>
            </thead>
            <tbody className="text-slate-200">
              {days.map((day) => (
                <tr key={day.date} className="border-t border-slate-800">
                  <th scope="row" className="py-1.5 pr-4 font-normal">
                    {formatDay(day.date)}
                  </th>
                  <td className="py-1.5 pr-4 text-right">{formatCount(day.requests)}</td>
                  <td className="py-1.5 pr-4 text-right">{formatCount(day.stream_minutes)}</td>
                  <td className="py-1.5 text-right">{formatCount(day.sgp_credits)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="text-white">
              <tr className="border-t border-slate-600">
                <th scope="row" className="py-2 pr-4 font-semibold">
                  Total
                </th>
                <td className="py-2 pr-4 text-right font-semibold">{formatCount(chart.total)}</td>
                <td className="py-2 pr-4 text-right font-semibold">{formatCount(streamMinutes)}</td>
                <td className="py-2 text-right font-semibold">{formatCount(credits)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </details>
    </div>
  );
}

import { useId, useState, type ReactNode } from 'react';
import { CALIBRATION_CACHE_MS } from '#domain/calibration.ts';
import type { CalibrationGroup, CalibrationReport } from '#domain/schemas/calibration.ts';
import { hoursAndMinutes, simulatedGameSpan } from '#domain/simulated-games.ts';
import { ROUTES } from '#domain/site.ts';
import { bookName, SelectFilter } from '#web/components/finder.tsx';
import { useCalibration } from '../api/get-calibration.ts';

// The calibration report page (issue 57, decision 266, docs/calibration.md): how closing fair probabilities did
// against graded results, per league and market type: a summary of every group, then the chosen group's reliability
// chart and table (forecasts binned by fair probability: the mean forecast against the share that won) and the Brier
// score and log loss of our fair odds against each book's own de-vigged close, on the same forecasts.

const MARKET_NAMES: Record<string, string> = {
  moneyline: 'Moneyline',
  spread: 'Spread',
  total: 'Total',
  '1x2': '1X2',
};

const METHOD_NAMES: Record<string, string> = {
  shin: 'Shin’s method',
  multiplicative: 'dividing by the sum of the implied probabilities',
  additive: 'the additive method',
  power: 'the power method',
};

const groupName = (group: CalibrationGroup) =>
  `${group.league_name} ${MARKET_NAMES[group.market_type] ?? group.market_type}`;
const groupKey = (group: CalibrationGroup) => `${group.league}|${group.market_type}`;
/** The demo simulator's shortest and longest game: when its first results can come (decision 306). */
const GAME_SPAN = simulatedGameSpan();
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const fixed = (x: number) => x.toFixed(4);

export function CalibrationReportPage() {
  const titleId = useId();
  const { data, isPending, refetch } = useCalibration();
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-6 sm:py-8" aria-labelledby={titleId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 id={titleId} className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            Calibration report
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-400">
            How well our fair odds forecast results. Every game line of a finished game is graded; each
            outcome that won or lost is one forecast, with our fair probability at the close (margin removed)
            and each sportsbook&apos;s own closing price, margin removed, scored against what happened.
          </p>
        </div>
        <div className="flex min-h-[3.125rem] flex-col items-end gap-1 text-right">
          {data ? <ReportStatus report={data} /> : null}
        </div>
      </div>
      <p
        role="note"
        className="mt-4 rounded-lg border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-100"
      >
        <strong className="font-semibold">Lower is better</strong> for the Brier score (mean squared error,
        0.25 for a coin flip at 50%) and the log loss (0.693 at 50%). A well-calibrated forecast wins as often
        as it says: in the chart its points sit on the diagonal. Small samples wander; the forecast counts are
        shown beside every figure.
      </p>
      <div className="mt-4 min-h-[50vh]">
        {isPending ? (
          <p role="status" className="px-4 py-16 text-center text-slate-300">
            Loading the report…
          </p>
        ) : !data ? (
          <div
            role="alert"
            className="rounded-lg border border-red-500/40 bg-red-500/10 px-4 py-10 text-center"
          >
            <h2 className="text-lg font-semibold text-white">Error Loading Data</h2>
            <p className="mt-2 text-sm text-slate-300">The report could not be loaded.</p>
            <button
              type="button"
              className="mt-4 rounded-md bg-emerald-400 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-emerald-300"
              onClick={() => void refetch()}
            >
              Try again
            </button>
          </div>
        ) : data.groups.length === 0 ? (
          <NoResultsYet report={data} />
        ) : (
          <Report report={data} />
        )}
      </div>
    </section>
  );
}

/**
 * The report before any game has finished (a fresh data folder: decision 298): what it will show, when, and why not yet,
 * rather than a table of noughts.
 */
function NoResultsYet({ report }: { report: CalibrationReport }) {
  return (
    <div role="status" className="mx-auto max-w-2xl px-4 py-10 text-slate-300">
      <h2 className="text-lg font-semibold text-white">No graded games yet</h2>
      <p className="mt-2">
        A game is graded once it has ended: each of its game lines, priced at the close (just before the
        start), is scored against the final score. No game in this server&apos;s odds history for the last{' '}
        {report.window_days} days has both its closing prices and its final score yet, so there is nothing to
        score.
      </p>
      {report.demo ? (
        <p className="mt-2">
          Here the prices are the demo simulator&apos;s: it plays each league&apos;s games on their usual days
          and local start times, in real time. The first results come when the first games it priced before
          their start have ended, {hoursAndMinutes(GAME_SPAN.shortest)} to{' '}
          {hoursAndMinutes(GAME_SPAN.longest)} after that start (at night, US time, that can be the next day).
          The{' '}
          <a className="text-emerald-300 underline underline-offset-2" href={ROUTES.arbitrage}>
            arbitrage finder&apos;s Live tab
          </a>{' '}
          lists the arbs of the games in play now.
        </p>
      ) : (
        <p className="mt-2">
          The first results come when the first games this server priced before their start have ended and the
          odds source has reported their final scores.
        </p>
      )}
      <p className="mt-2">The report is worked out again every {CALIBRATION_CACHE_MS / 60_000} minutes.</p>
    </div>
  );
}

function ReportStatus({ report }: { report: CalibrationReport }) {
  const asOf = new Date(report.as_of * 1000);
  return (
    <>
      {report.demo ? (
        <p className="inline-flex flex-wrap items-baseline gap-x-2 rounded-md border border-amber-400/50 text-left bg-amber-400/10 px-2.5 py-1 text-sm font-semibold text-amber-200">
          Demo data
          <span className="font-normal text-amber-100/90">
            simulated games: this checks the simulator is consistent
          </span>
        </p>
      ) : null}
      <p className="text-xs text-slate-400">
        {report.events === 0 ? 'No finished games yet' : `${report.events.toLocaleString()} finished games`},
        last {report.window_days} days · as of{' '}
        <time dateTime={asOf.toISOString()}>{asOf.toLocaleTimeString()}</time>
      </p>
    </>
  );
}

function Report({ report }: { report: CalibrationReport }) {
  const [chosen, setChosen] = useState(groupKey(report.groups[0]!));
  const group = report.groups.find((g) => groupKey(g) === chosen) ?? report.groups[0]!;
  return (
    <div className="flex flex-col gap-8">
      <p className="text-sm text-slate-300">
        Our fair probability: the {report.fair.reference} reference, de-vigged by{' '}
        {METHOD_NAMES[report.fair.method] ?? `the ${report.fair.method} method`} (the API&apos;s defaults for
        closing line value). Pushes, voids and half results are left out.
        {report.demo ? (
          <>
            {' '}
            The demo plays each simulated game to a result drawn from the very prices it quoted, so here our
            fair odds should be calibrated and the books, whose prices lean a little each way, slightly worse.
            On a real source, the same figures judge the fair odds against the market.
          </>
        ) : null}{' '}
        <a className="text-emerald-300 underline underline-offset-2" href={ROUTES.pricing}>
          Grade your own bets with the API
        </a>
        .
      </p>
      <Section title="Every league and market">
        <Scroller label="Summary by league and market">
          <table className="w-full min-w-[28rem] text-left text-sm">
            <thead className="text-xs uppercase tracking-wide text-slate-400">
              <tr>
                <Th>League and market</Th>
                <Th numeric>Games</Th>
                <Th numeric>Forecasts</Th>
                <Th numeric>Brier</Th>
                <Th numeric>Log loss</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-800">
              {report.groups.map((g) => (
                <tr key={groupKey(g)}>
                  <Td>{groupName(g)}</Td>
                  <Td numeric>{g.markets.toLocaleString()}</Td>
                  <Td numeric>{g.forecasts.toLocaleString()}</Td>
                  <Td numeric>{fixed(g.brier)}</Td>
                  <Td numeric>{fixed(g.log_loss)}</Td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroller>
        <p className="mt-2 text-xs text-slate-400">
          Games: markets (one game&apos;s market at one line) with a result.
        </p>
      </Section>
      <Section
        title={`Detail: ${groupName(group)}`}
        control={
          <SelectFilter
            label="Show"
            value={groupKey(group)}
            options={report.groups.map((g) => ({ value: groupKey(g), label: groupName(g) }))}
            onChange={setChosen}
          />
        }
      >
        <div className="grid gap-6 md:grid-cols-2">
          <ReliabilityChart group={group} />
          <ReliabilityTable group={group} />
        </div>
        <BooksTable group={group} />
      </Section>
    </div>
  );
}

function Section({ title, control, children }: { title: string; control?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold text-white">
          {title}
        </h2>
        {control}
      </div>
      {children}
    </section>
  );
}

/** A table that scrolls sideways on a phone: focusable, so a keyboard can scroll it too. */
function Scroller({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be keyboard-reachable
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-800"
    >
      {children}
    </div>
  );
}

function Th({ children, numeric }: { children: ReactNode; numeric?: boolean }) {
  return (
    <th scope="col" className={`px-3 py-2 font-medium ${numeric ? 'text-right' : ''}`}>
      {children}
    </th>
  );
}

function Td({ children, numeric }: { children: ReactNode; numeric?: boolean }) {
  return (
    <td className={`px-3 py-2 text-slate-200 ${numeric ? 'text-right tabular-nums' : ''}`}>{children}</td>
  );
}

function ReliabilityTable({ group }: { group: CalibrationGroup }) {
  return (
    <Scroller label={`Reliability table, ${groupName(group)}`}>
      <table className="w-full text-left text-sm">
        <caption className="px-3 pt-2 text-left text-xs text-slate-400">
          Forecasts binned by our fair probability
        </caption>
        <thead className="text-xs uppercase tracking-wide text-slate-400">
          <tr>
            <Th>Fair probability</Th>
            <Th numeric>Forecasts</Th>
            <Th numeric>Mean fair</Th>
            <Th numeric>Won</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-800">
          {group.bins.map((bin) => (
            <tr key={bin.from}>
              <Td>
                {Math.round(bin.from * 100)}–{Math.round(bin.to * 100)}%
              </Td>
              <Td numeric>{bin.forecasts.toLocaleString()}</Td>
              <Td numeric>{bin.forecasts > 0 ? pct(bin.mean_fair) : '–'}</Td>
              <Td numeric>{bin.forecasts > 0 ? pct(bin.observed) : '–'}</Td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroller>
  );
}

/** The reliability diagram: each bin's mean fair probability (x) against the share that won (y); area ∝ forecasts. */
function ReliabilityChart({ group }: { group: CalibrationGroup }) {
  const size = 260;
  const pad = 34;
  // Room on the left for the tick labels and the rotated axis title beside them.
  const left = 50;
  const span = size - 2 * pad;
  const x = (p: number) => left + p * span;
  const y = (p: number) => size - pad - p * span;
  const most = Math.max(1, ...group.bins.map((bin) => bin.forecasts));
  const filled = group.bins.filter((bin) => bin.forecasts > 0);
  const summary = filled.map((bin) => `${pct(bin.mean_fair)} forecast, ${pct(bin.observed)} won`).join('; ');
  return (
    <figure className="rounded-lg border border-slate-800 p-3">
      <svg
        viewBox={`0 0 ${left + span + pad} ${size}`}
        className="mx-auto block h-auto w-full max-w-[20rem]"
        role="img"
        aria-label={`Reliability chart, ${groupName(group)}: ${summary}`}
      >
        <rect x={left} y={pad} width={span} height={span} className="fill-slate-900 stroke-slate-700" />
        {[0.25, 0.5, 0.75].map((t) => (
          <g key={t} className="stroke-slate-800">
            <line x1={x(t)} y1={y(0)} x2={x(t)} y2={y(1)} />
            <line x1={x(0)} y1={y(t)} x2={x(1)} y2={y(t)} />
          </g>
        ))}
        <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} className="stroke-slate-500" strokeDasharray="4 4" />
        <polyline
          points={filled.map((bin) => `${x(bin.mean_fair)},${y(bin.observed)}`).join(' ')}
          className="fill-none stroke-emerald-400"
          strokeWidth={1.5}
        />
        {filled.map((bin) => (
          <circle
            key={bin.from}
            cx={x(bin.mean_fair)}
            cy={y(bin.observed)}
            r={2.5 + 5 * Math.sqrt(bin.forecasts / most)}
            className="fill-emerald-400/70 stroke-emerald-200"
          />
        ))}
        {[0, 0.5, 1].map((t) => (
          <g key={t} className="fill-slate-400 text-[10px]">
            <text x={x(t)} y={size - pad + 14} textAnchor="middle">
              {t * 100}%
            </text>
            <text x={left - 6} y={y(t) + 3} textAnchor="end">
              {t * 100}%
            </text>
          </g>
        ))}
        <text x={left + span / 2} y={size - 4} textAnchor="middle" className="fill-slate-300 text-[11px]">
          Fair probability at the close
        </text>
        <text
          x={12}
          y={pad + span / 2}
          textAnchor="middle"
          transform={`rotate(-90 12 ${pad + span / 2})`}
          className="fill-slate-300 text-[11px]"
        >
          Share that won
        </text>
      </svg>
      <figcaption className="mt-2 text-xs text-slate-400">
        Dashed: perfect calibration. Dot size: forecasts in the bin.
      </figcaption>
    </figure>
  );
}

function BooksTable({ group }: { group: CalibrationGroup }) {
  return (
    <div className="mt-6">
      <h3 className="mb-2 text-base font-semibold text-white">Our fair odds against each book&apos;s own</h3>
      <Scroller label={`Brier score and log loss by sportsbook, ${groupName(group)}`}>
        <table className="w-full min-w-[36rem] text-left text-sm">
          <caption className="px-3 pt-2 text-left text-xs text-slate-400">
            On the forecasts each book priced at the close (its prices with its margin removed)
          </caption>
          <thead className="text-xs uppercase tracking-wide text-slate-400">
            <tr>
              <Th>Sportsbook</Th>
              <Th numeric>Forecasts</Th>
              <Th numeric>Book Brier</Th>
              <Th numeric>Our Brier</Th>
              <Th numeric>Book log loss</Th>
              <Th numeric>Our log loss</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-800">
            {group.books.map((book) => (
              <tr key={book.book}>
                <Td>{bookName(book.book)}</Td>
                <Td numeric>{book.forecasts.toLocaleString()}</Td>
                <Td numeric>{fixed(book.brier)}</Td>
                <Td numeric>{fixed(book.fair_brier)}</Td>
                <Td numeric>{fixed(book.log_loss)}</Td>
                <Td numeric>{fixed(book.fair_log_loss)}</Td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroller>
    </div>
  );
}

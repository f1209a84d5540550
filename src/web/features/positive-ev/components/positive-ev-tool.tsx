import { useId, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { LEAGUES, MARKET_TYPES } from '#domain/markets.ts';
import type { EvFeed, EvFeedRow } from '#domain/schemas/ev-feed.ts';
import { resolveBetLink } from '#domain/sportsbook-links.ts';
import { ROUTES, SITE } from '#domain/site.ts';
import { isSportsbookKey, SPORTSBOOKS, SPORTSBOOK_KEYS } from '#domain/sportsbooks.ts';
import { cn } from '#web/lib/cn.ts';
import { Button } from '#web/ui/button.tsx';
import { useEvFeed } from '../api/get-ev.ts';
import {
  emptyRowsText,
  formatDollars,
  KELLY_FRACTIONS,
  MAX_BANKROLL_DOLLARS,
  readView,
  rowStakeCents,
  visibleRows,
  writeView,
  type EvView,
} from '../lib/ev-view.ts';

// The positive-EV page (issue 36, docs/product.md §2): the public feed's prices that pay more than the market's fair
// probability says they should, with the fair price, EV and a Kelly stake for the visitor's bankroll. The filters and
// the bankroll live in the URL; the visitor's sportsbooks are the arbitrage page's (the route passes them in).

const MARKET_NAMES: Record<string, string> = {
  moneyline: 'Moneyline',
  spread: 'Spread',
  total: 'Total',
  '1x2': '1X2',
  prop: 'Player props',
};

const selectClass =
  'h-9 rounded-md border border-slate-700 bg-slate-900 px-2 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-300';
const labelClass = 'flex flex-col gap-1 text-xs font-medium text-slate-300';

export interface PositiveEvToolProps {
  /** The visitor's sportsbooks (the arbitrage page's choice, kept in localStorage). */
  books: ReadonlySet<string>;
  /** The control that changes them (the arbitrage page's sportsbook picker). */
  booksControl: ReactNode;
  /** The visitor's state per book, for bet links that follow it. */
  states: Readonly<Record<string, string | undefined>>;
}

export function PositiveEvTool({ books, booksControl, states }: PositiveEvToolProps) {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const { data, error, isPending, isFetching, refetch } = useEvFeed();
  // Each change merges into the URL as it is now, not into this render's `view`: two changes made before React draws
  // again (a stake rule picked, then the bankroll typed at once) would otherwise lose the first.
  const update = (change: Partial<EvView>) =>
    setParams(writeView({ ...readView(new URLSearchParams(window.location.search)), ...change }), {
      replace: true,
      preventScrollReset: true,
    });

  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-6 sm:py-8" aria-labelledby="ev-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 id="ev-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            Positive EV finder
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-400">
            Prices that pay more than the market&apos;s fair odds. The fair probability of each outcome is the
            consensus of at least 3 sportsbooks pricing every side, margin removed; EV is what a $1 stake
            returns on average at that price.
          </p>
        </div>
        {data ? <FeedStatus feed={data} /> : null}
      </div>

      <p
        role="note"
        className="mt-4 rounded-lg border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-100"
      >
        <strong className="font-semibold">EV is an expectation, not a guarantee.</strong> A positive-EV bet
        still loses often; it pays over many bets, and only if the fair odds are right. Unlike an arb, nothing
        here locks in a profit. Kelly stakes size each bet to the edge; a fraction of Kelly keeps the swings
        smaller.
      </p>

      <Filters view={view} update={update} booksControl={booksControl} />

      <div className="mt-4 min-h-[50vh]" aria-busy={isFetching}>
        {isPending ? (
          <p role="status" className="px-4 py-16 text-center text-slate-300">
            Loading prices…
          </p>
        ) : !data ? (
          <div
            role="alert"
            className="rounded-lg border border-red-500/40 bg-red-500/10 px-4 py-10 text-center"
          >
            <h2 className="text-lg font-semibold text-white">Error Loading Data</h2>
            <p className="mt-2 text-sm text-slate-300">
              The positive-EV feed could not be read{error instanceof Error ? ` (${error.message})` : ''}.
              Please try again.
            </p>
            <Button className="mt-4" onClick={refetch}>
              Try again
            </Button>
          </div>
        ) : (
          <EvRows feed={data} rows={visibleRows(data.prices, view, books)} view={view} states={states} />
        )}
      </div>
    </section>
  );
}

function FeedStatus({ feed }: { feed: EvFeed }) {
  const asOf = new Date(feed.as_of * 1000);
  const minutes = Math.round(feed.delay_seconds / 60);
  return (
    <div className="flex flex-col items-end gap-1 text-right">
      {feed.source === 'simulator' ? (
        <p className="inline-flex flex-wrap items-baseline gap-x-2 rounded-md border border-amber-400/50 bg-amber-400/10 px-2.5 py-1 text-sm font-semibold text-amber-200">
          Demo data
          <span className="font-normal text-amber-100/90">simulated prices, not real odds</span>
        </p>
      ) : null}
      <p className="text-xs text-slate-400">
        Prices as of <time dateTime={asOf.toISOString()}>{asOf.toLocaleTimeString()}</time>
        {feed.delay_seconds > 0
          ? `, delayed ${minutes >= 1 ? `${minutes} min` : `${feed.delay_seconds} s`}`
          : null}
        {' · '}
        <a className="text-emerald-300 underline underline-offset-2" href={ROUTES.pricing}>
          real time with the API
        </a>
      </p>
    </div>
  );
}

function Filters({
  view,
  update,
  booksControl,
}: {
  view: EvView;
  update: (change: Partial<EvView>) => void;
  booksControl: ReactNode;
}) {
  const id = useId();
  return (
    <form
      aria-label="Filters and bankroll"
      className="mt-5 flex flex-wrap items-end gap-3 border-b border-slate-800 pb-4"
      onSubmit={(event) => event.preventDefault()}
    >
      <label className={labelClass} htmlFor={`${id}-league`}>
        League
        <select
          id={`${id}-league`}
          className={selectClass}
          value={view.league ?? ''}
          onChange={(event) => update({ league: event.target.value || null })}
        >
          <option value="">All leagues</option>
          {Object.values(LEAGUES).map((league) => (
            <option key={league.key} value={league.key}>
              {league.name}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClass} htmlFor={`${id}-market`}>
        Market
        <select
          id={`${id}-market`}
          className={selectClass}
          value={view.market ?? ''}
          onChange={(event) => update({ market: event.target.value || null })}
        >
          <option value="">All markets</option>
          {MARKET_TYPES.map((type) => (
            <option key={type} value={type}>
              {MARKET_NAMES[type] ?? type}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClass} htmlFor={`${id}-book`}>
        Sportsbook
        <select
          id={`${id}-book`}
          className={selectClass}
          value={view.book ?? ''}
          onChange={(event) => update({ book: event.target.value || null })}
        >
          <option value="">Any of mine</option>
          {SPORTSBOOK_KEYS.map((key) => (
            <option key={key} value={key}>
              {SPORTSBOOKS[key].displayName}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClass} htmlFor={`${id}-min`}>
        Minimum EV (%)
        <input
          id={`${id}-min`}
          className={cn(selectClass, 'w-24')}
          type="number"
          inputMode="decimal"
          min={0}
          max={100}
          step={0.5}
          value={view.minEv}
          onChange={(event) => {
            const value = Number(event.target.value);
            if (Number.isFinite(value) && value >= 0 && value <= 100) update({ minEv: value });
          }}
        />
      </label>
      <label className={labelClass} htmlFor={`${id}-bankroll`}>
        Bankroll ($)
        <input
          id={`${id}-bankroll`}
          className={cn(selectClass, 'w-28')}
          type="number"
          inputMode="decimal"
          min={0}
          max={MAX_BANKROLL_DOLLARS}
          step={100}
          value={view.bankrollDollars}
          onChange={(event) => {
            const value = Number(event.target.value);
            if (Number.isFinite(value) && value >= 0 && value <= MAX_BANKROLL_DOLLARS)
              update({ bankrollDollars: value });
          }}
        />
      </label>
      <label className={labelClass} htmlFor={`${id}-kelly`}>
        Stake rule
        <select
          id={`${id}-kelly`}
          className={selectClass}
          value={view.kelly}
          onChange={(event) => update({ kelly: Number(event.target.value) })}
        >
          {KELLY_FRACTIONS.map((fraction) => (
            <option key={fraction.value} value={fraction.value}>
              {fraction.label}
            </option>
          ))}
        </select>
      </label>
      <div className="flex h-9 items-center">{booksControl}</div>
    </form>
  );
}

const COLUMNS = 'sm:grid-cols-[minmax(0,2.2fr)_minmax(0,1.8fr)_minmax(0,1.3fr)_5rem_8.5rem_5rem_6rem_5.5rem]';

function EvRows({
  feed,
  rows,
  view,
  states,
}: {
  feed: EvFeed;
  rows: readonly EvFeedRow[];
  view: EvView;
  states: Readonly<Record<string, string | undefined>>;
}) {
  const kellyLabel = KELLY_FRACTIONS.find((fraction) => fraction.value === view.kelly)?.label ?? 'Kelly';
  return (
    <>
      <p data-testid="ev-count" className="mb-3 text-sm text-slate-300">
        <span className="font-semibold text-emerald-300">{rows.length}</span>{' '}
        {rows.length === 1 ? 'price' : 'prices'} with positive EV shown
        {feed.total > feed.prices.length
          ? ` (this page carries the best ${feed.prices.length} of ${feed.total})`
          : ''}
      </p>
      {rows.length === 0 ? (
        <p role="status" className="rounded-lg border border-slate-800 px-4 py-12 text-center text-slate-300">
          {emptyRowsText(feed)}
        </p>
      ) : (
        <>
          <div
            aria-hidden="true"
            className={cn(
              'hidden gap-3 px-3 pb-2 text-xs font-medium uppercase tracking-wide text-slate-400 sm:grid',
              COLUMNS,
            )}
          >
            <span>Event</span>
            <span>Market</span>
            <span>Book</span>
            <span className="text-right">Price</span>
            <span className="text-right">Fair</span>
            <span className="text-right">EV</span>
            <span className="text-right">{kellyLabel}</span>
            <span />
          </div>
          <ol className="flex flex-col gap-2" aria-label="Prices with positive EV, best first">
            {rows.map((row) => (
              <EvRowItem
                key={row.id}
                row={row}
                view={view}
                state={states[row.book]}
                kellyLabel={kellyLabel}
              />
            ))}
          </ol>
        </>
      )}
      <p className="mt-6 text-xs text-slate-400">
        Fair odds: per outcome, the median implied probability across the books pricing every side, the margin
        removed by Shin&rsquo;s method, which does not flatter longshots ({feed.method}, {feed.reference} of
        at least {feed.min_books} books). EV = fair probability × decimal odds − 1. The {SITE.brand} API (
        <code>GET /v1/ev</code>) has every price at full precision, in real time on real-time plans.
      </p>
    </>
  );
}

function Cell({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex min-w-0 items-baseline justify-between gap-2 sm:block', className)}>
      <span className="text-xs text-slate-400 sm:sr-only">{label}</span>
      {children}
    </div>
  );
}

function EvRowItem({
  row,
  view,
  state,
  kellyLabel,
}: {
  row: EvFeedRow;
  view: EvView;
  state: string | undefined;
  kellyLabel: string;
}) {
  const book = isSportsbookKey(row.book) ? SPORTSBOOKS[row.book] : undefined;
  const link = book ? resolveBetLink(book, row.links, 'desktop', state) : null;
  const stake = rowStakeCents(row, view);
  const starts = new Date(row.event.starts_at);
  return (
    <li
      className={cn(
        'grid grid-cols-1 gap-2 rounded-lg border border-slate-800 bg-slate-900/60 px-3 py-3 sm:items-center sm:gap-3',
        COLUMNS,
      )}
    >
      <div className="min-w-0">
        <p className="truncate text-sm font-semibold text-white">
          {row.event.away} @ {row.event.home}
        </p>
        <p className="text-xs text-slate-400">
          {LEAGUES[row.event.league as keyof typeof LEAGUES]?.name ?? row.event.league}
          {' · '}
          {row.event.live ? (
            <span className="font-semibold text-red-300">Live</span>
          ) : (
            <time dateTime={starts.toISOString()}>
              {starts.toLocaleString('en-US', { weekday: 'short', hour: 'numeric', minute: '2-digit' })}
            </time>
          )}
        </p>
      </div>
      <div className="min-w-0">
        <p className="truncate text-sm text-slate-100">{row.outcome}</p>
        <p className="truncate text-xs text-slate-400">{row.market}</p>
      </div>
      <Cell label="Book">
        <span className="truncate text-sm font-medium text-slate-100">{book?.displayName ?? row.book}</span>
      </Cell>
      <Cell label="Price" className="sm:text-right">
        <span className="font-mono text-sm text-white">{row.american}</span>
      </Cell>
      <Cell label="Fair" className="sm:text-right">
        <span className="text-right">
          <span className="block font-mono text-sm text-slate-200">{row.fair_american}</span>
          <span className="block whitespace-nowrap text-xs text-slate-400">
            {(row.fair_prob * 100).toFixed(1)}% · {row.books} books
          </span>
        </span>
      </Cell>
      <Cell label="EV" className="sm:text-right">
        <span className="rounded bg-emerald-400/15 px-1.5 py-0.5 font-mono text-sm font-semibold text-emerald-300">
          +{row.ev_pct.toFixed(1)}%
        </span>
      </Cell>
      <Cell label={kellyLabel} className="sm:text-right">
        <span data-testid="stake" className="font-mono text-sm text-slate-100">
          {formatDollars(stake)}
        </span>
      </Cell>
      <div className="sm:text-right">
        {link ? (
          <a
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex h-8 items-center rounded-md bg-emerald-400 px-3 text-sm font-semibold text-slate-950 hover:bg-emerald-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300"
          >
            Bet
            <span className="sr-only">
              {' '}
              {row.outcome} at {book?.displayName ?? row.book}
            </span>
          </a>
        ) : null}
      </div>
    </li>
  );
}

import { useMemo, type ReactNode } from 'react';
import { MARKET_TYPES } from '#domain/markets.ts';
import { americanDisplay } from '#domain/odds.ts';
import type { EvFeed, EvFeedRow } from '#domain/schemas/ev-feed.ts';
import { SITE } from '#domain/site.ts';
import {
  BetLink,
  BOOK_OPTIONS,
  bookName,
  Cell,
  EventName,
  FinderRows,
  FiltersBar,
  FinderPage,
  LEAGUE_OPTIONS,
  NumberFilter,
  rowClass,
  SelectFilter,
} from '#web/components/finder.tsx';
import { FinderKeyBox } from '#web/components/finder-key-box.tsx';
import { TrackButton } from '#web/components/track-button.tsx';
import { evBets, KEY_INSTANT, rowTrackKeys } from '#web/lib/tracked-bets.ts';
import { cn } from '#web/lib/cn.ts';
import { useStoredKey } from '#web/lib/key-store.ts';
import { formatDollars } from '#web/lib/finder-view.ts';
import { useUrlView } from '#web/lib/use-url-view.ts';
import { useEvFeed } from '../api/get-ev.ts';
import {
  emptyRowsText,
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
// the bankroll live in the URL; the visitor's sportsbooks are the arbitrage page's (the route passes them in). The
// page's frame, filters' fields and row pieces are the finder pages' (src/web/components/finder.tsx).

const MARKET_NAMES: Record<string, string> = {
  moneyline: 'Moneyline',
  spread: 'Spread',
  total: 'Total',
  '1x2': '1X2',
  prop: 'Player props',
};

export interface PositiveEvToolProps {
  /** The visitor's sportsbooks (the arbitrage page's choice, kept in localStorage). */
  books: ReadonlySet<string>;
  /** The control that changes them (the arbitrage page's sportsbook picker). */
  booksControl: ReactNode;
  /** The visitor's state per book, for bet links that follow it. */
  states: Readonly<Record<string, string | undefined>>;
}

export function PositiveEvTool({ books, booksControl, states }: PositiveEvToolProps) {
  const [view, update] = useUrlView(readView, writeView);
  // A key pasted in the key box (this tab only): the page reads its plan's answer instead of the free feed.
  const apiKey = useStoredKey();
  const feed = useEvFeed(apiKey);
  return (
    <FinderPage
      title="Positive EV finder"
      intro={
        <>
          Prices that pay more than the market&apos;s fair odds. The fair probability of each outcome is the
          consensus of at least 3 sportsbooks pricing every side, margin removed; EV is what a $1 stake
          returns on average at that price.
        </>
      }
      note={
        <>
          <strong className="font-semibold">EV is an expectation, not a guarantee.</strong> A positive-EV bet
          still loses often; it pays over many bets, and only if the fair odds are right. Unlike an arb,
          nothing here locks in a profit. Kelly stakes size each bet to the edge; a fraction of Kelly keeps
          the swings smaller.
        </>
      }
      filters={<Filters view={view} update={update} booksControl={booksControl} />}
      keyBox={<FinderKeyBox apiKey={apiKey} feed={feed} singular="positive-EV price" plural="prices" />}
      feed={feed}
      what="positive-EV"
      loading="Loading prices…"
    >
      {(data) => (
        <EvRows feed={data} rows={visibleRows(data.prices, view, books)} view={view} states={states} />
      )}
    </FinderPage>
  );
}

const MARKET_OPTIONS = [
  { value: '', label: 'All markets' },
  ...MARKET_TYPES.map((type) => ({ value: type, label: MARKET_NAMES[type] ?? type })),
];
const KELLY_OPTIONS = KELLY_FRACTIONS.map((fraction) => ({
  value: String(fraction.value),
  label: fraction.label,
}));

function Filters({
  view,
  update,
  booksControl,
}: {
  view: EvView;
  update: (change: Partial<EvView>) => void;
  booksControl: ReactNode;
}) {
  return (
    <FiltersBar label="Filters and bankroll" booksControl={booksControl}>
      <SelectFilter
        label="League"
        value={view.league ?? ''}
        options={LEAGUE_OPTIONS}
        onChange={(value) => update({ league: value || null })}
      />
      <SelectFilter
        label="Market"
        value={view.market ?? ''}
        options={MARKET_OPTIONS}
        onChange={(value) => update({ market: value || null })}
      />
      <SelectFilter
        label="Sportsbook"
        value={view.book ?? ''}
        options={BOOK_OPTIONS}
        onChange={(value) => update({ book: value || null })}
      />
      <NumberFilter
        label="Minimum EV (%)"
        value={view.minEv}
        min={0}
        max={100}
        step={0.5}
        onChange={(minEv) => update({ minEv: minEv ?? 0 })}
      />
      <NumberFilter
        label="Bankroll ($)"
        className="w-28"
        value={view.bankrollDollars}
        min={0}
        max={MAX_BANKROLL_DOLLARS}
        step={100}
        onChange={(bankrollDollars) => update({ bankrollDollars: bankrollDollars ?? 0 })}
      />
      <SelectFilter
        label="Stake rule"
        value={String(view.kelly)}
        options={KELLY_OPTIONS}
        onChange={(value) => update({ kelly: Number(value) })}
      />
    </FiltersBar>
  );
}

// The side to bet (outcome and market) has the widest column, and every text wraps rather than being cut (issue 56).
const COLUMNS =
  'sm:grid-cols-[minmax(0,1.7fr)_minmax(0,2.3fr)_minmax(0,1fr)_4.5rem_8rem_4.5rem_5.5rem_4.5rem]';

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
      <FinderRows
        countTestId="ev-count"
        count={
          <>
            <span className="font-semibold text-emerald-300">{rows.length}</span>{' '}
            {rows.length === 1 ? 'price' : 'prices'} with positive EV shown
            {feed.total > feed.prices.length
              ? ` (this page carries the best ${feed.prices.length} of ${feed.total})`
              : ''}
          </>
        }
        empty={rows.length === 0 ? emptyRowsText(feed) : null}
        columns={COLUMNS}
        heads={
          <>
            <span>Event</span>
            <span>Market</span>
            <span>Book</span>
            <span className="text-right">Price</span>
            <span className="text-right">Fair</span>
            <span className="text-right">EV</span>
            <span className="text-right">{kellyLabel}</span>
            <span />
          </>
        }
        label="Prices with positive EV, best first"
      >
        {rows.map((row) => (
          <EvRowItem key={row.id} row={row} view={view} state={states[row.book]} kellyLabel={kellyLabel} />
        ))}
      </FinderRows>
      <p className="mt-6 text-xs text-slate-400">
        Fair odds: per outcome, the median implied probability across the books pricing every side, the margin
        removed by Shin&rsquo;s method, which does not flatter longshots ({feed.method}, {feed.reference} of
        at least {feed.min_books} books). EV = fair probability × decimal odds − 1. The {SITE.brand} API (
        <code>GET /v1/ev</code>) has every price at full precision, in real time on real-time plans.
      </p>
    </>
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
  const stake = rowStakeCents(row, view);
  // Track adds the price at the row's stake ($100 when the stake rule gives none).
  const trackStake = stake > 0 ? stake : 10_000;
  const trackKeys = useMemo(() => rowTrackKeys(evBets(row, 1, KEY_INSTANT)), [row]);
  return (
    <li className={cn(rowClass, COLUMNS)}>
      <EventName event={row.event} />
      <div className="min-w-0">
        <p className="break-words text-sm leading-snug text-slate-100">{row.outcome}</p>
        <p className="break-words text-xs text-slate-400">{row.market}</p>
      </div>
      <Cell label="Book">
        <span className="break-words text-sm font-medium text-slate-100">{bookName(row.book)}</span>
      </Cell>
      <Cell label="Price" className="sm:text-right">
        <span className="font-mono text-sm text-white">{americanDisplay(row.american)}</span>
      </Cell>
      <Cell label="Fair" className="sm:text-right">
        <span className="text-right">
          <span className="block font-mono text-sm text-slate-200">{americanDisplay(row.fair_american)}</span>
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
      <div className="flex flex-wrap items-center gap-2 sm:flex-col sm:items-end">
        <BetLink book={row.book} links={row.links} state={state} what={row.outcome} />
        <TrackButton
          build={() => evBets(row, trackStake, new Date().toISOString())}
          keys={trackKeys}
          what={`${row.outcome}, ${row.event.away} @ ${row.event.home}`}
        />
      </div>
    </li>
  );
}

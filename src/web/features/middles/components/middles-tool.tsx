import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatOdds, type OddsFormat } from '#domain/odds-format.ts';
import type { MiddleFeedRow, MiddlesFeed } from '#domain/schemas/middles-feed.ts';
import { ROUTES, SITE } from '#domain/site.ts';
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
import { middleBets, KEY_INSTANT, rowTrackKeys } from '#web/lib/tracked-bets.ts';
import { cn } from '#web/lib/cn.ts';
import { useStoredKey } from '#web/lib/key-store.ts';
import { formatDollars } from '#web/lib/finder-view.ts';
import { useUrlView } from '#web/lib/use-url-view.ts';
import { Button } from '#web/ui/button.tsx';
import { useMiddlesFeed } from '../api/get-middles.ts';
import {
  emptyRowsText,
  gapText,
  MAX_TOTAL_DOLLARS,
  middleFigures,
  MIDDLE_MARKETS,
  ODDS_FORMATS,
  readView,
  signedDollars,
  visibleRows,
  writeView,
  type MiddlesView,
} from '../lib/middles-view.ts';

// The middles page (issue 36, docs/product.md §2, decisions 169 and 189): the public feed's pairs of opposite spread,
// total or player-prop sides at two books whose lines leave a gap where both win, with the chance of the gap from the
// score or stat model, the
// pair's EV, what a miss costs and the stakes for the visitor's total. The filters, the total and the odds format live
// in the URL; the visitor's sportsbooks and stored odds format are the arbitrage page's (the route passes them in).

const FORMAT_NAMES: Record<OddsFormat, string> = {
  american: 'American',
  decimal: 'Decimal',
  fractional: 'Fractional',
  probability: 'Probability',
};
const MARKET_NAMES: Record<string, string> = { spread: 'Spread', total: 'Total', prop: 'Player props' };

export interface MiddlesToolProps {
  /** The visitor's sportsbooks (the arbitrage page's choice, kept in localStorage). */
  books: ReadonlySet<string>;
  /** The control that changes them (the arbitrage page's sportsbook picker). */
  booksControl: ReactNode;
  /** The visitor's state per book, for bet links that follow it. */
  states: Readonly<Record<string, string | undefined>>;
  /** The odds format chosen on the arbitrage page, used unless the URL names one; a choice here is stored too. */
  storedFormat: OddsFormat;
  onFormatChange: (format: OddsFormat) => void;
}

export function MiddlesTool({ books, booksControl, states, storedFormat, onFormatChange }: MiddlesToolProps) {
  const [view, update] = useUrlView(readView, writeView);
  // A key pasted in the key box (this tab only): the page reads its plan's answer instead of the free feed.
  const apiKey = useStoredKey();
  const feed = useMiddlesFeed(apiKey);
  const format = view.format ?? storedFormat;
  return (
    <FinderPage
      title="Middles finder"
      intro={
        <>
          Two opposite sides of one game&apos;s spread or total, or of one player&apos;s prop, at two
          sportsbooks, at lines that leave a gap where both bets win: the home side −2.5 at one book and the
          away side +3.5 at another both win if the home side wins by exactly 3; a player&apos;s over 24.5
          points and under 26.5 both win on 25 or 26. The chance of the gap comes from a model of final scores
          or of the player&apos;s stat.
        </>
      }
      note={
        <>
          <strong className="font-semibold">A middle is a chance, not a guarantee.</strong> Both bets win only
          if the final margin, total or player&apos;s figure lands in the gap. Most of the time it misses: one
          bet wins, the other loses, and you lose the <em>worst case</em> shown (the two books&apos; margin on
          your total stake, with the stakes split so that either bet alone pays the same). A middle is worth
          it only if the chance of the gap pays for those misses: that is its EV.
        </>
      }
      filters={
        <Filters
          view={view}
          format={format}
          update={update}
          onFormatChange={onFormatChange}
          booksControl={booksControl}
        />
      }
      keyBox={<FinderKeyBox apiKey={apiKey} feed={feed} singular="middle" plural="middles" />}
      feed={feed}
      what="middles"
      loading="Loading middles…"
    >
      {(data) => (
        <MiddleRows
          feed={data}
          rows={visibleRows(data.middles, view, books)}
          view={view}
          format={format}
          states={states}
        />
      )}
    </FinderPage>
  );
}

const MARKET_OPTIONS = [
  { value: '', label: 'Spreads and totals' },
  ...MIDDLE_MARKETS.map((type) => ({ value: type, label: MARKET_NAMES[type] ?? type })),
];
const FORMAT_OPTIONS = ODDS_FORMATS.map((value) => ({ value, label: FORMAT_NAMES[value] }));

function Filters({
  view,
  format,
  update,
  onFormatChange,
  booksControl,
}: {
  view: MiddlesView;
  format: OddsFormat;
  update: (change: Partial<MiddlesView>) => void;
  onFormatChange: (format: OddsFormat) => void;
  booksControl: ReactNode;
}) {
  return (
    <FiltersBar label="Filters and stake" booksControl={booksControl}>
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
        onChange={(value) => update({ market: MIDDLE_MARKETS.find((type) => type === value) ?? null })}
      />
      <SelectFilter
        label="Sportsbook"
        value={view.book ?? ''}
        options={BOOK_OPTIONS}
        onChange={(value) => update({ book: value || null })}
      />
      <NumberFilter
        label="Minimum chance (%)"
        value={view.minProbabilityPct}
        min={0}
        max={100}
        step={1}
        onChange={(value) => update({ minProbabilityPct: value ?? 0 })}
      />
      <NumberFilter
        label="Minimum EV (%)"
        value={view.minEv}
        min={-100}
        max={100}
        step={0.5}
        empty={null}
        onChange={(minEv) => update({ minEv })}
      />
      <NumberFilter
        label="Total stake ($)"
        className="w-28"
        value={view.totalDollars}
        min={0}
        max={MAX_TOTAL_DOLLARS}
        step={10}
        onChange={(value) => update({ totalDollars: value ?? 0 })}
      />
      <SelectFilter
        label="Odds"
        value={format}
        options={FORMAT_OPTIONS}
        onChange={(value) => {
          const chosen = ODDS_FORMATS.find((known) => known === value);
          if (!chosen) return;
          update({ format: chosen });
          onFormatChange(chosen);
        }}
      />
    </FiltersBar>
  );
}

/** Rows drawn at first and per "Show more": a row is ~45 elements, and the feed carries up to 100. */
const ROWS_PER_PAGE = 25;

const COLUMNS =
  'sm:grid-cols-[minmax(0,1.6fr)_minmax(0,1.4fr)_minmax(0,1.6fr)_minmax(0,1.6fr)_5rem_4.5rem_6.5rem_6.5rem]';

function MiddleRows({
  feed,
  rows,
  view,
  format,
  states,
}: {
  feed: MiddlesFeed;
  rows: readonly MiddleFeedRow[];
  view: MiddlesView;
  format: OddsFormat;
  states: Readonly<Record<string, string | undefined>>;
}) {
  const totalCents = Math.round(view.totalDollars * 100);
  const [drawn, setDrawn] = useState(ROWS_PER_PAGE);
  return (
    <>
      <FinderRows
        countTestId="middles-count"
        count={
          <>
            <span className="font-semibold text-emerald-300">{rows.length}</span>{' '}
            {rows.length === 1 ? 'middle' : 'middles'} shown, stakes for {formatDollars(totalCents)}
            {feed.total > feed.middles.length
              ? ` (this page carries the best ${feed.middles.length} of ${feed.total} by EV)`
              : ''}
          </>
        }
        empty={rows.length === 0 ? emptyRowsText(feed) : null}
        columns={COLUMNS}
        heads={
          <>
            <span>Event</span>
            <span>Both win on</span>
            <span>Side 1</span>
            <span>Side 2</span>
            <span className="text-right">Chance</span>
            <span className="text-right">EV</span>
            <span className="text-right">If it misses</span>
            <span className="text-right">If it lands</span>
          </>
        }
        label="Middles, best EV first"
        more={
          rows.length > drawn ? (
            <div className="mt-3 flex flex-wrap items-center justify-center gap-3 text-sm text-slate-400">
              <span>
                Showing the best {drawn} of {rows.length}
              </span>
              <Button variant="secondary" size="sm" onClick={() => setDrawn(drawn + ROWS_PER_PAGE)}>
                Show {Math.min(ROWS_PER_PAGE, rows.length - drawn)} more
              </Button>
            </div>
          ) : null
        }
      >
        {rows.slice(0, drawn).map((row) => (
          <MiddleRowItem key={row.id} row={row} totalCents={totalCents} format={format} states={states} />
        ))}
      </FinderRows>
      <div className="mt-6 space-y-2 text-xs text-slate-400">
        <p>
          <strong className="font-semibold text-slate-300">How to read a row.</strong> The stakes split your
          total so that either bet alone pays the same. <em>If it misses</em> (the worst case): exactly one
          bet wins and you get back that payout, less than you staked. <em>If it lands</em> in the gap both
          bets win. A side on a whole-number line pushes (its stake comes back) when the final value lands on
          it. EV is the average over all these outcomes, weighted by their chances: most middles have a
          negative EV.
        </p>
        <p>
          The chance of the gap comes from a model of final scores centred on the books&apos; lines (of at
          least {feed.min_books} books), fitted to how past games ended: in the NFL the key margins 3 and 7,
          in hockey and soccer the one-goal games and draws, in baseball the one-run games and extra innings.
          It is a model, not a promise: the{' '}
          <Link to={ROUTES.calibration} className="underline hover:text-slate-200">
            calibration report
          </Link>{' '}
          shows how our fair chances have matched results. The {SITE.brand} API (<code>GET /v1/middles</code>)
          has every middle at full precision, in real time on real-time plans.
        </p>
      </div>
    </>
  );
}

function Side({
  side,
  stake,
  format,
  state,
}: {
  side: MiddleFeedRow['high'];
  stake: number;
  format: OddsFormat;
  state: string | undefined;
}) {
  return (
    <div className="flex min-w-0 items-center justify-between gap-2 rounded-md bg-slate-950/40 px-2 py-1.5 sm:block sm:bg-transparent sm:p-0">
      <div className="min-w-0">
        <p className="break-words text-sm leading-snug text-slate-100">{side.name}</p>
        <p className="break-words text-xs text-slate-400">
          {bookName(side.book)} ·{' '}
          <span data-testid="price" className="font-mono text-slate-200">
            {formatOdds(side, format)}
          </span>
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-2 sm:mt-1">
        <span className="text-xs text-slate-400">
          Stake{' '}
          <span data-testid="stake" className="font-mono text-sm text-slate-100">
            {formatDollars(stake)}
          </span>
        </span>
        <BetLink book={side.book} links={side.links} state={state} what={side.name} className="h-7 px-2.5" />
      </div>
    </div>
  );
}

function MiddleRowItem({
  row,
  totalCents,
  format,
  states,
}: {
  row: MiddleFeedRow;
  totalCents: number;
  format: OddsFormat;
  states: Readonly<Record<string, string | undefined>>;
}) {
  const figures = middleFigures(row, totalCents);
  const trackKeys = useMemo(() => rowTrackKeys(middleBets(row, [1, 1], KEY_INSTANT)), [row]);
  const pushes = row.push_high + row.push_low;
  return (
    <li className={cn(rowClass, COLUMNS)}>
      <EventName event={row.event} />
      <div className="min-w-0">
        <p className="text-sm text-slate-100">{gapText(row)}</p>
        <p className="text-xs text-slate-400">
          {row.market_type === 'prop'
            ? 'Player prop'
            : `${MARKET_NAMES[row.market_type] ?? row.market_type}, full game`}
        </p>
        <TrackButton
          build={() => middleBets(row, figures.stakes, new Date().toISOString())}
          keys={trackKeys}
          what={`${row.event.away} @ ${row.event.home}, ${gapText(row)}`}
          className="mt-1 h-7"
        />
      </div>
      <Side side={row.high} stake={figures.stakes[0]} format={format} state={states[row.high.book]} />
      <Side side={row.low} stake={figures.stakes[1]} format={format} state={states[row.low.book]} />
      <Cell label="Chance of the middle" className="sm:text-right">
        <span className="text-right">
          <span data-testid="chance" className="block font-mono text-sm text-white">
            {(row.probability * 100).toFixed(1)}%
          </span>
          {pushes > 0 ? (
            <span className="block whitespace-nowrap text-xs text-slate-400">
              push {(pushes * 100).toFixed(1)}%
            </span>
          ) : null}
        </span>
      </Cell>
      <Cell label="EV" className="sm:text-right">
        <span
          data-testid="ev"
          className={cn(
            'rounded px-1.5 py-0.5 font-mono text-sm font-semibold',
            row.ev_pct > 0 ? 'bg-emerald-400/15 text-emerald-300' : 'text-slate-300',
          )}
        >
          {row.ev_pct > 0 ? '+' : ''}
          {row.ev_pct.toFixed(1)}%
        </span>
      </Cell>
      <Cell label="If it misses (worst case)" className="sm:text-right">
        <span data-testid="if-miss" className="font-mono text-sm text-amber-200">
          {signedDollars(figures.ifMiss)}
        </span>
      </Cell>
      <Cell label="If it lands" className="sm:text-right">
        <span data-testid="if-middle" className="font-mono text-sm text-emerald-300">
          {signedDollars(figures.ifMiddle)}
        </span>
      </Cell>
    </li>
  );
}

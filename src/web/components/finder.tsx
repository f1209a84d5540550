import { useId, type ReactNode } from 'react';
import { LEAGUES } from '#domain/markets.ts';
import type { FinderFeedHead } from '#domain/schemas/finder-feed.ts';
import { resolveBetLink } from '#domain/sportsbook-links.ts';
import { ROUTES } from '#domain/site.ts';
import { isSportsbookKey, SPORTSBOOKS, SPORTSBOOK_KEYS } from '#domain/sportsbooks.ts';
import { cn } from '#web/lib/cn.ts';
import type { FinderFeedResult } from '#web/lib/finder-feed.ts';
import { Button } from '#web/ui/button.tsx';

// The scaffolding the finder pages share (positive EV, middles; decisions 163 and 169): the heading with the feed's
// age and the demo-data label, the plain-words note, the filters form and its fields, the loading, error and data
// states, and the pieces of a row (labelled cells on phones, the event, the bet link).

export function FinderPage<T extends Omit<FinderFeedHead, 'total'>>({
  title,
  intro,
  note,
  keyBox,
  filters,
  feed,
  what,
  loading,
  children,
}: {
  title: string;
  intro: ReactNode;
  /** The key box (src/web/components/finder-key-box.tsx), under the title. */
  keyBox?: ReactNode;
  /** What the visitor must not misread (EV and middles are chances, not guarantees). */
  note: ReactNode;
  filters: ReactNode;
  feed: FinderFeedResult<T>;
  /** The feed's name in the error view ("positive-EV", "middles"). */
  what: string;
  loading: string;
  children: (data: T) => ReactNode;
}) {
  const titleId = useId();
  const { data, error, isPending, isFetching, refetch } = feed;
  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-6 sm:py-8" aria-labelledby={titleId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 id={titleId} className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            {title}
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-400">{intro}</p>
        </div>
        {/* The badge and the time arrive with the data: their space is kept from the first paint, so nothing below moves
            when they come (a phone wraps this column under the title), as on the arbitrage page (decision 175). */}
        <div className="flex min-h-[3.125rem] flex-col items-end gap-1 text-right">
          {data ? <FeedStatus feed={data} /> : null}
        </div>
      </div>
      {keyBox}
      <p
        role="note"
        className="mt-4 rounded-lg border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-100"
      >
        {note}
      </p>
      {filters}
      <div className="mt-4 min-h-[50vh]" aria-busy={isFetching}>
        {isPending ? (
          <p role="status" className="px-4 py-16 text-center text-slate-300">
            {loading}
          </p>
        ) : !data ? (
          <div
            role="alert"
            className="rounded-lg border border-red-500/40 bg-red-500/10 px-4 py-10 text-center"
          >
            <h2 className="text-lg font-semibold text-white">Error Loading Data</h2>
            <p className="mt-2 text-sm text-slate-300">
              The {what} feed could not be read{error instanceof Error ? ` (${error.message})` : ''}. Please
              try again.
            </p>
            <Button className="mt-4" onClick={refetch}>
              Try again
            </Button>
          </div>
        ) : (
          children(data)
        )}
      </div>
    </section>
  );
}

function FeedStatus({ feed }: { feed: Omit<FinderFeedHead, 'total'> }) {
  const asOf = new Date(feed.as_of * 1000);
  const minutes = Math.round(feed.delay_seconds / 60);
  return (
    <>
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
    </>
  );
}

const fieldClass =
  'h-9 rounded-md border border-slate-700 bg-slate-900 px-2 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-300';
const labelClass = 'flex flex-col gap-1 text-xs font-medium text-slate-300';

/**
 * The filters: a labelled group, not a form, since there is nothing to send (every field updates the URL as it
 * changes); so Enter in a field never submits anything, before the page's script has run or after (decision 208).
 * The books control last.
 */
export function FiltersBar({
  label,
  booksControl,
  children,
}: {
  label: string;
  booksControl: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className="mt-5 flex flex-wrap items-end gap-3 border-b border-slate-800 pb-4"
    >
      {children}
      <div className="flex h-9 items-center">{booksControl}</div>
    </div>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

/** A select whose first option ("All leagues") is the empty value, read as null. */
export function SelectFilter({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <label className={labelClass} htmlFor={id}>
      {label}
      <select id={id} className={fieldClass} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A number field that passes on only values within [min, max], and `empty` when it is emptied. */
export function NumberFilter({
  label,
  value,
  min,
  max,
  step,
  className,
  empty = 0,
  onChange,
}: {
  label: string;
  /** null: an empty field. */
  value: number | null;
  min: number;
  max: number;
  step: number;
  className?: string;
  /** What an emptied field stands for (0 unless given). */
  empty?: number | null;
  onChange: (value: number | null) => void;
}) {
  const id = useId();
  return (
    <label className={labelClass} htmlFor={id}>
      {label}
      <input
        id={id}
        className={cn(fieldClass, className ?? 'w-24')}
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={value ?? ''}
        onChange={(event) => {
          if (event.target.value.trim() === '') return onChange(empty);
          const typed = Number(event.target.value);
          if (Number.isFinite(typed) && typed >= min && typed <= max) onChange(typed);
        }}
      />
    </label>
  );
}

export const LEAGUE_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'All leagues' },
  ...Object.values(LEAGUES).map((league) => ({ value: league.key, label: league.name })),
];

/** One sportsbook of the visitor's, or any of them. */
export const BOOK_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'Any of mine' },
  ...SPORTSBOOK_KEYS.map((key) => ({ value: key, label: SPORTSBOOKS[key].displayName })),
];

/**
 * The rows under a line counting them: the columns' heads and the list, or what the page says when none is left.
 * `more` comes after the list (a "Show more" button).
 */
export function FinderRows({
  countTestId,
  count,
  empty,
  columns,
  heads,
  label,
  more,
  children,
}: {
  countTestId: string;
  count: ReactNode;
  /** The empty view's text, or null when there are rows. */
  empty: string | null;
  columns: string;
  heads: ReactNode;
  label: string;
  more?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <p data-testid={countTestId} className="mb-3 text-sm text-slate-300">
        {count}
      </p>
      {empty !== null ? (
        <p role="status" className="rounded-lg border border-slate-800 px-4 py-12 text-center text-slate-300">
          {empty}
        </p>
      ) : (
        <>
          <ColumnHeads columns={columns}>{heads}</ColumnHeads>
          <ol className="flex flex-col gap-2" aria-label={label}>
            {children}
          </ol>
          {more}
        </>
      )}
    </>
  );
}

/** A cell: its label beside the value on phones, read by screen readers only from `sm` up (the header names it). */
export function Cell({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex min-w-0 items-baseline justify-between gap-2 sm:block', className)}>
      <span className="text-xs text-slate-400 sm:sr-only">{label}</span>
      {children}
    </div>
  );
}

/** The columns' names above the rows, from `sm` up (each cell names itself on phones). */
function ColumnHeads({ columns, children }: { columns: string; children: ReactNode }) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        'hidden gap-3 px-3 pb-2 text-xs font-medium uppercase tracking-wide text-slate-400 sm:grid',
        columns,
      )}
    >
      {children}
    </div>
  );
}

export const rowClass =
  'grid grid-cols-1 gap-2 rounded-lg border border-slate-800 bg-slate-900/60 px-3 py-3 sm:items-center sm:gap-3';

export interface FeedEventView {
  league: string;
  home: string;
  away: string;
  starts_at: string;
  live: boolean;
}

/** "Away @ Home" with the league and the start (or Live), wrapped rather than cut (issue 56: every row readable). */
export function EventName({ event }: { event: FeedEventView }) {
  const starts = new Date(event.starts_at);
  return (
    <div className="min-w-0">
      <p className="break-words text-sm font-semibold leading-snug text-white">
        {event.away} @ {event.home}
      </p>
      <p className="text-xs text-slate-400">
        {LEAGUES[event.league as keyof typeof LEAGUES]?.name ?? event.league}
        {' · '}
        {event.live ? (
          <span className="font-semibold text-red-300">Live</span>
        ) : (
          <time dateTime={starts.toISOString()}>
            {starts.toLocaleString('en-US', { weekday: 'short', hour: 'numeric', minute: '2-digit' })}
          </time>
        )}
      </p>
    </div>
  );
}

export function bookName(book: string): string {
  return isSportsbookKey(book) ? SPORTSBOOKS[book].displayName : book;
}

/** The "Bet" link to the book's page for this price, following the visitor's state; nothing without a link. */
export function BetLink({
  book,
  links,
  state,
  what,
  className,
}: {
  book: string;
  links: { desktop: string | null; mobile: string | null };
  state: string | undefined;
  /** What is bet, for screen readers: "Over 44.5". */
  what: string;
  className?: string;
}) {
  const link = isSportsbookKey(book) ? resolveBetLink(SPORTSBOOKS[book], links, 'desktop', state) : null;
  if (!link) return null;
  return (
    <a
      href={link.href}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(
        'inline-flex h-8 items-center rounded-md bg-emerald-400 px-3 text-sm font-semibold text-slate-950 hover:bg-emerald-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300',
        className,
      )}
    >
      Bet
      <span className="sr-only">
        {' '}
        {what} at {bookName(book)}
      </span>
    </a>
  );
}

import { lazy, memo, Suspense, useId, useMemo, useState } from 'react';
import type { Cents } from '#domain/odds.ts';
import type { Arb, Side } from '#domain/schemas/feed.ts';
import { resolveBetLink, showsStateSelector, type DeviceKind } from '#domain/sportsbook-links.ts';
import { getSportsbook, type SportsbookConfig, type SportsbookKey } from '#domain/sportsbooks.ts';
import {
  centsToInput,
  changeWager,
  formatUsd,
  inputsToStakes,
  resetsOnBlur,
  type WagerInputs,
} from '#domain/wagers.ts';
import { TrackButton } from '#web/components/track-button.tsx';
import { arbBets, KEY_INSTANT, rowTrackKeys } from '#web/lib/tracked-bets.ts';
import { cn } from '#web/lib/cn.ts';
import { priceText } from '../lib/bettor-extras.ts';
import {
  defaultRowStakes,
  formatReturnPct,
  paidDecimals,
  splitReturn,
  typedRowStakes,
  type RowStakes,
} from '../lib/row-stakes.ts';
import { stateForBook, type SportsbookStates } from '../lib/sportsbook-preferences.ts';
import type { OddsFormat, RowSettings } from '../lib/tool-settings.ts';
import { ArbAge } from './arb-age.tsx';
import { BetButton } from './bet-button.tsx';
import { BookBadge } from './book-badge.tsx';
import { EdgeBadge } from './edge-badge.tsx';
import { PriceHistoryButton, PriceHistoryLoading, PriceHistoryPanel } from './price-history.tsx';
import { RelativeStart } from './relative-start.tsx';
import { LateBadge } from './late-badge.tsx';
import { SuspectBadge } from './suspect-badge.tsx';

/** The new-arb stars: only rows that just arrived show them, so their code loads with the first such row. */
const Stars = lazy(() => import('./stars.tsx').then((module) => ({ default: module.Stars })));

export interface ArbRowProps {
  arb: Arb;
  /** The arb's key (event id and sorted side ids): what Hide reports. */
  arbKey: string;
  highlighted: boolean;
  /** Stars to burst on this row (0 when none); `starsKey` restarts the animation for a new batch. */
  stars: number;
  starsKey: number;
  device: DeviceKind;
  states: SportsbookStates;
  onStateChange: (book: SportsbookKey, state: string) => void;
  /** Odds format, total stake and rounding; `now` only seeds the age label (the table's clock context updates it). */
  settings: RowSettings;
  /** Hides this arb; without it the row has no Hide button. */
  onHide?: ((key: string) => void) | undefined;
  /** How late the pasted key's plan shows this arb (s; decision 225); null or absent: in real time. */
  lateSeconds?: number | null;
}

interface StakeProps {
  /** The typed input of a two-sided arb; null for a computed split shown read-only (three-way arbs). */
  input: { text: string; onChange: (text: string) => void; onBlur: () => void } | null;
  stakeCents: Cents;
  payoutCents: Cents;
  /** This outcome pays less than the total staked. */
  loses: boolean;
}

const selectionOf = (side: Side) => side.name || side.selection.name;

/**
 * A side's pick at the end of a long name ("LeBron James Points" + "Over 27.5", "Travis Kelce Anytime TD" + "— Yes"):
 * set apart and never broken, so a wrapped prop still reads player, stat, then side and line (decision 126).
 */
const PICK = /^(.+) ((?:Over|Under) \S+|— \S+)$/;

const priceOf = (side: Side, format: OddsFormat) => priceText(side, format);

/** "Loses $0.40 if Boston Celtics win", "Loses $1.10 on a draw". */
function lossText(cents: Cents, side: Side | undefined): string {
  const amount = formatUsd(cents);
  const selection = side ? selectionOf(side) : '';
  if (/^(draw|tie|x)$/i.test(selection)) return `Loses ${amount} on a draw`;
  return `Loses ${amount} if ${selection || 'this outcome'} wins`;
}

function SideItem({
  side,
  price,
  book,
  stake,
  device,
  state,
  onStateChange,
}: {
  side: Side;
  price: string;
  book: SportsbookConfig;
  stake: StakeProps | null;
  device: DeviceKind;
  state: string | undefined;
  onStateChange: (book: SportsbookKey, state: string) => void;
}) {
  const link = resolveBetLink(book, side.links, device, state);
  const selection = selectionOf(side);
  const pick = PICK.exec(selection);
  const stakeName = `Stake on ${selection} at ${book.displayName}`;
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 py-2 first:pt-0 last:pb-0 xl:grid-cols-[7rem_minmax(6.5rem,1fr)_4rem_6.25rem_6.5rem_4rem_8.5rem] xl:py-1.5">
      <BookBadge book={book} className="max-xl:order-1" />
      <span
        className="min-w-0 text-sm leading-tight text-slate-200 max-xl:order-3 max-xl:col-span-2"
        title={selection}
      >
        {pick ? (
          <>
            {pick[1]} <span className="whitespace-nowrap font-semibold text-white">{pick[2]}</span>
          </>
        ) : (
          selection
        )}
      </span>
      <span className="whitespace-nowrap text-right font-mono text-sm font-semibold tabular-nums text-white max-xl:order-2">
        {price}
      </span>
      {stake ? (
        <>
          {stake.input ? (
            <label className="flex items-center gap-1 text-sm text-slate-400 max-xl:order-4">
              <span aria-hidden="true">$</span>
              <span className="sr-only">{stakeName}</span>
              <input
                name={`stake-${side.id}`}
                type="number"
                inputMode="decimal"
                step={0.01}
                min={0}
                value={stake.input.text}
                onChange={(event) => stake.input?.onChange(event.target.value)}
                onBlur={stake.input.onBlur}
                className="h-8 w-full min-w-0 rounded-md border border-slate-700 bg-slate-900 px-2 text-right font-mono text-sm text-white tabular-nums focus-visible:border-emerald-400 focus-visible:outline-2 focus-visible:outline-emerald-300"
              />
            </label>
          ) : (
            <span className="whitespace-nowrap text-right text-xs text-slate-400 max-xl:order-4 max-xl:text-left">
              <span className="sr-only">{`${stakeName}: `}</span>
              <span aria-hidden="true">Stake </span>
              <span className="font-mono text-sm text-slate-100 tabular-nums">
                {formatUsd(stake.stakeCents)}
              </span>
            </span>
          )}
          <span className="whitespace-nowrap text-right text-xs text-slate-400 max-xl:order-5">
            Pays{' '}
            <span
              className={cn(
                'font-mono text-sm tabular-nums',
                stake.loses ? 'text-red-300' : 'text-slate-100',
              )}
            >
              {formatUsd(stake.payoutCents)}
            </span>
          </span>
        </>
      ) : (
        <span className="hidden xl:col-span-2 xl:block" />
      )}
      {showsStateSelector(book, side.links, device, state) && book.states ? (
        <select
          name={`state-${side.id}`}
          aria-label={`${book.displayName} state`}
          value={state}
          onChange={(event) => onStateChange(book.key, event.target.value)}
          className="h-8 rounded-md border border-slate-700 bg-slate-900 px-1.5 text-xs uppercase text-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-300 max-xl:order-6 max-xl:justify-self-start"
        >
          {book.states.map((code) => (
            <option key={code} value={code}>
              {code.toUpperCase()}
            </option>
          ))}
        </select>
      ) : (
        <span className="max-xl:order-6" />
      )}
      <span className="max-xl:order-7 max-xl:min-w-[9rem]">
        <BetButton href={link?.href ?? null} label={book.betText} description={`${selection} ${price}`} />
      </span>
    </li>
  );
}

/**
 * Beside the edge badge (the equal-payout split's return), what the stakes shown really return whichever outcome
 * wins, when they are not that split: rounded to whole dollars, or typed (docs/decisions/160). Rounding can turn a
 * 1.94 % arb into a guaranteed loss; this says so where the bettor reads the edge.
 */
function SplitReturnText({ figures, label }: { figures: RowStakes; label: string }) {
  const { cents, hundredthsPct } = splitReturn(figures);
  return (
    <p
      data-split-return=""
      title="Guaranteed return of the stakes shown: the smallest payout minus the total staked"
      className={cn(
        'text-[11px] leading-tight whitespace-nowrap',
        cents < 0 ? 'font-semibold text-red-300' : 'text-slate-300',
      )}
    >
      <span className="text-slate-400">{label}</span>
      <span className="sr-only"> guaranteed:</span>{' '}
      <span className="font-mono tabular-nums xl:block">
        {formatUsd(cents)} ({formatReturnPct(hundredthsPct)})
      </span>
    </p>
  );
}

/** Typed stakes, remembered with the total and rounding they were typed under (a new total starts a new split). */
interface Typed {
  inputs: WagerInputs;
  totalCents: number;
  roundTo: RowSettings['roundTo'];
}

function ArbRowView({
  arb,
  arbKey,
  highlighted,
  stars,
  starsKey,
  device,
  states,
  onStateChange,
  settings,
  onHide,
  lateSeconds = null,
}: ArbRowProps) {
  const { oddsFormat, totalCents, roundTo } = settings;
  const sides = arb.sides;
  const books = sides.map((side) => getSportsbook(side.sportsbook));
  const twoWay = sides.length === 2;
  // Stakes are split and paid at each side's exact price (docs/decisions/160), not the feed's 4-place decimal.
  const decimals = useMemo(() => paidDecimals(sides), [sides]);
  const prices = useMemo(() => sides.map((side) => priceOf(side, oddsFormat)), [sides, oddsFormat]);
  // The default split: two-sided arbs start their inputs from it, three-way arbs show it read-only.
  const split = useMemo(
    () => defaultRowStakes(decimals, totalCents, roundTo),
    [decimals, totalCents, roundTo],
  );
  const defaults = useMemo<WagerInputs | null>(
    () => (twoWay ? [centsToInput(split.stakes[0]!), centsToInput(split.stakes[1]!)] : null),
    [twoWay, split],
  );
  const [typed, setTyped] = useState<Typed | null>(null);
  const typedInputs =
    twoWay && typed && typed.totalCents === totalCents && typed.roundTo === roundTo ? typed.inputs : null;
  const inputs = typedInputs ?? defaults;
  const figures: RowStakes = useMemo(
    () => (typedInputs ? typedRowStakes(inputsToStakes(typedInputs), decimals) : split),
    [typedInputs, decimals, split],
  );
  const { away, home } = arb.event.teams;
  const [historyOpen, setHistoryOpen] = useState(false);
  const historyId = useId();

  const stakeFor = (index: number): StakeProps | null => {
    const stakeCents = figures.stakes[index];
    const payoutCents = figures.payouts[index];
    if (stakeCents === undefined || payoutCents === undefined) return null;
    const loses = figures.losses.some((loss) => loss.index === index);
    if (!twoWay || !inputs) return { input: null, stakeCents, payoutCents, loses };
    const pair = [decimals[0]!, decimals[1]!] as const;
    const side = index === 0 ? 0 : 1;
    return {
      input: {
        text: inputs[side],
        onChange: (text) => setTyped({ inputs: changeWager(inputs, side, text, pair), totalCents, roundTo }),
        // docs/product.md §5: leaving an empty or zero field resets both sides to the default split.
        onBlur: () => {
          if (resetsOnBlur(inputs[side])) setTyped(null);
        },
      },
      stakeCents,
      payoutCents,
      loses,
    };
  };

  const profit = figures.guaranteedProfit;
  // What Track adds: the sides as they are (stakes and instant are taken when it is pressed).
  const trackKeys = useMemo(
    () => rowTrackKeys(arbBets(arb, figures.stakes, KEY_INSTANT)),
    [arb, figures.stakes],
  );
  const eventName = `${away.name} @ ${home.name}`;

  return (
    <>
      <tr
        data-highlighted={highlighted ? 'true' : undefined}
        className={cn(
          'border-b border-slate-800 align-top motion-safe:transition-colors motion-safe:duration-500',
          'max-xl:mb-3 max-xl:flex max-xl:flex-wrap max-xl:items-start max-xl:gap-x-3 max-xl:gap-y-2 max-xl:rounded-lg max-xl:border max-xl:bg-slate-900/60 max-xl:p-3',
          highlighted &&
            'bg-emerald-500/15 shadow-[inset_3px_0_0_0_var(--color-emerald-400)] max-xl:bg-emerald-500/15',
        )}
      >
        <td className="relative px-3 py-3 max-xl:p-0 xl:w-24">
          <div className="flex flex-col items-start gap-1">
            <EdgeBadge edge={arb.edge_pct} />
            {roundTo > 0 || typedInputs ? (
              <SplitReturnText figures={figures} label={typedInputs ? 'Your stakes' : `$${roundTo} split`} />
            ) : null}
            {highlighted ? (
              <span className="rounded bg-emerald-400 px-1.5 text-[11px] font-bold uppercase tracking-wide text-slate-950">
                New
              </span>
            ) : null}
            {arb.suspect ? <SuspectBadge /> : null}
            {lateSeconds !== null ? <LateBadge seconds={lateSeconds} /> : null}
            <TrackButton
              build={() => arbBets(arb, figures.stakes, new Date().toISOString())}
              keys={trackKeys}
              what={`${eventName}, ${arb.market}`}
              className="mt-1"
            />
            {onHide ? (
              <button
                type="button"
                data-hide={arbKey}
                aria-label={`Hide ${eventName}, ${arb.market}`}
                onClick={() => onHide(arbKey)}
                className="mt-1 inline-flex h-8 items-center rounded-md border border-slate-700 bg-slate-900 px-2.5 text-xs font-medium text-slate-200 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300"
              >
                Hide
              </button>
            ) : null}
          </div>
          {stars > 0 ? (
            <Suspense fallback={null}>
              <Stars key={starsKey} count={stars} />
            </Suspense>
          ) : null}
        </td>
        <td className="px-3 py-3 max-xl:min-w-0 max-xl:flex-1 max-xl:p-0 xl:w-44 xl:min-w-[11rem]">
          <div className="flex flex-wrap items-center gap-2">
            <span className="whitespace-nowrap font-semibold text-white">
              <abbr title={away.name} className="no-underline">
                {away.abbreviation}
              </abbr>{' '}
              @{' '}
              <abbr title={home.name} className="no-underline">
                {home.abbreviation}
              </abbr>
            </span>
            {arb.event.live ? (
              <span className="inline-flex items-center gap-1 rounded bg-red-500/15 px-1.5 text-[11px] font-bold uppercase text-red-300">
                <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-red-400" />
                Live
              </span>
            ) : null}
            <RelativeStart date={arb.event.date} />
          </div>
          <div className="mt-0.5 text-xs text-slate-400">{eventName}</div>
          <div className="mt-1 flex flex-wrap items-baseline gap-x-2">
            <span className="text-sm font-medium text-emerald-200">
              {/* The line stays with the word before it ("Over/Under 27.5", "Total 221.5"). */}
              {arb.market.replace(/ (?=\S+$)/, '\u00a0')}
            </span>
            <ArbAge foundAt={arb.found_at} fallbackNow={settings.now} />
          </div>
          <PriceHistoryButton
            open={historyOpen}
            controls={historyId}
            onToggle={() => setHistoryOpen((open) => !open)}
          />
        </td>
        <td className="px-3 py-3 max-xl:basis-full max-xl:p-0">
          <ul className="divide-y divide-slate-800/70">
            {sides.map((side, index) => {
              const book = books[index];
              if (!book) return null;
              return (
                <SideItem
                  key={side.id}
                  side={side}
                  price={prices[index] ?? side.price}
                  book={book}
                  stake={stakeFor(index)}
                  device={device}
                  state={stateForBook(book, states)}
                  onStateChange={onStateChange}
                />
              );
            })}
          </ul>
        </td>
        <td className="px-3 py-3 text-right text-sm max-xl:flex max-xl:basis-full max-xl:flex-wrap max-xl:justify-between max-xl:gap-x-3 max-xl:p-0 max-xl:text-left xl:w-32">
          <div className="whitespace-nowrap text-xs text-slate-400">
            Staked <span className="font-mono text-slate-200 tabular-nums">{formatUsd(figures.total)}</span>
          </div>
          <div
            title="Guaranteed: the smallest payout minus the total staked"
            className={cn(
              'whitespace-nowrap font-semibold',
              profit >= 0 ? 'text-emerald-300' : 'text-red-300',
            )}
          >
            <span className="sr-only">Guaranteed </span>Profit{' '}
            <span className="font-mono tabular-nums">{formatUsd(profit)}</span>
          </div>
          {figures.losses.length > 0 && figures.losses.length === sides.length ? (
            <p className="text-xs font-medium text-red-300 max-xl:basis-full xl:mt-1">
              Loses whichever side wins
            </p>
          ) : (
            figures.losses.map((loss) => (
              <p key={loss.index} className="text-xs font-medium text-red-300 max-xl:basis-full xl:mt-1">
                {lossText(loss.cents, sides[loss.index])}
              </p>
            ))
          )}
        </td>
      </tr>
      {historyOpen ? (
        // The panel is a row of its own under the arb: a full-width cell on a desktop, a card under the arb's card on
        // a phone.
        <tr className="border-b border-slate-800 bg-slate-900/40 max-xl:mb-3 max-xl:block max-xl:rounded-lg max-xl:border max-xl:bg-slate-900/60">
          <td colSpan={4} className="px-3 max-xl:block">
            <Suspense fallback={<PriceHistoryLoading />}>
              <PriceHistoryPanel id={historyId} arb={arb} oddsFormat={oddsFormat} />
            </Suspense>
          </td>
        </tr>
      ) : null}
    </>
  );
}

/**
 * Whether a row can skip rendering: its own props unchanged, and of the settings only what it draws (a new settings
 * object with the same values, or a clock tick, re-renders nothing; the age label follows the table's clock context).
 */
function sameRow(a: ArbRowProps, b: ArbRowProps): boolean {
  return (
    a.arb === b.arb &&
    a.arbKey === b.arbKey &&
    a.highlighted === b.highlighted &&
    a.stars === b.stars &&
    a.starsKey === b.starsKey &&
    a.device === b.device &&
    a.states === b.states &&
    a.onStateChange === b.onStateChange &&
    a.onHide === b.onHide &&
    (a.lateSeconds ?? null) === (b.lateSeconds ?? null) &&
    a.settings.oddsFormat === b.settings.oddsFormat &&
    a.settings.totalCents === b.settings.totalCents &&
    a.settings.roundTo === b.settings.roundTo
  );
}

/** One arb; memoised so a refresh re-renders only the rows whose arb (or highlight) changed. */
export const ArbRow = memo(ArbRowView, sameRow);

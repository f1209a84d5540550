import { memo, useId, useState } from 'react';
import type { Cents } from '#domain/odds.ts';
import type { Arb, Side } from '#domain/schemas/feed.ts';
import { resolveBetLink, showsStateSelector, type DeviceKind } from '#domain/sportsbook-links.ts';
import { getSportsbook, type SportsbookConfig, type SportsbookKey } from '#domain/sportsbooks.ts';
import {
  blurWager,
  changeWager,
  defaultInputs,
  formatUsd,
  guaranteedProfit,
  inputsToStakes,
  payout,
  type WagerInputs,
} from '#domain/wagers.ts';
import { cn } from '#web/lib/cn.ts';
import { stateForBook, type SportsbookStates } from '../lib/sportsbook-preferences.ts';
import { BetButton } from './bet-button.tsx';
import { BookBadge } from './book-badge.tsx';
import { EdgeBadge } from './edge-badge.tsx';
import { PriceHistoryButton, PriceHistoryPanel } from './price-history.tsx';
import { RelativeStart } from './relative-start.tsx';
import { Stars } from './stars.tsx';
import { SuspectBadge } from './suspect-badge.tsx';

export interface ArbRowProps {
  arb: Arb;
  highlighted: boolean;
  /** Stars to burst on this row (0 when none); `starsKey` restarts the animation for a new batch. */
  stars: number;
  starsKey: number;
  device: DeviceKind;
  states: SportsbookStates;
  onStateChange: (book: SportsbookKey, state: string) => void;
}

interface WagerProps {
  stake: string;
  payoutCents: Cents;
  onChange: (text: string) => void;
  onBlur: () => void;
}

function SideItem({
  side,
  book,
  wager,
  device,
  state,
  onStateChange,
}: {
  side: Side;
  book: SportsbookConfig;
  wager: WagerProps | null;
  device: DeviceKind;
  state: string | undefined;
  onStateChange: (book: SportsbookKey, state: string) => void;
}) {
  const link = resolveBetLink(book, side.links, device, state);
  const selection = side.name || side.selection.name;
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 py-2 first:pt-0 last:pb-0 xl:grid-cols-[7rem_minmax(6.5rem,1fr)_3.25rem_6.25rem_6.5rem_4rem_8.5rem] xl:py-1.5">
      <BookBadge book={book} className="max-xl:order-1" />
      <span
        className="min-w-0 text-sm leading-tight text-slate-200 max-xl:order-3 max-xl:col-span-2"
        title={selection}
      >
        {selection}
      </span>
      <span className="text-right font-mono text-sm font-semibold tabular-nums text-white max-xl:order-2">
        {side.price}
      </span>
      {wager ? (
        <>
          <label className="flex items-center gap-1 text-sm text-slate-400 max-xl:order-4">
            <span aria-hidden="true">$</span>
            <span className="sr-only">{`Stake on ${selection} at ${book.displayName}`}</span>
            <input
              name={`stake-${side.id}`}
              type="number"
              inputMode="decimal"
              step={0.01}
              min={0}
              value={wager.stake}
              onChange={(event) => wager.onChange(event.target.value)}
              onBlur={wager.onBlur}
              className="h-8 w-full min-w-0 rounded-md border border-slate-700 bg-slate-900 px-2 text-right font-mono text-sm text-white tabular-nums focus-visible:border-emerald-400 focus-visible:outline-2 focus-visible:outline-emerald-300"
            />
          </label>
          <span className="whitespace-nowrap text-right text-xs text-slate-400 max-xl:order-5">
            Pays{' '}
            <span className="font-mono text-sm text-slate-100 tabular-nums">
              {formatUsd(wager.payoutCents)}
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
        <BetButton
          href={link?.href ?? null}
          label={book.betText}
          description={`${selection} ${side.price}`}
        />
      </span>
    </li>
  );
}

function ArbRowView({ arb, highlighted, stars, starsKey, device, states, onStateChange }: ArbRowProps) {
  const books = arb.sides.map((side) => getSportsbook(side.sportsbook));
  const twoWay = arb.sides.length === 2;
  const decimals = twoWay ? ([arb.sides[0]!.decimal_odds, arb.sides[1]!.decimal_odds] as const) : null;
  const [typed, setTyped] = useState<WagerInputs | null>(null);
  const inputs = decimals ? (typed ?? defaultInputs(decimals)) : null;
  const stakes = inputs ? inputsToStakes(inputs) : null;
  const { away, home } = arb.event.teams;
  const [historyOpen, setHistoryOpen] = useState(false);
  const historyId = useId();

  const wagerFor = (index: 0 | 1): WagerProps | null => {
    if (!decimals || !inputs || !stakes) return null;
    return {
      stake: inputs[index],
      payoutCents: payout(stakes[index]!, decimals[index]),
      onChange: (text) => setTyped(changeWager(inputs, index, text, decimals)),
      onBlur: () => {
        const next = blurWager(inputs, index, decimals);
        setTyped(next === inputs ? inputs : null);
      },
    };
  };

  const profit = decimals && stakes ? guaranteedProfit(stakes, decimals) : null;
  const staked = stakes ? (stakes.reduce((a, b) => a + b, 0) as Cents) : null;

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
            {highlighted ? (
              <span className="rounded bg-emerald-400 px-1.5 text-[11px] font-bold uppercase tracking-wide text-slate-950">
                New
              </span>
            ) : null}
            {arb.suspect ? <SuspectBadge /> : null}
          </div>
          {stars > 0 ? <Stars key={starsKey} count={stars} /> : null}
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
          <div className="mt-0.5 text-xs text-slate-400">
            {away.name} @ {home.name}
          </div>
          <div className="mt-1 text-sm font-medium text-emerald-200">{arb.market}</div>
          <PriceHistoryButton
            open={historyOpen}
            controls={historyId}
            onToggle={() => setHistoryOpen((open) => !open)}
          />
        </td>
        <td className="px-3 py-3 max-xl:basis-full max-xl:p-0">
          <ul className="divide-y divide-slate-800/70">
            {arb.sides.map((side, index) => {
              const book = books[index];
              if (!book) return null;
              return (
                <SideItem
                  key={side.id}
                  side={side}
                  book={book}
                  wager={index < 2 ? wagerFor(index as 0 | 1) : null}
                  device={device}
                  state={stateForBook(book, states)}
                  onStateChange={onStateChange}
                />
              );
            })}
          </ul>
        </td>
        <td className="px-3 py-3 text-right text-sm max-xl:flex max-xl:basis-full max-xl:justify-between max-xl:p-0 max-xl:text-left xl:w-28">
          {profit !== null && staked !== null ? (
            <>
              <div className="whitespace-nowrap text-xs text-slate-400">
                Staked <span className="font-mono text-slate-200 tabular-nums">{formatUsd(staked)}</span>
              </div>
              <div
                className={cn(
                  'whitespace-nowrap font-semibold',
                  profit >= 0 ? 'text-emerald-300' : 'text-red-300',
                )}
              >
                Profit <span className="font-mono tabular-nums">{formatUsd(profit)}</span>
              </div>
            </>
          ) : (
            <span className="text-xs text-slate-400">Stake calculator: two-way arbs only</span>
          )}
        </td>
      </tr>
      {historyOpen ? (
        // The panel is a row of its own under the arb: a full-width cell on a desktop, a card under the arb's card on
        // a phone.
        <tr className="border-b border-slate-800 bg-slate-900/40 max-xl:mb-3 max-xl:block max-xl:rounded-lg max-xl:border max-xl:bg-slate-900/60">
          <td colSpan={4} className="px-3 max-xl:block">
            <PriceHistoryPanel id={historyId} arb={arb} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** One arb; memoised so a refresh re-renders only the rows whose arb (or highlight) changed. */
export const ArbRow = memo(ArbRowView);

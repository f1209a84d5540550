import { useEffect, useMemo, useRef } from 'react';
import { ROUTES } from '#domain/site.ts';
import { canonicalDecimal } from '#domain/arbitrage.ts';
import { americanToDecimal, type AmericanOdds } from '#domain/odds.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { HistoryTeaser } from '#domain/schemas/history-teaser.ts';
import { priceText } from '../lib/bettor-extras.ts';
import { americanText, chartColumns, lineSummary, priceLines } from '../lib/price-history.ts';
import type { OddsFormat } from '../lib/tool-settings.ts';
import { drawPriceChart, LINE_DASHES, LINE_COLOURS } from '../lib/price-chart.ts';

// The chart chunk (loaded by price-history.tsx when a row's history is opened): the sides' prices over the last hour
// as a uPlot line chart, with a legend that is also the text summary (one sentence per side, read by screen readers
// in place of the canvas).

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

function Swatch({ index }: { index: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 8" className="mt-1.5 h-2 w-6 shrink-0">
      <line
        x1="1"
        y1="4"
        x2="23"
        y2="4"
        stroke={LINE_COLOURS[index % LINE_COLOURS.length]}
        strokeWidth="2.5"
        strokeDasharray={LINE_DASHES[index % LINE_DASHES.length]!.join(' ') || undefined}
      />
    </svg>
  );
}

/** A price (American, as the teaser carries it) in the page's odds format. */
function priceWriter(oddsFormat: OddsFormat): (american: number) => string {
  if (oddsFormat === 'american') return americanText;
  return (american) =>
    priceText(
      {
        price: americanText(american),
        decimal_odds: canonicalDecimal(americanToDecimal(american as AmericanOdds)),
      },
      oddsFormat,
    );
}

export function PriceHistoryChart({
  arb,
  history,
  oddsFormat = 'american',
}: {
  arb: Arb;
  history: HistoryTeaser;
  oddsFormat?: OddsFormat;
}) {
  const lines = useMemo(() => priceLines(arb, history), [arb, history]);
  const price = useMemo(() => priceWriter(oddsFormat), [oddsFormat]);
  const plotRef = useRef<HTMLDivElement>(null);
  const readoutRef = useRef<HTMLParagraphElement>(null);
  const hasPrices = lines.some((line) => line.prices.some(([, price]) => price !== null));

  useEffect(() => {
    const element = plotRef.current;
    if (!element || !hasPrices) return;
    const chart = drawPriceChart(element, {
      lines,
      columns: chartColumns(lines),
      width: element.clientWidth || 320,
      price,
      onReadout: (text) => {
        if (readoutRef.current) readoutRef.current.textContent = text;
      },
    });
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => chart.setWidth(element.clientWidth));
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      chart.destroy();
    };
  }, [lines, hasPrices, price]);

  const from = new Date(history.from * 1000);
  const to = new Date(history.to * 1000);
  return (
    <div className="py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="text-sm font-semibold text-white">
          Prices over the last hour{' '}
          <span className="font-normal text-slate-400">
            (<time dateTime={from.toISOString()}>{timeFormat.format(from)}</time> to{' '}
            <time dateTime={to.toISOString()}>{timeFormat.format(to)}</time>, your time)
          </span>
        </h3>
        <a
          href={ROUTES.pricing}
          className="text-xs text-emerald-300 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-300"
        >
          Every price change in the odds API
        </a>
      </div>
      {lines.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm text-slate-200">
          {lines.map((line, index) => (
            <li key={line.sideId} className="flex items-start gap-2">
              <Swatch index={index} />
              <span>{lineSummary(line, history.to, price)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-300">No prices recorded for this arb in the last hour.</p>
      )}
      {hasPrices ? (
        <>
          <p className="mt-2 text-xs text-slate-400">
            Higher is a better price; gaps are minutes without a price.
          </p>
          <div ref={plotRef} aria-hidden="true" className="mt-1 h-40 w-full" />
          <p ref={readoutRef} aria-hidden="true" className="h-4 font-mono text-xs text-slate-300" />
        </>
      ) : null}
    </div>
  );
}

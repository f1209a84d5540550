import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { americanText, americanTicks, probabilityToAmerican, type PriceLine } from './price-history.ts';

// Draws the price-history chart with uPlot (docs/decisions/112-price-history-chart.md). Part of the chart chunk only:
// nothing on the page's initial path imports this module.
//
// The vertical scale is the implied probability (1 / decimal odds), upside down so that a better price is higher,
// labelled in American odds at round values. American odds on a linear axis jump from −100 to +100 at even money, where
// arbs' sides usually sit, and stretch long shots; the probability scale is continuous and even, and the labels stay
// the odds a bettor reads. Each line is stepped (the price in force until the next minute) and breaks where a minute
// has no price: a gap is never bridged.

export const LINE_COLOURS = ['#6ee7b7', '#7dd3fc', '#fcd34d'] as const;
/** Dash patterns, so the lines differ without colour too. */
export const LINE_DASHES: readonly number[][] = [[], [6, 4], [2, 3]];

const AXIS = '#94a3b8';
const GRID = 'rgba(148, 163, 184, 0.14)';
const FONT = '11px ui-sans-serif, system-ui, sans-serif';
const HEIGHT = 160;

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** Indices of the values with no value on either side (a line cannot show them). */
export function isolatedPoints(values: readonly (number | null)[]): number[] {
  return values.flatMap((value, index) =>
    value !== null && (values[index - 1] ?? null) === null && (values[index + 1] ?? null) === null
      ? [index]
      : [],
  );
}

export interface PriceChart {
  setWidth(width: number): void;
  destroy(): void;
}

export function drawPriceChart(
  element: HTMLElement,
  {
    lines,
    columns,
    width,
    onReadout,
    price = americanText,
  }: {
    /** Writes a price in the page's odds format (American by default). */
    price?: (american: number) => string;
    lines: readonly PriceLine[];
    columns: [number[], ...(number | null)[][]];
    width: number;
    /** Called with the minute under the pointer and each side's price there, or '' when the pointer leaves. */
    onReadout: (text: string) => void;
  },
): PriceChart {
  const [times] = columns;
  const stepped = uPlot.paths.stepped!({ align: 1 });
  const options: uPlot.Options = {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { size: 7 } },
    scales: {
      x: { time: true },
      y: {
        dir: -1,
        range: (_chart, min, max) => {
          const pad = Math.max((max - min) * 0.15, 0.01);
          return [Math.max(0.001, min - pad), Math.min(0.999, max + pad)];
        },
      },
    },
    axes: [
      {
        stroke: AXIS,
        font: FONT,
        grid: { stroke: GRID, width: 1 },
        ticks: { stroke: GRID, width: 1 },
        values: (_chart, splits) => splits.map((at) => timeFormat.format(new Date(at * 1000))),
        space: 64,
      },
      {
        stroke: AXIS,
        font: FONT,
        size: 48,
        grid: { stroke: GRID, width: 1 },
        ticks: { stroke: GRID, width: 1 },
        splits: (_chart, _axis, min, max) => americanTicks(min, max),
        values: (_chart, splits) => splits.map((p) => price(probabilityToAmerican(p))),
      },
    ],
    series: [
      {},
      ...lines.map((line, index) => ({
        label: `${line.book} ${line.selection}`,
        stroke: LINE_COLOURS[index % LINE_COLOURS.length],
        dash: LINE_DASHES[index % LINE_DASHES.length],
        width: 2,
        spanGaps: false,
        paths: stepped,
        // A minute priced between two unpriced ones has no segment: it is drawn as a dot.
        points: {
          show: true,
          size: 5,
          fill: LINE_COLOURS[index % LINE_COLOURS.length],
          filter: (_chart: uPlot, seriesIndex: number) =>
            isolatedPoints(columns[seriesIndex] as (number | null)[]),
        },
      })),
    ],
    hooks: {
      setCursor: [
        (chart) => {
          const index = chart.cursor.idx;
          if (index === null || index === undefined) return onReadout('');
          const at = times[index]!;
          const prices = lines.map((line) => {
            const at_ = line.prices.find(([time]) => time === at)?.[1];
            return `${line.book} ${at_ === null || at_ === undefined ? 'no price' : price(at_)}`;
          });
          onReadout(`${timeFormat.format(new Date(at * 1000))} · ${prices.join(' · ')}`);
        },
      ],
    },
  };
  const chart = new uPlot(options, columns as uPlot.AlignedData, element);
  return {
    setWidth: (next) => {
      if (next > 0 && next !== chart.width) chart.setSize({ width: next, height: HEIGHT });
    },
    destroy: () => chart.destroy(),
  };
}

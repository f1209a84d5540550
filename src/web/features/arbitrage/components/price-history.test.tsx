// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { arbKey } from '#domain/arb-feed.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import type { HistoryPoint, HistoryTeaser } from '#domain/schemas/history-teaser.ts';
import { moneyline } from '#tests/support/arbitrage-fixtures.ts';
import { loadBettorExtras } from '../lib/bettor-extras.ts';
import { DEFAULT_ROW_SETTINGS, type OddsFormat } from '../lib/tool-settings.ts';
import { ArbTable } from './arb-table.tsx';

// uPlot draws on a canvas, which jsdom does not have: a stand-in keeps what the chart was given.
const charts = vi.hoisted(() => [] as { data: unknown[][]; destroyed: boolean }[]);
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { stepped: () => () => null };
    record: { data: unknown[][]; destroyed: boolean };
    width: number;
    constructor(options: { width: number }, data: unknown[][]) {
      this.width = options.width;
      this.record = { data, destroyed: false };
      charts.push(this.record);
    }
    setSize() {}
    destroy() {
      this.record.destroyed = true;
    }
  }
  return { default: FakePlot };
});

const TO = 1_763_700_000;
const FROM = TO - 3600;
const minutes = (price: (minute: number) => [number, number] | null): HistoryPoint[] =>
  Array.from({ length: 61 }, (_, minute) => {
    const value = price(minute);
    return [FROM + minute * 60, value?.[0] ?? null, value?.[1] ?? null];
  });
const american = (a: number): [number, number] => [a, a > 0 ? 1 + a / 100 : 1 + 100 / -a];

function history(celtics: HistoryPoint[], knicks: HistoryPoint[], id = 'celtics'): HistoryTeaser {
  return {
    event: id,
    from: FROM,
    to: TO,
    interval_s: 60,
    sides: [
      { id: `${id}-fd`, book: 'fanduel', outcome: 'home', points: celtics },
      { id: `${id}-dk`, book: 'draftkings', outcome: 'away', points: knicks },
    ],
  };
}

/** FanDuel Celtics from +150 to +155 (+160 for ten minutes); DraftKings Knicks -150 then -140. */
const steady = history(
  minutes((m) => american(m < 30 ? 150 : m < 40 ? 160 : 155)),
  minutes((m) => american(m < 45 ? -150 : -140)),
);

type Answer = HistoryTeaser | { status: number };
let answers: Answer[] = [];
const fetchMock = vi.fn(async (url: string): Promise<Response> => {
  void url;
  const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
  if ('status' in answer)
    return new Response('{"title":"Not Found"}', {
      status: answer.status,
      headers: { 'content-type': 'application/problem+json' },
    });
  return new Response(JSON.stringify(answer), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
});

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
  charts.length = 0;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderRow(arb: Arb = moneyline(), oddsFormat: OddsFormat = 'american') {
  render(
    <ArbTable
      caption="Arbs"
      rows={[{ key: arbKey(arb), arb, highlighted: false, stars: 0, starsKey: 0 }]}
      device="desktop"
      states={{}}
      onStateChange={vi.fn()}
      settings={{ ...DEFAULT_ROW_SETTINGS, oddsFormat, now: Date.now() }}
    />,
  );
  return screen.getByRole('button', { name: 'Price history' });
}

/** The panel: its chunk loads when a row is first opened (React.lazy), so it is awaited. */
const panel = () => screen.findByRole('region', { name: /^Price history:/ });

describe('price history of an arb row', () => {
  it('opens and closes with a button that says whether it is expanded, fetching the history once when opened', async () => {
    answers = [steady];
    const button = renderRow();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', (await panel()).id);
    expect(within(await panel()).getByRole('status')).toHaveTextContent('Loading price history...');
    await within(await panel()).findByText(/^FanDuel Boston Celtics:/);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/tools/history.json?event=celtics&sides=celtics-fd,celtics-dk');
    // The chart is drawn by an effect once its panel is on screen: a moment after the summary, later under load.
    await waitFor(() => expect(charts).toHaveLength(1));

    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: /^Price history:/ })).not.toBeInTheDocument();
    expect(charts[0]!.destroyed).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('works from the keyboard', async () => {
    answers = [steady];
    const button = renderRow();
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await within(await panel()).findByText(/^FanDuel Boston Celtics:/);
    await userEvent.keyboard(' ');
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('sums up each side in words, first price to the latest, named as the row names the book and selection', async () => {
    answers = [steady];
    await userEvent.click(renderRow());
    const items = await within(await panel()).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'FanDuel Boston Celtics: +150 an hour ago, +155 now (best +160)',
      'DraftKings New York Knicks: -150 an hour ago, -140 now',
    ]);
    // Times in the viewer's own time zone: the range of the hour as this browser formats it.
    const format = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
    expect(within(await panel()).getByRole('heading')).toHaveTextContent(
      `Prices over the last hour (${format.format(FROM * 1000)} to ${format.format(TO * 1000)}, your time)`,
    );
  });

  it('writes the prices in the page’s odds format, like the row does', async () => {
    await loadBettorExtras();
    answers = [steady];
    await userEvent.click(renderRow(moneyline(), 'decimal'));
    const items = await within(await panel()).findAllByRole('listitem');
    // +150 → 2.50, +155 → 2.55, +160 → 2.60; −150 → 1.66 (1.6666 rounded down), −140 → 1.71.
    expect(items.map((item) => item.textContent)).toEqual([
      'FanDuel Boston Celtics: 2.50 an hour ago, 2.55 now (best 2.60)',
      'DraftKings New York Knicks: 1.66 an hour ago, 1.71 now',
    ]);
  });

  it('never gives a price to a minute without one: gaps are counted, skipped in the words and left empty in the chart', async () => {
    // DraftKings suspended for the first ten minutes and the last three, FanDuel for minutes 20 to 24. The row shows
    // DraftKings at -140 now: the last minute is the row's price (issue 34), so two of those three stay gaps.
    answers = [
      history(
        minutes((m) => (m >= 20 && m < 25 ? null : american(150))),
        minutes((m) => (m < 10 || m > 57 ? null : american(m < 30 ? -150 : -140))),
      ),
    ];
    await userEvent.click(renderRow());
    const items = await within(await panel()).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'FanDuel Boston Celtics: +150 an hour ago, +155 now (no price for 5 minutes)',
      'DraftKings New York Knicks: -150 50 minutes ago, -140 now (no price for 12 minutes)',
    ]);
    await waitFor(() => expect(charts).toHaveLength(1));
    const [times, celtics, knicks] = charts[0]!.data as [number[], (number | null)[], (number | null)[]];
    expect(times).toHaveLength(61);
    expect(celtics.slice(19, 26).map((p) => p === null)).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(knicks.filter((p) => p === null)).toHaveLength(12);
    expect(knicks[10]).toBeCloseTo(0.6, 6); // -150 as the implied probability the chart plots
  });

  it('says "now" at the row\'s own price, in the words and at the chart\'s last point', async () => {
    // The history's last minute has FanDuel at +150 and DraftKings at -150; the row shows +155 and -140 (issue 34:
    // the panel said "1.80 now" while the row showed 1.83).
    answers = [
      history(
        minutes(() => american(150)),
        minutes(() => american(-150)),
      ),
    ];
    await userEvent.click(renderRow());
    const items = await within(await panel()).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'FanDuel Boston Celtics: +150 an hour ago, +155 now',
      'DraftKings New York Knicks: -150 an hour ago, -140 now',
    ]);
    await waitFor(() => expect(charts).toHaveLength(1));
    const [times, celtics] = charts[0]!.data as [number[], (number | null)[]];
    expect(times).toHaveLength(61);
    expect(celtics.at(-1)).toBeCloseTo(100 / 255, 6); // +155
  });

  it('adds a point at the end of the hour when the history stops before it', async () => {
    const short = history(
      minutes(() => american(150)).slice(0, 50),
      minutes(() => american(-150)),
    );
    answers = [short];
    await userEvent.click(renderRow());
    const items = await within(await panel()).findAllByRole('listitem');
    expect(items[0]!.textContent).toBe('FanDuel Boston Celtics: +150 an hour ago, +155 now');
  });

  it('says when history has no price for the arb, and draws no chart', async () => {
    answers = [{ ...steady, sides: [] }];
    await userEvent.click(renderRow());
    expect(
      await within(await panel()).findByText('No prices recorded for this arb in the last hour.'),
    ).toBeInTheDocument();
    expect(charts).toHaveLength(0);
  });

  it('shows "Price history unavailable" when the history cannot be read, and Try again fetches it again', async () => {
    answers = [{ status: 404 }, steady];
    await userEvent.click(renderRow());
    expect(await within(await panel()).findByRole('alert')).toHaveTextContent('Price history unavailable');
    await userEvent.click(within(await panel()).getByRole('button', { name: 'Try again' }));
    await within(await panel()).findByText(/^FanDuel Boston Celtics:/);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('treats an answer that breaks the schema as unavailable', async () => {
    answers = [{ ...steady, interval_s: 300 } as unknown as HistoryTeaser];
    await userEvent.click(renderRow());
    expect(await within(await panel()).findByRole('alert')).toHaveTextContent('Price history unavailable');
    await waitFor(() => expect(charts).toHaveLength(0));
  });
});

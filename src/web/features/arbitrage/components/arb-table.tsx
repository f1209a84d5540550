import { useCallback, useLayoutEffect, useRef } from 'react';
import type { Arb } from '#domain/schemas/feed.ts';
import type { DeviceKind } from '#domain/sportsbook-links.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import { useNow } from '../hooks/use-now.ts';
import type { SportsbookStates } from '../lib/sportsbook-preferences.ts';
import type { KeyedView } from '../api/get-arbs.ts';
import { lateSeconds } from '../lib/plan-view.ts';
import { DEFAULT_ROW_SETTINGS, type RowSettings } from '../lib/tool-settings.ts';
import { RowClockContext } from './arb-age.tsx';
import { ArbRow } from './arb-row.tsx';

export interface TableRow {
  key: string;
  arb: Arb;
  highlighted: boolean;
  stars: number;
  starsKey: number;
}

export interface ArbTableProps {
  caption: string;
  rows: readonly TableRow[];
  device: DeviceKind;
  states: SportsbookStates;
  onStateChange: (book: SportsbookKey, state: string) => void;
  /** Odds format, total stake, rounding and the clock; docs/product.md's American prices and $200 cent split by default. */
  settings?: RowSettings;
  /** Hides the arb with this key; without it rows have no Hide button. */
  onHide?: (key: string) => void;
  /**
   * Lists the near-arbs (edge 0 % or less, rows sorted best first) in a group of their own under a labelled divider
   * saying they guarantee no profit (issue 34).
   */
  nearArbDivider?: boolean;
  /** How many near-arbs the tab has (its divider says so; the table may draw only the first of them). */
  nearCount?: number;
  /** A pasted key's plan: its rows above the free cap come late and are marked so (decision 225). */
  plan?: KeyedView | undefined;
}

/** The near-arbs' divider, with their count (issue 56: the tabs count only the rows with a guaranteed profit). */
export function nearArbDividerText(count: number): string {
  return `${count} near-arb${count === 1 ? '' : 's'}: an edge of 0 % or less guarantees no profit. Listed to watch for a price to move.`;
}

const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-400';

/** After a Hide, the next row's Hide button (or the previous one, or the table) takes the focus the row took away. */
interface PendingFocus {
  key: string;
  index: number;
}

export function ArbTable({
  caption,
  rows,
  device,
  states,
  onStateChange,
  settings,
  onHide,
  nearArbDivider = false,
  nearCount,
  plan,
}: ArbTableProps) {
  // Without the page's settings: docs/product.md's defaults, with the shared 15 s clock of the start times for the ages.
  const clockNow = useNow();
  const rowSettings = settings ?? { ...DEFAULT_ROW_SETTINGS, now: clockNow };
  const tableRef = useRef<HTMLTableElement>(null);
  const emptyRef = useRef<HTMLParagraphElement>(null);
  const pendingFocus = useRef<PendingFocus | null>(null);

  // Rows get one stable callback whatever the page passes, so a new function from the page re-renders no row.
  const onHideRef = useRef(onHide);
  useLayoutEffect(() => {
    onHideRef.current = onHide;
  });
  const hide = useCallback((key: string) => {
    const buttons = [...(tableRef.current?.querySelectorAll<HTMLElement>('[data-hide]') ?? [])];
    pendingFocus.current = { key, index: buttons.findIndex((button) => button.dataset.hide === key) };
    onHideRef.current?.(key);
  }, []);

  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending) return;
    pendingFocus.current = null;
    // Only when the hidden row is gone and took the focus with it.
    if (rows.some((row) => row.key === pending.key)) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const buttons = tableRef.current?.querySelectorAll<HTMLElement>('[data-hide]');
    const next = buttons?.length
      ? buttons[Math.min(Math.max(pending.index, 0), buttons.length - 1)]
      : undefined;
    (next ?? tableRef.current ?? emptyRef.current)?.focus();
  }, [rows]);

  const split = nearArbDivider ? rows.findIndex((row) => row.arb.edge_pct <= 0) : -1;
  const profitRows = split === -1 ? rows : rows.slice(0, split);
  const nearRows = split === -1 ? [] : rows.slice(split);
  const renderRow = (row: TableRow) => (
    <ArbRow
      key={row.key}
      arb={row.arb}
      arbKey={row.key}
      highlighted={row.highlighted}
      stars={row.stars}
      starsKey={row.starsKey}
      device={device}
      states={states}
      onStateChange={onStateChange}
      settings={rowSettings}
      onHide={onHide ? hide : undefined}
      lateSeconds={lateSeconds(row.arb.edge_pct, plan)}
    />
  );

  if (rows.length === 0) {
    return (
      <p
        ref={emptyRef}
        role="status"
        tabIndex={-1}
        className="rounded-lg border border-dashed border-slate-700 px-4 py-12 text-center text-slate-300 focus:outline-none"
      >
        No arbs found
      </p>
    );
  }
  return (
    <RowClockContext value={rowSettings.now}>
      <table ref={tableRef} tabIndex={-1} className="w-full border-collapse focus:outline-none max-xl:block">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-700 max-xl:sr-only">
          <tr>
            <th scope="col" className={th}>
              Edge
            </th>
            <th scope="col" className={th}>
              Event
            </th>
            <th scope="col" className={th}>
              Bets
            </th>
            <th scope="col" className={`${th} text-right`}>
              Return
            </th>
          </tr>
        </thead>
        {profitRows.length > 0 ? <tbody className="max-xl:block">{profitRows.map(renderRow)}</tbody> : null}
        {nearRows.length > 0 ? (
          <tbody data-testid="near-arbs" className="max-xl:block">
            <tr className="max-xl:block">
              <th
                scope="colgroup"
                colSpan={4}
                className="border-t-2 border-dashed border-slate-600 px-3 pb-2 pt-4 text-left text-sm font-medium text-slate-300 max-xl:block"
              >
                {nearArbDividerText(nearCount ?? nearRows.length)}
              </th>
            </tr>
            {nearRows.map(renderRow)}
          </tbody>
        ) : null}
      </table>
    </RowClockContext>
  );
}

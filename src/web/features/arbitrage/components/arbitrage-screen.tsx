import {
  lazy,
  startTransition,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { arbKey } from '#domain/arb-feed.ts';
import { cn } from '#web/lib/cn.ts';
import { useStoredKey } from '#web/lib/key-store.ts';
import { FoldChevron } from '#web/ui/fold-chevron.tsx';
import { Button } from '#web/ui/button.tsx';
import { Switch } from '#web/ui/switch.tsx';
import { keyedInterval, useArbs, type KeyedView } from '../api/get-arbs.ts';
import { KeyedFeedError } from '#web/lib/keyed-fetch.ts';
import { FREE_PLAN } from '#domain/plans.ts';
import { planViewText } from '../lib/plan-view.ts';
import { useDevice } from '../hooks/use-device.ts';
import { useActiveHighlights, type HighlightBatch } from '../hooks/use-new-arb-highlights.ts';
import { usePageClock } from '../hooks/use-page-clock.ts';
import { useReducedMotion } from '../hooks/use-reduced-motion.ts';
import { useShortcuts } from '../hooks/use-shortcuts.ts';
import {
  useSelectedSportsbooks,
  useShowSuspectArbs,
  useSportsbookStates,
} from '../hooks/use-sportsbook-preferences.ts';
import {
  useAlertsSetting,
  useArbView,
  useAutoRefreshSetting,
  useHiddenArbs,
  useStakeSettings,
} from '../hooks/use-tool-settings.ts';
import type { FeedArb } from '../lib/arb-filters.ts';
import { arbsByTab, MAX_STARS, refreshInterval, STARS_PER_NEW_ARB, type ArbMode } from '../lib/arbs.ts';
import { arbFilter, bettorExtrasReady, loadBettorExtras } from '../lib/bettor-extras.ts';
import type { RowSettings } from '../lib/tool-settings.ts';
import { ArbTable, type TableRow } from './arb-table.tsx';
import { ArbToolbar } from './arb-toolbar.tsx';
import { ModeTabs, panelId, tabId } from './mode-tabs.tsx';
import { RefreshMeasure } from './refresh-measure.tsx';
import { SportsbookPicker } from './sportsbook-picker.tsx';
import { SUSPECT_NOTE } from './suspect-badge.tsx';
import { ToolKeyBox } from '#web/components/tool-key-box.tsx';

const ArbAlerts = lazy(() => import('./arb-alerts.tsx'));

const NO_HIGHLIGHTS: readonly HighlightBatch[] = [];
const NO_ARBS: readonly FeedArb[] = [];

/** Rows rendered at first (best edges); "Show more" adds as many again. Keeps each refresh's commit small. */
const PAGE_SIZE = 25;

/**
 * Rows drawn with the first data: more than a screen at 390 px and at 1280 px. The rest of the first page joins when
 * the visitor scrolls towards the end of the list, moves the focus into its last rows or asks with "Show more", so the
 * first render and the page's DOM stay small (docs/decisions/168).
 */
export const FIRST_ROWS = 10;

/** With Auto off, rows older than this are said to be (issue 34). */
export const STALE_AFTER_MS = 30_000;

/** "45 s", "3 min", "2 h": how old the rows are. */
function ageText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}

const MODES: readonly { value: ArbMode; label: string; caption: string }[] = [
  { value: 'prematch', label: 'Pre-match', caption: 'Pre-match arbitrage opportunities, highest edge first' },
  { value: 'live', label: 'Live', caption: 'Live arbitrage opportunities, highest edge first' },
];

function RefreshIcon({ spinning }: { spinning: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={cn('h-4 w-4', spinning && 'motion-safe:animate-spin')}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d="M21 12a9 9 0 1 1-2.64-6.36M21 3v6h-6" />
    </svg>
  );
}

/**
 * Calls `onApproach` once it comes within a screen's height of the viewport (the visitor scrolls towards the end of the
 * rows drawn), or at once where the browser cannot tell. Renders an empty marker.
 */
function RowsApproach({ onApproach }: { onApproach: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const marker = ref.current;
    if (!marker || typeof IntersectionObserver === 'undefined') {
      onApproach();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onApproach();
      },
      { rootMargin: '0px 0px 100% 0px' },
    );
    observer.observe(marker);
    return () => observer.disconnect();
  }, [onApproach]);
  return <div ref={ref} aria-hidden="true" data-rows-approach="" />;
}

export function ArbitrageScreen() {
  const [mode, setMode] = useState<ArbMode>('prematch');
  const { auto, toggleAuto } = useAutoRefreshSetting();
  // Phones: the filters and settings fold under one button, so the first arb is on the first screen (issue 34).
  const [toolsOpen, setToolsOpen] = useState(false);
  const [manualRefreshing, setManualRefreshing] = useState(false);
  const { selected, setSelected } = useSelectedSportsbooks();
  const { states, setState } = useSportsbookStates();
  const { showSuspect, setShowSuspect } = useShowSuspectArbs();
  const device = useDevice();
  const reducedMotion = useReducedMotion();

  // The highlights live in the query's data, so the interval reads the previous render's; the timer that ends a
  // highlight re-renders, which is when the interval returns to 1000 ms.
  const [highlightActive, setHighlightActive] = useState(false);
  // A key pasted in the key box (this tab's sessionStorage, as /account keeps it): the page reads its plan's
  // /v1/arbs instead of the public feed, refreshing within half the key's requests per minute (decision 213).
  const apiKey = useStoredKey();
  const [keyPlan, setKeyPlan] = useState<KeyedView | undefined>(undefined);
  const interval = refreshInterval(highlightActive);
  const query = useArbs({
    refetchInterval: auto ? (apiKey ? keyedInterval(interval, keyPlan?.perMinute ?? null) : interval) : false,
    apiKey,
  });
  const result = query.data;
  const plan = apiKey ? (result?.plan ?? keyPlan) : undefined;
  if (plan !== keyPlan) setKeyPlan(plan);
  const keyError = apiKey && query.error instanceof KeyedFeedError ? query.error : undefined;
  const highlights = useActiveHighlights(result?.highlights ?? NO_HIGHLIGHTS);
  if (highlightActive !== highlights.length > 0) setHighlightActive(highlights.length > 0);

  const arbs = result?.feed.arbs;
  // Suspect arbs are left out before the one-per-market choice, so a market whose best combination is suspect shows
  // its best plausible one instead; `suspect` counts, per tab, the suspect rows the toggle would show
  // (docs/decisions/065).
  const { tabs, suspect } = useMemo(() => {
    const all = arbs ?? [];
    const withSuspect = arbsByTab(all, selected);
    const count = (mode: ArbMode) => withSuspect[mode].filter((arb) => arb.suspect).length;
    const suspect = { prematch: count('prematch'), live: count('live') };
    const hide = !showSuspect && suspect.prematch + suspect.live > 0;
    const tabs = hide
      ? arbsByTab(
          all.filter((arb) => !arb.suspect),
          selected,
        )
      : withSuspect;
    return { tabs, suspect };
  }, [arbs, selected, showSuspect]);

  // Issue 14's filters and hidden arbs, applied to each tab's list after the one-per-market choice (their result is
  // the same before or after it: every filter is per market, and the minimum edge keeps the best of a market when it
  // keeps any). Memoised on the lists and the settings; the clock counts only while "Starts within" is set.
  const now = usePageClock();
  const { filters, oddsFormat, setFilters, setOddsFormat } = useArbView();
  const { totalCents, roundTo, setTotalCents, setRoundTo } = useStakeSettings();
  const { hidden, hide, showAll } = useHiddenArbs(result?.keys);
  const filterNow = filters.startsWithin === 'any' ? 0 : now;
  // Other odds formats, rounded stakes and the filters' predicate come from a chunk loaded when one is chosen: the
  // rows wait for it (a few KB, usually there before the feed), so no row is ever drawn in a format, a split or a
  // filter not asked for.
  const [, setExtrasLoads] = useState(0);
  const formatReady = bettorExtrasReady(oddsFormat, roundTo, filters);
  const filtered = useMemo(() => {
    // Ready turns true when the chunk arrives: the predicate exists from then on.
    const keep = formatReady ? arbFilter(filters, filterNow) : null;
    if (!keep && hidden.size === 0) return tabs;
    const pick = (list: readonly FeedArb[]) =>
      list.filter((arb) => (!keep || keep(arb)) && (hidden.size === 0 || !hidden.has(arbKey(arb))));
    return { prematch: pick(tabs.prematch), live: pick(tabs.live) };
  }, [tabs, filters, filterNow, hidden, formatReady]);
  const { alerts, setAlerts, thresholdPct, setThresholdPct } = useAlertsSetting();
  const eligible = useMemo(
    () => (alerts && formatReady ? [...filtered.prematch, ...filtered.live] : NO_ARBS),
    [alerts, formatReady, filtered],
  );
  useEffect(() => {
    if (formatReady) return;
    let live = true;
    void loadBettorExtras().then(() => {
      if (live) setExtrasLoads((loads) => loads + 1);
    });
    return () => {
      live = false;
    };
  }, [formatReady]);
  const settings = useMemo<RowSettings>(
    () => ({ oddsFormat, totalCents, roundTo, now }),
    [oddsFormat, totalCents, roundTo, now],
  );
  const shown = filtered[mode];
  // Near-arbs (edge 0 % or less) guarantee nothing: counted apart and listed below a divider (issue 34). The tabs count
  // the rows with a guaranteed profit only (issue 56: readers took a tab's number for arbs).
  const profitableOf = useMemo(
    () => ({
      prematch: filtered.prematch.filter((arb) => arb.edge_pct > 0).length,
      live: filtered.live.filter((arb) => arb.edge_pct > 0).length,
    }),
    [filtered],
  );
  const profitable = profitableOf[mode];
  const nearCount = shown.length - profitable;
  // The public feed's arbs above the free cap, counted under this tab among the visitor's books (decision 210).
  const aboveCap = result?.feed.above_cap;
  const lockedCount = useMemo(
    () =>
      aboveCap
        ? aboveCap.arbs.filter(
            (arb) =>
              arb.live === (mode === 'live') &&
              (showSuspect || !arb.suspect) &&
              arb.books.every((book) => selected.has(book)),
          ).length
        : 0,
    [aboveCap, mode, selected, showSuspect],
  );
  const [limit, setLimit] = useState(FIRST_ROWS);
  // FIRST_ROWS → PAGE_SIZE, then PAGE_SIZE more a click.
  const nextLimit = limit < PAGE_SIZE ? PAGE_SIZE : limit + PAGE_SIZE;
  const growFirstPage = useCallback(() => {
    startTransition(() => setLimit((n) => Math.max(n, PAGE_SIZE)));
  }, []);
  const { rows, matching } = useMemo(() => {
    const latest = highlights.at(-1);
    let starsLeft = reducedMotion ? 0 : MAX_STARS;
    const list: TableRow[] = [];
    for (const arb of shown) {
      if (list.length >= limit) break;
      const key = arbKey(arb);
      const highlighted = highlights.some((batch) => batch.keys.has(key));
      let stars = 0;
      if (latest?.keys.has(key) && starsLeft > 0) {
        stars = Math.min(STARS_PER_NEW_ARB, starsLeft);
        starsLeft -= stars;
      }
      list.push({ key, arb, highlighted, stars, starsKey: stars > 0 && latest ? latest.id : 0 });
    }
    return { rows: list, matching: shown.length };
  }, [shown, highlights, reducedMotion, limit]);

  const { refetch } = query;
  const refresh = useCallback(async () => {
    setManualRefreshing(true);
    try {
      await refetch();
    } finally {
      setManualRefreshing(false);
    }
  }, [refetch]);

  const filtersRef = useRef<HTMLInputElement>(null);
  const refreshDisabled = auto || manualRefreshing || query.isPending;
  useShortcuts({
    r: () => {
      if (!refreshDisabled) void refresh();
    },
    a: toggleAuto,
    '/': () => {
      setToolsOpen(true);
      // The fold opens in this render; focus once it is shown.
      requestAnimationFrame(() => filtersRef.current?.focus());
    },
  });

  const demo = result ? result.sample || result.feed.source === 'simulator' : false;
  const updatedAt = result ? new Date(result.feed.generated_at * 1000) : null;
  const invalidArbs = result?.invalidArbs ?? 0;
  const age = result ? Math.max(0, now - result.receivedAt) : 0;
  const stale = !auto && result !== undefined && age > STALE_AFTER_MS;

  let body: ReactNode;
  if (query.isPending || !formatReady) {
    body = (
      <p role="status" className="px-4 py-16 text-center text-slate-300">
        Loading arbitrage opportunities...
      </p>
    );
  } else if (query.isError && !result) {
    body = (
      <div role="alert" className="rounded-lg border border-red-500/40 bg-red-500/10 px-4 py-10 text-center">
        <h2 className="text-lg font-semibold text-white">Error Loading Data</h2>
        <p className="mt-2 text-sm text-slate-300">The arbitrage feed could not be read. Please try again.</p>
        <Button className="mt-4" onClick={() => void refresh()}>
          Try Again
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="relative" aria-busy={manualRefreshing}>
        <div
          className={cn(
            'motion-safe:transition-opacity',
            manualRefreshing && 'pointer-events-none opacity-40',
          )}
          // The focus in the rows (Tab through them) draws the rest of the first page ahead of it.
          onFocus={
            limit < PAGE_SIZE
              ? (event) => {
                  if (event.target.closest('table')) growFirstPage();
                }
              : undefined
          }
        >
          <ArbTable
            nearArbDivider
            nearCount={nearCount}
            caption={MODES.find((m) => m.value === mode)!.caption}
            rows={rows}
            device={device}
            states={states}
            onStateChange={setState}
            settings={settings}
            onHide={hide}
            plan={plan}
          />
          {matching > rows.length && limit < PAGE_SIZE ? <RowsApproach onApproach={growFirstPage} /> : null}
          {matching > rows.length ? (
            <div className="mt-4 flex flex-wrap items-center justify-center gap-3 text-sm text-slate-400">
              <span>
                Showing the best {rows.length} of {matching}
              </span>
              <Button variant="secondary" size="sm" onClick={() => setLimit(nextLimit)}>
                Show {Math.min(nextLimit - limit, matching - rows.length)} more
              </Button>
            </div>
          ) : null}
        </div>
        {manualRefreshing ? (
          <div className="absolute inset-0 flex items-start justify-center pt-16">
            <p
              role="status"
              className="rounded-lg border border-slate-700 bg-slate-900 px-4 py-3 text-sm font-medium text-slate-100 shadow-xl"
            >
              Refreshing arbitrage opportunities...
            </p>
          </div>
        ) : null}
        <RefreshMeasure result={result} />
      </div>
    );
  }

  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-6 sm:py-8" aria-labelledby="arbitrage-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 id="arbitrage-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            Arbitrage finder
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-400">
            Opposite sides priced at different sportsbooks so that every outcome pays. Stakes split $
            {(totalCents / 100).toLocaleString('en-US')} for equal payouts; type a stake to recalculate the
            other side.
          </p>
        </div>
        {/* The badge and the time arrive with the data: their space is kept from the first paint, so the rows below
            do not move when they come (a phone wraps this column under the title; docs/decisions/175). */}
        <div className="flex min-h-[3.125rem] flex-col items-end gap-1">
          {demo ? (
            <p className="inline-flex flex-wrap items-baseline gap-x-2 rounded-md border border-amber-400/50 bg-amber-400/10 px-2.5 py-1 text-sm font-semibold text-amber-200">
              Demo data
              <span className="font-normal text-amber-100/90">
                {result?.sample ? 'sample arbs, not live prices' : 'simulated prices, not real odds'}
              </span>
            </p>
          ) : null}
          {updatedAt ? (
            <p className="text-xs text-slate-400">
              Updated <time dateTime={updatedAt.toISOString()}>{updatedAt.toLocaleTimeString()}</time>
              {invalidArbs > 0
                ? ` · ${invalidArbs} unreadable ${invalidArbs === 1 ? 'arb' : 'arbs'} left out`
                : null}
            </p>
          ) : null}
          {stale ? (
            <p data-testid="stale-note" className="text-xs font-medium text-amber-200">
              These prices are {ageText(age)} old. Refresh, or turn on Auto to keep them current.
            </p>
          ) : null}
        </div>
      </div>

      <div className="mt-5 flex flex-wrap items-center justify-between gap-3 border-b border-slate-800 pb-3">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <ModeTabs
            tabs={MODES}
            value={mode}
            onChange={setMode}
            renderCount={(value) => (result ? profitableOf[value] : '–')}
          />
          <p data-testid="profit-count" className="text-sm text-slate-300">
            <span className="font-semibold text-emerald-300">{result ? profitable : '–'}</span> with a
            guaranteed profit
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <SportsbookPicker selected={selected} onChange={setSelected} />
          <label
            title={SUSPECT_NOTE}
            className="flex h-8 items-center gap-2 rounded-md border border-slate-700 bg-slate-900 px-2.5 text-sm font-medium text-slate-100"
          >
            <input
              type="checkbox"
              checked={showSuspect}
              onChange={(event) => setShowSuspect(event.target.checked)}
              className="h-4 w-4 accent-amber-300"
            />
            Show suspect arbs ({result ? suspect[mode] : '–'})
          </label>
          <div className="flex h-8 items-center gap-2 rounded-md border border-slate-700 bg-slate-900 px-2.5">
            <Switch id="arbs-auto-refresh" checked={auto} onClick={toggleAuto} />
            <label htmlFor="arbs-auto-refresh" className="text-sm font-medium text-slate-100">
              Auto
            </label>
          </div>
          <Button variant="secondary" size="sm" onClick={() => void refresh()} disabled={refreshDisabled}>
            <RefreshIcon spinning={manualRefreshing || (auto && query.isFetching)} />
            Refresh
          </Button>
          <button
            type="button"
            aria-expanded={toolsOpen}
            aria-controls="arbs-tools"
            onClick={() => setToolsOpen((open) => !open)}
            className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-700 bg-slate-900 px-2.5 text-sm font-medium text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300 sm:hidden"
          >
            Filters and settings
            <FoldChevron open={toolsOpen} />
          </button>
        </div>
      </div>
      <ToolKeyBox
        apiKey={apiKey}
        plan={apiKey && keyPlan ? planViewText(keyPlan) : undefined}
        reading="your plan’s arbs"
        error={keyError}
        free={
          aboveCap && lockedCount > 0 ? (
            <span key="above-cap">
              <strong className="font-semibold text-white">
                {lockedCount} more above {aboveCap.edge_pct}%
              </strong>{' '}
              edge with a plan.{' '}
            </span>
          ) : (
            <span key="free">Free: arbs up to {FREE_PLAN.finders.arbEdgeCapPct}% edge in real time. </span>
          )
        }
      />
      <ArbToolbar
        id="arbs-tools"
        className={toolsOpen ? undefined : 'max-sm:hidden'}
        filters={filters}
        onFiltersChange={setFilters}
        arbs={arbs ?? NO_ARBS}
        unfiltered={tabs[mode].length}
        shown={shown.length}
        hiddenCount={hidden.size}
        onShowHidden={showAll}
        oddsFormat={oddsFormat}
        onOddsFormatChange={setOddsFormat}
        totalCents={totalCents}
        onTotalCentsChange={setTotalCents}
        roundTo={roundTo}
        onRoundToChange={setRoundTo}
        alerts={alerts}
        onAlertsChange={setAlerts}
        alertThresholdPct={thresholdPct}
        onAlertThresholdChange={setThresholdPct}
        filtersRef={filtersRef}
      />
      {alerts ? (
        <Suspense fallback={null}>
          <ArbAlerts
            latest={result?.highlights.at(-1)}
            eligible={eligible}
            thresholdPct={thresholdPct}
            count={shown.length}
            polling={auto}
            refetch={refetch}
          />
        </Suspense>
      ) : null}
      <div role="tabpanel" id={panelId(mode)} aria-labelledby={tabId(mode)} className="mt-4 min-h-[60vh]">
        {body}
      </div>
    </section>
  );
}

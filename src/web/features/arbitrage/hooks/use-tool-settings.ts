import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { filtersFromQuery, parseOddsFormat, queryForView, viewQuery } from '../lib/arb-filters.ts';
import { storedValue, type StoredValue } from '#web/lib/stored-value.ts';
import {
  DEFAULT_FILTERS,
  DEFAULT_ROW_SETTINGS,
  type ArbFilters,
  type OddsFormat,
  type RoundTo,
} from '../lib/tool-settings.ts';

// The toolbar's persisted settings (issue 14, docs/decisions/117). Filters and the odds format live in localStorage
// and in the URL query; a query that names a filter wins over storage (a shared link shows what its sender saw), and
// every change writes both (history.replaceState: no navigation). The URL is read through useSyncExternalStore, whose
// server snapshot (the defaults) is what hydration renders, so the prerendered HTML never mismatches.

const json =
  <T>(parse: (value: unknown) => T) =>
  (raw: string | null) => {
    try {
      return parse(raw === null ? null : JSON.parse(raw));
    } catch {
      return parse(null);
    }
  };

/** The filters as their URL query ("min=1.5&leagues=nba"). */
const filtersStore = storedValue<ArbFilters, string>(
  'arbFilters',
  json(
    (value) =>
      filtersFromQuery(new URLSearchParams(typeof value === 'string' ? value : '')) ?? DEFAULT_FILTERS,
  ),
);
const formatStore = storedValue(
  'oddsFormat',
  json((value) => parseOddsFormat(value) ?? DEFAULT_ROW_SETTINGS.oddsFormat),
);
const stakeStore = storedValue(
  'totalStakeCents',
  json((value) =>
    Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 100_000_000
      ? (value as number)
      : DEFAULT_ROW_SETTINGS.totalCents,
  ),
);
const ROUND_TO: readonly RoundTo[] = [0, 1, 5, 10];
const roundStore = storedValue(
  'roundStakesTo',
  json((value) => ROUND_TO.find((step) => step === value) ?? DEFAULT_ROW_SETTINGS.roundTo),
);
const alertsStore = storedValue('arbAlerts', (raw) => raw === 'true');
/** The alerts' own threshold in percent (issue 34): 1 % by default, from 0.1 % to 100 %. */
export const DEFAULT_ALERT_THRESHOLD_PCT = 1;
const alertThresholdStore = storedValue(
  'arbAlertThresholdPct',
  json((value) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0.1 && value <= 100
      ? value
      : DEFAULT_ALERT_THRESHOLD_PCT,
  ),
);
/** Auto refresh, remembered like the other settings (issue 34); off on a first visit (docs/product.md §4). */
const autoStore = storedValue('arbAutoRefresh', (raw) => raw === 'true');
const hiddenStore = storedValue(
  'hiddenArbs',
  json((value): readonly string[] =>
    Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : [],
  ),
  'sessionStorage',
);

export interface ArbView {
  filters: ArbFilters;
  oddsFormat: OddsFormat;
}

const SERVER_VIEW: ArbView = { filters: DEFAULT_FILTERS, oddsFormat: DEFAULT_ROW_SETTINGS.oddsFormat };
let cache: { search: string; filters: ArbFilters; format: OddsFormat; view: ArbView } | undefined;

function getView(): ArbView {
  const search = window.location.search;
  const filters = filtersStore.getSnapshot();
  const format = formatStore.getSnapshot();
  if (cache && cache.search === search && cache.filters === filters && cache.format === format)
    return cache.view;
  const params = new URLSearchParams(search);
  const view = {
    filters: filtersFromQuery(params) ?? filters,
    oddsFormat: parseOddsFormat(params.get('format')) ?? format,
  };
  cache = { search, filters, format, view };
  return view;
}

function subscribeView(onChange: () => void) {
  const stops = [filtersStore.subscribe(onChange), formatStore.subscribe(onChange)];
  window.addEventListener('popstate', onChange);
  return () => {
    for (const stop of stops) stop();
    window.removeEventListener('popstate', onChange);
  };
}

function writeUrl(view: ArbView) {
  const query = queryForView(window.location.search, view.filters, view.oddsFormat);
  if (query === null) return;
  const { pathname, hash } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${query}${hash}`);
}

export function useArbView() {
  const view = useSyncExternalStore(subscribeView, getView, () => SERVER_VIEW);
  // After hydration: a view that came from storage is written to the URL, so the address bar can be shared as is.
  // Reads the live view, not the rendered one (the hydration render holds the defaults).
  useEffect(() => writeUrl(getView()), [view]);
  const setFilters = useCallback((filters: ArbFilters) => {
    writeUrl({ ...getView(), filters });
    filtersStore.write(viewQuery(filters));
  }, []);
  const setOddsFormat = useCallback((format: OddsFormat) => {
    writeUrl({ ...getView(), oddsFormat: format });
    formatStore.write(format);
  }, []);
  return { ...view, setFilters, setOddsFormat };
}

function useStored<T>(store: StoredValue<T>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}

/** The stored odds format alone, for the other finder pages (the middles page; its URL may name another). */
export function useStoredOddsFormat() {
  return { oddsFormat: useStored(formatStore), setOddsFormat: formatStore.write };
}

export function useStakeSettings() {
  return {
    totalCents: useStored(stakeStore),
    roundTo: useStored(roundStore),
    setTotalCents: stakeStore.write,
    setRoundTo: roundStore.write,
  };
}

export function useAlertsSetting() {
  return {
    alerts: useStored(alertsStore),
    setAlerts: alertsStore.write,
    thresholdPct: useStored(alertThresholdStore),
    setThresholdPct: alertThresholdStore.write,
  };
}

export function useAutoRefreshSetting() {
  const auto = useStored(autoStore);
  const toggle = useCallback(() => autoStore.write(!autoStore.getSnapshot()), []);
  return { auto, toggleAuto: toggle };
}

/**
 * Arbs hidden for this session (sessionStorage), by arb key. A key leaves the set when its arb leaves the feed
 * (`feedKeys`: the current fetch's keys; undefined while none has arrived), so an arb that returns later is shown.
 */
export function useHiddenArbs(feedKeys: readonly string[] | undefined) {
  const hidden = useStored(hiddenStore);
  const set = useMemo(() => new Set(hidden), [hidden]);
  useEffect(() => {
    if (!feedKeys || hidden.length === 0) return;
    const present = new Set(feedKeys);
    const kept = hidden.filter((key) => present.has(key));
    if (kept.length !== hidden.length) hiddenStore.write(kept);
  }, [feedKeys, hidden]);
  const hide = useCallback((key: string) => {
    const current = hiddenStore.getSnapshot();
    if (!current.includes(key)) hiddenStore.write([...current, key]);
  }, []);
  const showAll = useCallback(() => hiddenStore.write([]), []);
  return { hidden: set, hide, showAll };
}

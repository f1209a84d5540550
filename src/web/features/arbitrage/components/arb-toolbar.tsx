import { lazy, Suspense, useEffect, useId, useRef, useState, type Ref } from 'react';
import { cn } from '#web/lib/cn.ts';
import { Button } from '#web/ui/button.tsx';
import { MARKET_FILTERS, isDefaultFilters, type LeagueOption } from '../lib/arb-filters.ts';
import {
  DEFAULT_FILTERS,
  type ArbFilters,
  type MarketFilter,
  type OddsFormat,
  type RoundTo,
  type StartsWithin,
} from '../lib/tool-settings.ts';
import { CheckMenu, controlClass } from './check-menu.tsx';

// The arbitrage page's toolbar of issue 14: the filters (their own group, which `/` focuses), then the odds format,
// the stake and its rounding, Alerts and the shortcuts' help. Native controls throughout (no library, small bundle).

const ShortcutsHelp = lazy(() => import('./shortcuts-help.tsx'));

const FORMATS: readonly [OddsFormat, string][] = [
  ['american', 'American'],
  ['decimal', 'Decimal'],
  ['fractional', 'Fractional'],
  ['probability', 'Implied probability'],
];
const STARTS: readonly [StartsWithin, string][] = [
  ['any', 'Any time'],
  ['1h', '1 h'],
  ['6h', '6 h'],
  ['24h', '24 h'],
];
const ROUNDING: readonly [RoundTo, string][] = [
  [0, 'None'],
  [1, '$1'],
  [5, '$5'],
  [10, '$10'],
];
const SPORT_NAMES: Record<string, string> = { football: 'American football' };
const sportName = (sport: string) => SPORT_NAMES[sport] ?? sport.charAt(0).toUpperCase() + sport.slice(1);
const labelClass = 'flex items-center gap-1.5 text-sm font-medium text-slate-200';

/** A number typed as text: committed while valid (or empty: `null`), shown again as committed on blur. */
function NumberField({
  id,
  value,
  onCommit,
  parse,
  inputRef,
  ...rest
}: {
  id: string;
  value: number | null;
  onCommit: (value: number | null) => void;
  parse: (text: string) => number | null | undefined;
  inputRef?: Ref<HTMLInputElement>;
  placeholder?: string;
  min: number;
  max: number;
  step: number;
  className?: string;
}) {
  const shown = value === null ? '' : String(value);
  const [draft, setDraft] = useState(shown);
  const [last, setLast] = useState(shown);
  if (last !== shown) {
    setLast(shown);
    setDraft(shown);
  }
  return (
    <input
      id={id}
      ref={inputRef}
      type="number"
      inputMode="decimal"
      value={draft}
      onChange={(event) => {
        setDraft(event.target.value);
        const parsed = parse(event.target.value.trim());
        if (parsed !== undefined && parsed !== value) onCommit(parsed);
      }}
      onBlur={() => setDraft(shown)}
      {...rest}
      className={cn(controlClass, 'w-20 tabular-nums', rest.className)}
    />
  );
}

export interface ArbToolbarProps {
  filters: ArbFilters;
  onFiltersChange: (filters: ArbFilters) => void;
  leagues: readonly LeagueOption[];
  /** Arbs in the current tab before the filters and hiding (the count after is the tab's). */
  unfiltered: number;
  shown: number;
  hiddenCount: number;
  onShowHidden: () => void;
  oddsFormat: OddsFormat;
  onOddsFormatChange: (format: OddsFormat) => void;
  totalCents: number;
  onTotalCentsChange: (cents: number) => void;
  roundTo: RoundTo;
  onRoundToChange: (step: RoundTo) => void;
  alerts: boolean;
  onAlertsChange: (on: boolean) => void;
  notificationsBlocked: boolean;
  filtersRef: Ref<HTMLInputElement>;
}

export function ArbToolbar(props: ArbToolbarProps) {
  const { filters, onFiltersChange: set } = props;
  const id = useId();
  const filtered = !isDefaultFilters(filters);
  return (
    <div className="mt-3 space-y-2 border-b border-slate-800 pb-3">
      <div role="group" aria-label="Filters" className="relative flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className={labelClass}>
          <label htmlFor={`${id}-min`}>Minimum edge</label>
          <span className="flex items-center gap-1">
            <NumberField
              id={`${id}-min`}
              inputRef={props.filtersRef}
              value={filters.minEdgePct}
              onCommit={(minEdgePct) => set({ ...filters, minEdgePct })}
              parse={(text) => {
                if (text === '') return null;
                const value = Number(text);
                return Number.isFinite(value) && value >= 0 && value <= 100 ? value : undefined;
              }}
              placeholder="Any"
              min={0}
              max={100}
              step={0.1}
              className="w-16"
            />
            <span aria-hidden="true">%</span>
          </span>
        </div>
        <div className={labelClass}>
          <label htmlFor={`${id}-starts`}>Starts within</label>
          <select
            id={`${id}-starts`}
            value={filters.startsWithin}
            onChange={(event) => set({ ...filters, startsWithin: event.target.value as StartsWithin })}
            className={controlClass}
            aria-describedby={`${id}-starts-note`}
          >
            {STARTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <span id={`${id}-starts-note`} className="sr-only">
            Pre-match arbs only
          </span>
        </div>
        <CheckMenu
          label="Leagues"
          options={props.leagues.map((league) => ({
            value: league.id,
            label: league.name,
            group: sportName(league.sport),
          }))}
          selected={filters.leagues}
          onChange={(leagues) => set({ ...filters, leagues })}
          empty="This feed does not name leagues."
        />
        <CheckMenu
          label="Markets"
          options={MARKET_FILTERS}
          selected={filters.markets}
          onChange={(markets) => set({ ...filters, markets: markets as MarketFilter[] })}
        />
        {filtered ? (
          <Button variant="ghost" size="sm" onClick={() => set(DEFAULT_FILTERS)}>
            Clear filters
          </Button>
        ) : null}
        {props.hiddenCount > 0 ? (
          <Button variant="secondary" size="sm" onClick={props.onShowHidden}>
            Show hidden ({props.hiddenCount})
          </Button>
        ) : null}
        {filtered || props.hiddenCount > 0 ? (
          <p className="text-xs text-slate-400" aria-live="polite">
            {props.shown} of {props.unfiltered} shown
          </p>
        ) : null}
      </div>
      <div className="relative flex flex-wrap items-center gap-x-3 gap-y-2">
        <label className={labelClass}>
          Odds format
          <select
            value={props.oddsFormat}
            onChange={(event) => props.onOddsFormatChange(event.target.value as OddsFormat)}
            className={controlClass}
          >
            {FORMATS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <div className={labelClass}>
          <label htmlFor={`${id}-stake`}>Total stake</label>
          <span className="flex items-center gap-1">
            <span aria-hidden="true">$</span>
            <NumberField
              id={`${id}-stake`}
              value={props.totalCents / 100}
              onCommit={(dollars) => props.onTotalCentsChange(Math.round(dollars! * 100))}
              parse={(text) => {
                const value = Number(text);
                return text !== '' && Number.isFinite(value) && value >= 1 && value <= 1_000_000
                  ? value
                  : undefined;
              }}
              min={1}
              max={1_000_000}
              step={1}
              className="w-24"
            />
          </span>
        </div>
        <label className={labelClass}>
          Round stakes to
          <select
            value={props.roundTo}
            onChange={(event) => props.onRoundToChange(Number(event.target.value) as RoundTo)}
            className={controlClass}
          >
            {ROUNDING.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <AlertsSwitch
          on={props.alerts}
          onChange={props.onAlertsChange}
          blocked={props.notificationsBlocked}
        />
        <ShortcutsButton />
      </div>
    </div>
  );
}

function AlertsSwitch({
  on,
  onChange,
  blocked,
}: {
  on: boolean;
  onChange: (on: boolean) => void;
  blocked: boolean;
}) {
  return (
    <div className="flex h-8 items-center gap-2">
      <button
        type="button"
        role="switch"
        id="arbs-alerts"
        aria-checked={on}
        aria-describedby="arbs-alerts-note"
        onClick={() => onChange(!on)}
        className={cn(
          'relative h-5 w-9 shrink-0 rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300',
          on ? 'bg-emerald-500' : 'bg-slate-600',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'block h-4 w-4 rounded-full bg-white shadow motion-safe:transition-transform',
            on ? 'translate-x-[18px]' : 'translate-x-0.5',
          )}
        />
      </button>
      <label htmlFor="arbs-alerts" className="text-sm font-medium text-slate-100">
        Alerts
      </label>
      <span id="arbs-alerts-note" className={cn('text-xs text-slate-400', !(on && blocked) && 'sr-only')}>
        {on && blocked
          ? 'Sound only: desktop notifications are blocked'
          : 'Sound and desktop notification for new arbs'}
      </span>
    </div>
  );
}

function ShortcutsButton() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      if (root.current?.contains(document.activeElement)) button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div ref={root} className="sm:relative">
      <button
        ref={button}
        type="button"
        aria-label="Keyboard shortcuts"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className={cn(controlClass, 'w-8 px-0 font-mono font-semibold hover:bg-slate-800')}
      >
        <span aria-hidden="true">?</span>
      </button>
      {open ? (
        <div
          id={id}
          role="dialog"
          aria-label="Keyboard shortcuts"
          className="absolute z-20 mt-1 rounded-md border border-slate-700 bg-slate-900 p-3 shadow-xl max-sm:inset-x-0 sm:right-0 sm:w-60"
        >
          <Suspense fallback={<p className="text-sm text-slate-400">Loading…</p>}>
            <ShortcutsHelp />
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}

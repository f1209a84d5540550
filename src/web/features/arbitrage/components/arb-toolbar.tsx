import { lazy, useId, useState, type Ref } from 'react';
import { cn } from '#web/lib/cn.ts';
import { Button } from '#web/ui/button.tsx';
import { Switch } from '#web/ui/switch.tsx';
import { isDefaultFilters, type FeedArb } from '../lib/arb-filters.ts';
import { loadBettorExtras } from '../lib/bettor-extras.ts';
import {
  DEFAULT_FILTERS,
  type ArbFilters,
  type MarketFilter,
  type OddsFormat,
  type RoundTo,
  type StartsWithin,
} from '../lib/tool-settings.ts';
import { CheckMenu, controlClass, Popover } from './check-menu.tsx';

// The arbitrage page's toolbar of issue 14: the filters (their own group, which `/` focuses), then the odds format,
// the stake and its rounding, Alerts and the shortcuts' help. Native controls; menus, help and alert output load on
// use (dynamic import), to keep the page's first-load JavaScript within budget.

const ShortcutsHelp = lazy(() => import('./shortcuts-help.tsx'));

const FORMATS = [
  ['american', 'American'],
  ['decimal', 'Decimal'],
  ['fractional', 'Fractional'],
  ['probability', 'Implied probability'],
] as const;
const STARTS = [
  ['any', 'Any time'],
  ['1h', '1 h'],
  ['6h', '6 h'],
  ['24h', '24 h'],
] as const;
const ROUNDING = [
  [0, 'None'],
  [1, '$1'],
  [5, '$5'],
  [10, '$10'],
] as const;
const fieldClass = 'flex items-center gap-1.5 text-sm font-medium text-slate-200';

function Select<T extends string | number>({
  id,
  value,
  options,
  onChange,
  describedBy,
}: {
  id: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
  describedBy?: string;
}) {
  return (
    <select
      id={id}
      value={value}
      aria-describedby={describedBy}
      onChange={(event) => onChange(options.find(([v]) => String(v) === event.target.value)![0])}
      className={controlClass}
    >
      {options.map(([v, label]) => (
        <option key={v} value={v}>
          {label}
        </option>
      ))}
    </select>
  );
}

/** A number typed as text: committed while valid (`parse` gives undefined when not), shown as committed on blur. */
function NumberField({
  id,
  value,
  onCommit,
  parse,
  inputRef,
  className,
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
  className: string;
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
      className={cn(controlClass, 'tabular-nums', className)}
    />
  );
}

const inRange = (text: string, min: number, max: number) => {
  const value = Number(text);
  return text !== '' && value >= min && value <= max ? value : undefined;
};

export interface ArbToolbarProps {
  filters: ArbFilters;
  onFiltersChange: (filters: ArbFilters) => void;
  /** The feed's arbs, for the leagues the menu offers. */
  arbs: readonly FeedArb[];
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
  /** The alerts' own threshold in percent (issue 34). */
  alertThresholdPct: number;
  onAlertThresholdChange: (pct: number) => void;
  filtersRef: Ref<HTMLInputElement>;
  id?: string;
  /** Classes of the toolbar's box (the page folds it on phones). */
  className?: string;
}

export function ArbToolbar(props: ArbToolbarProps) {
  const { filters, onFiltersChange } = props;
  const set = (change: Partial<ArbFilters>) => onFiltersChange({ ...filters, ...change });
  const id = useId();
  const narrowed = !isDefaultFilters(filters) || props.hiddenCount > 0;
  return (
    <div id={props.id} className={cn('mt-3 space-y-2 border-b border-slate-800 pb-3', props.className)}>
      {/* Reaching for a filter loads what filters need (lib/bettor-extras.ts), so the rows need not wait for it. */}
      <div
        role="group"
        aria-label="Filters"
        onFocus={() => void loadBettorExtras()}
        className="relative flex flex-wrap items-center gap-x-3 gap-y-2"
      >
        <div className={fieldClass}>
          <label htmlFor={`${id}m`}>Minimum edge</label>
          <NumberField
            id={`${id}m`}
            inputRef={props.filtersRef}
            value={filters.minEdgePct}
            onCommit={(minEdgePct) => set({ minEdgePct })}
            parse={(text) => (text === '' ? null : inRange(text, 0, 100))}
            placeholder="Any"
            min={0}
            max={100}
            step={0.1}
            className="w-16"
          />
          <span aria-hidden="true">%</span>
        </div>
        <div className={fieldClass}>
          <label htmlFor={`${id}s`}>Starts within</label>
          <Select<StartsWithin>
            id={`${id}s`}
            value={filters.startsWithin}
            options={STARTS}
            onChange={(startsWithin) => set({ startsWithin })}
            describedBy={`${id}n`}
          />
          <span id={`${id}n`} className="sr-only">
            Pre-match arbs only
          </span>
        </div>
        <CheckMenu
          label="Leagues"
          arbs={props.arbs}
          selected={filters.leagues}
          onChange={(leagues) => set({ leagues })}
        />
        <CheckMenu
          label="Markets"
          arbs={props.arbs}
          selected={filters.markets}
          onChange={(markets) => set({ markets: markets as MarketFilter[] })}
        />
        {isDefaultFilters(filters) ? null : (
          <Button variant="ghost" size="sm" onClick={() => onFiltersChange(DEFAULT_FILTERS)}>
            Clear filters
          </Button>
        )}
        {props.hiddenCount > 0 ? (
          <Button variant="secondary" size="sm" onClick={props.onShowHidden}>
            Show hidden ({props.hiddenCount})
          </Button>
        ) : null}
        {narrowed ? (
          <p className="text-xs text-slate-400">
            {props.shown} of {props.unfiltered} shown
          </p>
        ) : null}
      </div>
      <div className="relative flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className={fieldClass}>
          <label htmlFor={`${id}f`}>Odds format</label>
          <Select<OddsFormat>
            id={`${id}f`}
            value={props.oddsFormat}
            options={FORMATS}
            onChange={props.onOddsFormatChange}
          />
        </div>
        <div className={fieldClass}>
          <label htmlFor={`${id}t`}>Total stake</label>
          <span aria-hidden="true">$</span>
          <NumberField
            id={`${id}t`}
            value={props.totalCents / 100}
            onCommit={(dollars) => props.onTotalCentsChange(Math.round(dollars! * 100))}
            parse={(text) => inRange(text, 1, 1_000_000)}
            min={1}
            max={1_000_000}
            step={1}
            className="w-24"
          />
        </div>
        <div className={fieldClass}>
          <label htmlFor={`${id}r`}>Round stakes to</label>
          <Select<RoundTo>
            id={`${id}r`}
            value={props.roundTo}
            options={ROUNDING}
            onChange={props.onRoundToChange}
          />
        </div>
        <AlertsSwitch on={props.alerts} onChange={props.onAlertsChange} />
        <div className={fieldClass}>
          <label htmlFor={`${id}a`}>Alert threshold</label>
          <NumberField
            id={`${id}a`}
            value={props.alertThresholdPct}
            onCommit={(pct) => props.onAlertThresholdChange(pct!)}
            parse={(text) => inRange(text, 0.1, 100)}
            min={0.1}
            max={100}
            step={0.1}
            className="w-16"
          />
          <span aria-hidden="true">%</span>
        </div>
        <Popover
          label="Keyboard shortcuts"
          trigger={<span aria-hidden="true">?</span>}
          className="w-8 px-0 font-mono"
          panel={(panelId) => (
            <div
              id={panelId}
              role="dialog"
              aria-label="Keyboard shortcuts"
              className="absolute z-20 mt-1 rounded-md border border-slate-700 bg-slate-900 p-3 shadow-xl max-sm:inset-x-0 sm:right-0 sm:w-60"
            >
              <ShortcutsHelp />
            </div>
          )}
        />
      </div>
    </div>
  );
}

/**
 * The "Alerts" switch. Turning it on (a click: the moment browsers allow it) loads the alert output, starts its audio
 * context and asks for notification permission; a refusal is said next to the switch.
 */
function AlertsSwitch({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const [blocked, setBlocked] = useState(false);
  const note = on && blocked;
  return (
    <div className="flex h-8 items-center gap-2">
      <Switch
        id="arbs-alerts"
        checked={on}
        aria-describedby="arbs-alerts-note"
        onClick={() => {
          onChange(!on);
          if (!on)
            void import('../lib/alert-output.ts')
              .then((output) => output.prepareAlerts())
              .then((permission) => setBlocked(permission === 'denied'));
        }}
      />
      <label htmlFor="arbs-alerts" className="text-sm font-medium text-slate-100">
        Alerts
      </label>
      <span id="arbs-alerts-note" className={cn('text-xs text-slate-400', !note && 'sr-only')}>
        {note
          ? 'Sound only: desktop notifications are blocked'
          : 'One sound and one desktop notification for new arbs at or above the alert threshold'}
      </span>
    </div>
  );
}

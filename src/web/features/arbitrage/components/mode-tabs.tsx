import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { ArbMode } from '../lib/arbs.ts';

// WAI-ARIA tabs (automatic activation, arrow keys, Home/End), as Radix Tabs renders them, without the library's
// ~9 KB gzip (docs/decisions/060-arbitrage-page-javascript-budget.md).

export interface ModeTab {
  value: ArbMode;
  label: string;
}

export function tabId(value: ArbMode) {
  return `arbs-tab-${value}`;
}

export function panelId(value: ArbMode) {
  return `arbs-panel-${value}`;
}

export function ModeTabs({
  tabs,
  value,
  onChange,
  renderCount,
}: {
  tabs: readonly ModeTab[];
  value: ArbMode;
  onChange: (value: ArbMode) => void;
  renderCount: (value: ArbMode) => ReactNode;
}) {
  const list = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = tabs.findIndex((tab) => tab.value === value);
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const target = tabs[next]!;
    onChange(target.value);
    list.current?.querySelector<HTMLButtonElement>(`#${tabId(target.value)}`)?.focus();
  };

  return (
    <div
      ref={list}
      role="tablist"
      aria-label="Arb type"
      className="inline-flex rounded-lg border border-slate-700 bg-slate-900 p-1"
    >
      {tabs.map((tab) => {
        const selected = tab.value === value;
        return (
          <button
            key={tab.value}
            type="button"
            role="tab"
            id={tabId(tab.value)}
            aria-selected={selected}
            aria-controls={panelId(tab.value)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.value)}
            onKeyDown={onKeyDown}
            className={
              selected
                ? 'inline-flex h-8 items-center gap-2 rounded-md bg-emerald-400 px-3 text-sm font-medium text-slate-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300'
                : 'inline-flex h-8 items-center gap-2 rounded-md px-3 text-sm font-medium text-slate-300 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300'
            }
          >
            {tab.label}
            <span className="min-w-[calc(3ch+0.75rem)] rounded-full bg-slate-950/20 px-1.5 text-center font-mono text-xs tabular-nums">
              {renderCount(tab.value)}
              <span className="sr-only"> arbs</span>
            </span>
          </button>
        );
      })}
    </div>
  );
}

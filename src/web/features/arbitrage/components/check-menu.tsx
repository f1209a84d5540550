import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';
import type { FeedArb } from '../lib/arb-filters.ts';

// The toolbar's popovers: a disclosure button whose panel renders (and loads: dynamic import) only when opened. Escape
// or a click outside closes it, and focus returns to the button. The "Leagues" and "Markets" menus are native
// checkboxes in a group named like the button (filter-menu.tsx). No library.

export const controlClass =
  'h-8 rounded-md border border-slate-700 bg-slate-900 px-2 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300';

const FilterMenu = lazy(() => import('./filter-menu.tsx'));

export function Popover({
  label,
  trigger,
  className,
  panel,
}: {
  /** The button's accessible name when its content is not text. */
  label?: string;
  trigger: ReactNode;
  className?: string;
  panel: (id: string) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
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
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        className={cn(controlClass, 'font-medium hover:bg-slate-800', className)}
      >
        {trigger}
      </button>
      {open ? <Suspense fallback={null}>{panel(id)}</Suspense> : null}
    </div>
  );
}

export function CheckMenu({
  label,
  arbs,
  selected,
  onChange,
}: {
  label: 'Leagues' | 'Markets';
  /** For the leagues present. */
  arbs: readonly FeedArb[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
}) {
  return (
    <Popover
      className="inline-flex items-center gap-1.5"
      trigger={
        <>
          {label}
          {selected.length > 0 ? (
            <span aria-hidden="true" className="rounded bg-emerald-400/20 px-1.5 text-xs text-emerald-200">
              {selected.length}
            </span>
          ) : null}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3.5 w-3.5" fill="currentColor">
            <path d="M5.5 7.5 10 12l4.5-4.5z" />
          </svg>
        </>
      }
      panel={(id) => <FilterMenu id={id} label={label} arbs={arbs} selected={selected} onChange={onChange} />}
    />
  );
}

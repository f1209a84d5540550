import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';

// A disclosure button opening a panel of checkboxes (the "Leagues" and "Markets" filters): native checkboxes in a
// group named like the button, Escape or a click outside closes it and focus returns to the button. No library.

export const controlClass =
  'h-8 rounded-md border border-slate-700 bg-slate-900 px-2 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300';

export interface CheckOption {
  value: string;
  label: string;
  group?: string;
}

export function CheckMenu({
  label,
  options,
  selected,
  onChange,
  empty,
}: {
  label: string;
  options: readonly CheckOption[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
  /** Shown in the panel when there is nothing to choose. */
  empty?: ReactNode;
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

  const toggle = (value: string, on: boolean) =>
    onChange(on ? [...selected, value] : selected.filter((v) => v !== value));
  const groups: string[] = [];
  for (const option of options) if (!groups.includes(option.group ?? '')) groups.push(option.group ?? '');

  return (
    <div ref={root} className="sm:relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        className={cn(controlClass, 'inline-flex items-center gap-1.5 font-medium hover:bg-slate-800')}
      >
        {label}
        {selected.length > 0 ? (
          <span aria-hidden="true" className="rounded bg-emerald-400/20 px-1.5 text-xs text-emerald-200">
            {selected.length}
          </span>
        ) : null}
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3.5 w-3.5" fill="currentColor">
          <path d="M5.5 7.5 10 12l4.5-4.5z" />
        </svg>
      </button>
      {open ? (
        <div
          id={id}
          role="group"
          aria-label={label}
          className="absolute left-0 z-20 mt-1 max-h-72 min-w-44 max-sm:right-0 overflow-auto rounded-md border border-slate-700 bg-slate-900 p-2 shadow-xl"
        >
          {options.length === 0 ? <p className="px-1 py-1 text-sm text-slate-400">{empty}</p> : null}
          {groups.map((group) => (
            <div key={group} className="py-0.5">
              {group ? (
                <p className="px-1 pt-1 text-xs font-semibold uppercase tracking-wide text-slate-400">
                  {group}
                </p>
              ) : null}
              {options
                .filter((option) => (option.group ?? '') === group)
                .map((option) => (
                  <label
                    key={option.value}
                    className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 text-sm text-slate-100 hover:bg-slate-800"
                  >
                    <input
                      type="checkbox"
                      checked={selected.includes(option.value)}
                      onChange={(event) => toggle(option.value, event.target.checked)}
                      className="h-4 w-4 accent-emerald-400"
                    />
                    {option.label}
                  </label>
                ))}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}

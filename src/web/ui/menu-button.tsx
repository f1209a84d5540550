import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '#web/lib/cn.ts';

// WAI-ARIA menu button (https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/): Enter, Space and ArrowDown open the
// menu on the first item, ArrowUp on the last; arrows, Home and End move; Escape closes and returns focus to the
// button; Tab and a click outside close. Hand-rolled instead of Radix to keep the home page's JavaScript within budget
// (docs/decisions/003-menu-button-without-radix.md).

export interface MenuItem {
  label: string;
  href: string;
  /** Rendered by the caller (e.g. a router Link) when given. */
  render?: (props: {
    className: string;
    role: 'menuitem';
    tabIndex: -1;
    onClick: () => void;
    children: ReactNode;
  }) => ReactNode;
  rel?: string;
}

export function MenuButton({
  label,
  items,
  className,
}: {
  /** The button's text (its accessible name). */
  label: ReactNode;
  items: readonly MenuItem[];
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const item = menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[focusIndex];
    item?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const openAt = (index: number) => {
    setFocusIndex(index);
    setOpen(true);
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(items.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const last = items.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: focusIndex === last ? 0 : focusIndex + 1,
      ArrowUp: focusIndex === 0 ? last : focusIndex - 1,
      Home: 0,
      End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      setFocusIndex(moves[event.key]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const itemClass =
    'flex w-full rounded-md px-3 py-2 text-sm text-slate-100 outline-none hover:bg-slate-800 focus:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300';

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        id={`${id}-button`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
        className={className}
      >
        {label}
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          className={cn('h-4 w-4 transition-transform', open && 'rotate-180')}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="m4 6 4 4 4-4" />
        </svg>
      </button>
      {open ? (
        <ul
          ref={menuRef}
          id={`${id}-menu`}
          role="menu"
          aria-labelledby={`${id}-button`}
          onKeyDown={onMenuKeyDown}
          className="absolute left-0 z-50 mt-2 min-w-56 sm:left-auto sm:right-0 rounded-lg border border-slate-700 bg-slate-900 p-1 shadow-xl"
        >
          {items.map((item) => (
            <li key={item.href} role="none">
              {item.render ? (
                item.render({
                  className: itemClass,
                  role: 'menuitem',
                  tabIndex: -1,
                  onClick: () => setOpen(false),
                  children: item.label,
                })
              ) : (
                <a
                  href={item.href}
                  rel={item.rel}
                  role="menuitem"
                  tabIndex={-1}
                  className={itemClass}
                  onClick={() => setOpen(false)}
                >
                  {item.label}
                </a>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

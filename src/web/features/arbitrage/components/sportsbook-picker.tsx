import { lazy, Suspense, useRef, useState } from 'react';
import { SPORTSBOOK_KEYS, type SportsbookKey } from '#domain/sportsbooks.ts';
import { buttonVariants } from '#web/ui/button.tsx';

// The dialog (Radix Dialog, ~14 KB gzip) loads when the visitor first reaches for the button, not with the page.
const loadDialog = () => import('./sportsbook-picker-dialog.tsx');
const SportsbookPickerDialog = lazy(loadDialog);

export interface SportsbookPickerProps {
  selected: ReadonlySet<string>;
  onChange: (keys: SportsbookKey[]) => void;
}

export function SportsbookPicker({ selected, onChange }: SportsbookPickerProps) {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const count = SPORTSBOOK_KEYS.filter((key) => selected.has(key)).length;

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        className={buttonVariants({ variant: 'secondary', size: 'sm' })}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
      >
        Sportsbooks
        <span className="rounded bg-slate-700 px-1.5 font-mono text-xs text-slate-100">
          {count}/{SPORTSBOOK_KEYS.length}
          <span className="sr-only"> selected</span>
        </span>
      </button>
      {mounted ? (
        <Suspense fallback={null}>
          <SportsbookPickerDialog
            open={open}
            onOpenChange={setOpen}
            selected={selected}
            onChange={onChange}
            triggerRef={triggerRef}
          />
        </Suspense>
      ) : null}
    </>
  );
}

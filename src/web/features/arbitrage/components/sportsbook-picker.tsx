import { lazy, Suspense, useRef, useState } from 'react';
import { coverage } from '#domain/coverage.ts';
import { chosenBookCount, type SportsbookKey } from '#domain/sportsbooks.ts';
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
  // Books, as the site counts its sportsbooks (Hard Rock's two markets are one book): "14/14" (decision 298).
  const count = chosenBookCount(selected);

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
          {count}/{coverage().bookCount}
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

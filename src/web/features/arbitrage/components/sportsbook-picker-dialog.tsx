import * as Dialog from '@radix-ui/react-dialog';
import type { RefObject } from 'react';
import { SPORTSBOOKS, SPORTSBOOK_KEYS, type SportsbookKey } from '#domain/sportsbooks.ts';
import { Button } from '#web/ui/button.tsx';
import { DialogBackdrop } from '#web/ui/dialog-backdrop.tsx';
import { BookBadge } from './book-badge.tsx';

const BOOKS = Object.values(SPORTSBOOKS).sort((a, b) => a.displayName.localeCompare(b.displayName));

export interface SportsbookPickerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  selected: ReadonlySet<string>;
  onChange: (keys: SportsbookKey[]) => void;
  /** The button that opened the dialog; focus returns to it on close. */
  triggerRef: RefObject<HTMLButtonElement | null>;
}

/** The sportsbook picker modal (docs/product.md §2): a labelled Radix dialog with a focus trap, closed by Escape or Done. */
export default function SportsbookPickerDialog({
  open,
  onOpenChange,
  selected,
  onChange,
  triggerRef,
}: SportsbookPickerDialogProps) {
  const toggle = (key: SportsbookKey, on: boolean) =>
    onChange(SPORTSBOOK_KEYS.filter((k) => (k === key ? on : selected.has(k))));

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <DialogBackdrop />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            triggerRef.current?.focus();
          }}
          className="fixed left-1/2 top-1/2 z-50 flex max-h-[90vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-slate-700 bg-slate-900 p-5 shadow-2xl focus:outline-none"
        >
          <Dialog.Title className="text-lg font-semibold text-white">Choose sportsbooks</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-400">
            An arb is listed only when every side is at a book you choose. Your choice is saved in this
            browser.
          </Dialog.Description>
          <div className="mt-4 flex gap-2">
            <Button variant="secondary" size="sm" onClick={() => onChange([...SPORTSBOOK_KEYS])}>
              Select all
            </Button>
            <Button variant="secondary" size="sm" onClick={() => onChange([])}>
              Clear all
            </Button>
          </div>
          <fieldset className="mt-4 min-h-0 overflow-y-auto">
            <legend className="sr-only">Sportsbooks to include</legend>
            <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2">
              {BOOKS.map((book) => (
                <li key={book.key}>
                  <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-2 hover:bg-slate-800">
                    <input
                      type="checkbox"
                      name="sportsbooks"
                      value={book.key}
                      checked={selected.has(book.key)}
                      onChange={(event) => toggle(book.key, event.target.checked)}
                      className="h-4 w-4 accent-emerald-400"
                    />
                    <BookBadge book={book} />
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <div className="mt-4 flex justify-end">
            <Dialog.Close asChild>
              <Button size="sm">Done</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

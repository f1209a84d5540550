import * as Dialog from '@radix-ui/react-dialog';
import { useId, type RefObject } from 'react';
import {
  SPORTSBOOK_KEYS,
  sportsbooks,
  type SportsbookConfig,
  type SportsbookKey,
} from '#domain/sportsbooks.ts';
import { Button } from '#web/ui/button.tsx';
import { DialogBackdrop } from '#web/ui/dialog-backdrop.tsx';
import { BookBadge } from './book-badge.tsx';

/**
 * The books as the site counts them (decision 298): a book priced in several markets (Hard Rock, and its Indiana book) is
 * one row holding a box per market, each chosen on its own (an account in one is not an account in the other).
 */
const BOOKS = sportsbooks().sort((a, b) => a.book.displayName.localeCompare(b.book.displayName));

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
  const groupId = useId();
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
          {/* The scrolling box is a div: Chromium painted a scrolling fieldset's overflow outside it, over Done (decision 298). */}
          <div className="mt-4 min-h-0 overflow-y-auto">
            <fieldset>
              <legend className="sr-only">Sportsbooks to include</legend>
              <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2">
                {BOOKS.map(({ book, markets }) =>
                  markets.length === 1 ? (
                    <li key={book.key}>
                      <BookChoice book={book} checked={selected.has(book.key)} onToggle={toggle} />
                    </li>
                  ) : (
                    <li key={book.key} className="sm:col-span-2">
                      <div
                        role="group"
                        aria-labelledby={`${groupId}-${book.key}`}
                        className="rounded-md border border-slate-800 px-1 pb-1"
                      >
                        <p id={`${groupId}-${book.key}`} className="px-2 pt-1 text-xs text-slate-400">
                          {book.displayName}: one sportsbook, priced in {markets.length} markets
                        </p>
                        <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2">
                          {markets.map((market) => (
                            <li key={market.key}>
                              <BookChoice
                                book={market}
                                checked={selected.has(market.key)}
                                onToggle={toggle}
                              />
                            </li>
                          ))}
                        </ul>
                      </div>
                    </li>
                  ),
                )}
              </ul>
            </fieldset>
          </div>
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

function BookChoice({
  book,
  checked,
  onToggle,
}: {
  book: SportsbookConfig;
  checked: boolean;
  onToggle: (key: SportsbookKey, on: boolean) => void;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-2 hover:bg-slate-800">
      <input
        type="checkbox"
        name="sportsbooks"
        value={book.key}
        checked={checked}
        onChange={(event) => onToggle(book.key, event.target.checked)}
        className="h-4 w-4 accent-emerald-400"
      />
      <BookBadge book={book} />
    </label>
  );
}

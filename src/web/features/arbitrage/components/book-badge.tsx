import type { SportsbookConfig } from '#domain/sportsbooks.ts';
import { cn } from '#web/lib/cn.ts';

/** A sportsbook's identity from the catalogue: its colours and letter, then its name. */
export function BookBadge({ book, className }: { book: SportsbookConfig; className?: string }) {
  return (
    <span className={cn('inline-flex min-w-0 items-center gap-2', className)}>
      <span
        aria-hidden="true"
        className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-xs font-black"
        style={{ background: book.background, color: book.text }}
      >
        {book.letter}
      </span>
      <span className="truncate text-sm font-medium text-slate-100">{book.displayName}</span>
    </span>
  );
}

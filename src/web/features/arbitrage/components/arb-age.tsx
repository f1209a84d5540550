import { createContext, useContext } from 'react';
import { cn } from '#web/lib/cn.ts';
import { arbAge } from '../lib/arb-age.ts';

/**
 * The page clock's "now" (unix ms) for the rows' age labels. The table provides it, so a tick re-renders only these
 * small labels, never the memoised rows around them.
 */
export const RowClockContext = createContext<number | null>(null);

/** "found 45 s ago" from the feed's `found_at`; nothing when the arb has none. */
export function ArbAge({ foundAt, fallbackNow }: { foundAt: number | undefined; fallbackNow: number }) {
  const now = useContext(RowClockContext) ?? fallbackNow;
  const age = arbAge(foundAt, now);
  if (!age || foundAt === undefined) return null;
  return (
    <time
      dateTime={new Date(foundAt * 1000).toISOString()}
      title={age.stale ? 'Found over 5 minutes ago: check the prices at the book before betting' : undefined}
      data-stale={age.stale ? 'true' : undefined}
      className={cn('whitespace-nowrap text-xs', age.stale ? 'text-amber-300' : 'text-slate-400')}
    >
      {age.text}
    </time>
  );
}

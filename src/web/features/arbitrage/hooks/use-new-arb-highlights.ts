import { useEffect, useMemo, useState } from 'react';
import { findNewArbKeys, HIGHLIGHT_MS } from '../lib/arbs.ts';

// docs/product.md §4 "New arbs": an arb whose key (event id + sorted side ids) was absent from the previous fetch is new; it is
// highlighted for 2500 ms. Each fetch that brings new arbs is a batch with its own expiry. The batches are worked
// out when a fetch's result is stored (`nextHighlights`, run once per fetch, not per render), and a timer ends them
// (`useActiveHighlights`).

export interface HighlightBatch {
  /** Distinct per batch (its expiry time), so a row's stars restart when a later batch marks it again. */
  id: number;
  keys: ReadonlySet<string>;
  /** `Date.now()` at which the highlight ends. */
  until: number;
}

export interface HighlightSource {
  /** `arbKey` of every arb in the fetch. */
  keys: readonly string[];
  /** Where the arbs came from; a change of origin counts as a first fetch, so switching from sample data to the
   * live feed does not flash every row. */
  sample: boolean;
  /** `Date.now()` when the fetch was read. */
  receivedAt: number;
  highlights: readonly HighlightBatch[];
}

/** The highlight batches after `next` arrives: the previous ones still running, plus one for its new arbs. */
export function nextHighlights(
  previous: HighlightSource | undefined,
  next: Omit<HighlightSource, 'highlights'>,
): readonly HighlightBatch[] {
  if (!previous || previous.sample !== next.sample) return [];
  const running = previous.highlights.filter((batch) => batch.until > next.receivedAt);
  const fresh = findNewArbKeys(new Set(previous.keys), next.keys);
  if (fresh.length === 0)
    return running.length === previous.highlights.length ? previous.highlights : running;
  const until = next.receivedAt + HIGHLIGHT_MS;
  return [...running, { id: until, keys: new Set(fresh), until }];
}

/** The batches whose 2500 ms are not over; re-renders when one ends. */
export function useActiveHighlights(batches: readonly HighlightBatch[]): readonly HighlightBatch[] {
  const [endedAt, setEndedAt] = useState(0);
  const active = useMemo(() => batches.filter((batch) => batch.until > endedAt), [batches, endedAt]);
  useEffect(() => {
    if (active.length === 0) return;
    const soonest = Math.min(...active.map((batch) => batch.until));
    const timer = setTimeout(() => setEndedAt(Date.now()), Math.max(0, soonest - Date.now()));
    return () => clearTimeout(timer);
  }, [active]);
  return active;
}

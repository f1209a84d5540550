import { useEffect, useState } from 'react';
import { arbKey, findNewArbKeys, HIGHLIGHT_MS } from '#domain/arbs.ts';
import type { ArbFeed } from '#domain/schemas/feed.ts';

// SPEC §4 "New arbs": an arb whose key (event id + sorted side ids) was absent from the previous fetch is new; it is
// highlighted for 2500 ms. Each fetch that brings new arbs is a batch with its own expiry.

export interface HighlightBatch {
  id: number;
  keys: ReadonlySet<string>;
  until: number;
}

interface Tracked {
  feed: ArbFeed | undefined;
  origin: string | undefined;
  keys: ReadonlySet<string> | null;
}

/**
 * Call `observe(feed, origin)` during render with the latest feed. `origin` names where the feed came from (sample
 * data or the live feed); when it changes the fetch counts as a first fetch, so switching from the sample data to the
 * real feed does not flash every row.
 */
export function useNewArbHighlights() {
  const [tracked, setTracked] = useState<Tracked>({ feed: undefined, origin: undefined, keys: null });
  const [batches, setBatches] = useState<readonly HighlightBatch[]>([]);

  const observe = (feed: ArbFeed | undefined, origin: string) => {
    if (!feed || feed === tracked.feed) return;
    const previous = origin === tracked.origin ? tracked.keys : null;
    const fresh = findNewArbKeys(previous, feed.arbs);
    setTracked({ feed, origin, keys: new Set(feed.arbs.map(arbKey)) });
    if (fresh.length > 0) {
      const at = Date.now();
      setBatches((current) => [
        ...current,
        { id: (current.at(-1)?.id ?? 0) + 1, keys: new Set(fresh), until: at + HIGHLIGHT_MS },
      ]);
    }
  };

  useEffect(() => {
    if (batches.length === 0) return;
    const soonest = Math.min(...batches.map((batch) => batch.until));
    const timer = setTimeout(
      () => setBatches((current) => current.filter((batch) => batch.until > Date.now())),
      Math.max(0, soonest - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [batches]);

  return { batches, active: batches.length > 0, observe };
}

import { useLayoutEffect } from 'react';
import { REFRESH_MARK, type ArbsResult } from '../api/get-arbs.ts';

/**
 * Records one refresh (fetch start → React commit of its data) as a `performance` measure named `arbs:refresh`, read by
 * bench/arbitrage-page.bench.ts. It renders nothing and costs one getEntriesByName per new result.
 */
export function RefreshMeasure({ result }: { result: ArbsResult | undefined }) {
  useLayoutEffect(() => {
    if (!result || performance.getEntriesByName(REFRESH_MARK, 'mark').length === 0) return;
    performance.measure('arbs:refresh', REFRESH_MARK);
    performance.clearMarks(REFRESH_MARK);
  }, [result]);
  return null;
}

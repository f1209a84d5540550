import { useLayoutEffect } from 'react';
import { PARSED_MARK, RECEIVED_MARK, REFRESH_MARK, type ArbsResult } from '../api/get-arbs.ts';

/**
 * Records one refresh as `performance` measures, read by bench/arbitrage-page.bench.ts: `arbs:refresh` (fetch start →
 * React commit of its data), `arbs:after-response` (body read → commit: JSON, zod, diff, render, commit) and
 * `arbs:render-commit` (feed parsed → commit). It renders nothing.
 */
export function RefreshMeasure({ result }: { result: ArbsResult | undefined }) {
  useLayoutEffect(() => {
    if (!result || performance.getEntriesByName(REFRESH_MARK, 'mark').length === 0) return;
    performance.measure('arbs:refresh', REFRESH_MARK);
    if (!result.sample) {
      performance.measure('arbs:after-response', RECEIVED_MARK);
      performance.measure('arbs:render-commit', PARSED_MARK);
    }
    for (const mark of [REFRESH_MARK, RECEIVED_MARK, PARSED_MARK]) performance.clearMarks(mark);
  }, [result]);
  return null;
}

import { formatDelay, FREE_PLAN } from '#domain/plans.ts';
import { KeyedFeedError } from '#web/lib/keyed-fetch.ts';
import type { FinderFeedResult } from '#web/lib/finder-feed.ts';
import { ToolKeyBox } from './tool-key-box.tsx';

// The key box of the positive-EV and middles pages (decision 224): the free view's terms from the plan table's free
// row, and with a key what its plan's answer (/v1/ev, /v1/middles) holds, said from that answer's `delay_seconds`.

/** "Free: the best 100 prices as of 2 minutes ago." (short enough for two lines on a phone, decision 175). */
export function freeValuesText(plural: string): string {
  const { valuesRows, valuesDelaySeconds } = FREE_PLAN.finders;
  return `Free: ${valuesRows === null ? 'every one of the' : `the best ${valuesRows}`} ${plural} as of ${formatDelay(valuesDelaySeconds)} ago.`;
}

/** "every middle in real time", "every middle as of 15 seconds ago". */
export function keyedValuesText(singular: string, delaySeconds: number): string {
  return delaySeconds === 0
    ? `every ${singular} in real time`
    : `every ${singular} as of ${formatDelay(delaySeconds)} ago`;
}

export function FinderKeyBox({
  apiKey,
  feed,
  singular,
  plural,
}: {
  apiKey: string | null;
  feed: FinderFeedResult<{ delay_seconds: number }>;
  /** "positive-EV price", "middle". */
  singular: string;
  plural: string;
}) {
  const error = apiKey && feed.error instanceof KeyedFeedError ? feed.error : undefined;
  return (
    <ToolKeyBox
      apiKey={apiKey}
      plan={apiKey && feed.data ? keyedValuesText(singular, feed.data.delay_seconds) : undefined}
      reading={`your plan’s ${plural}`}
      error={error}
      free={<span key="free">{freeValuesText(plural)} </span>}
    />
  );
}

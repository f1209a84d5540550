import type { DropReason } from '#engine/messages.ts';

// The feed's summary of dropped odds input, written at most every 30 s (src/server/feed/plugin.ts). A drop the source
// causes by design (the simulator's props of players who share a surname, dropped as `ambiguous_player`: decision 122)
// is not news: it is logged at debug level, so a newcomer's console is not warned every 30 s about it (decision 298).
// A drop of any other reason is a warning as before, and so is every drop of a source that expects none. Every drop is still
// counted in the engine's counters (/readyz's `drops`) whatever its level here.

export interface DropLogger {
  warn(details: object, message: string): void;
  debug(details: object, message: string): void;
}

/** Logs one period's drops: the unexpected ones as a warning, the source's expected ones at debug level. */
export function logDrops(
  log: DropLogger,
  drops: ReadonlyMap<DropReason, number>,
  expected: readonly DropReason[] = [],
): void {
  const unexpected: Partial<Record<DropReason, number>> = {};
  const byDesign: Partial<Record<DropReason, number>> = {};
  for (const [reason, count] of drops) {
    if (expected.includes(reason)) byDesign[reason] = count;
    else unexpected[reason] = count;
  }
  if (Object.keys(unexpected).length > 0) log.warn({ drops: unexpected }, 'odds input dropped');
  if (Object.keys(byDesign).length > 0) {
    log.debug({ drops: byDesign }, 'odds input dropped as the source expects (by design, not a fault)');
  }
}

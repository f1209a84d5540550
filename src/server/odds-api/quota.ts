// The paid API's per-key quotas are fixed windows of the shared counter store (`app.rateLimiter.window`, decision
// 105): a window admits exactly `limit` requests however fast they arrive, and its reset time is exact, which is what
// the RateLimit headers promise ("250 requests per minute" read literally). Each key's windows are offset by a
// per-key phase so that all clients do not reset at :00.
//
// A window belongs to the key's line (decision 202): the key and every key rotated from it (`ledgerId`, the first
// key of the line, as for SGP credits and usage). A successor thus inherits the minute in progress, the requests
// already counted in it and its reset time, in memory and in Redis alike, with nothing copied at rotation.

import type { ApiKeyRecord } from '../keys/service.ts';

/** A stable phase in [0, windowMs) for a key id. */
export function phaseOf(keyId: number, windowMs: number): number {
  return (keyId * 7919) % windowMs;
}

/** The counter `name` (`key`, `stream-opens`) of the key's line, and its windows' phase. */
export function lineWindow(
  name: string,
  key: Pick<ApiKeyRecord, 'ledgerId'>,
  windowMs: number,
): { counter: string; phase: number } {
  return { counter: `${name}:${key.ledgerId}`, phase: phaseOf(key.ledgerId, windowMs) };
}

// The paid API's per-key quotas are fixed windows of the shared counter store (`app.rateLimiter.window`, decision
// 105): a window admits exactly `limit` requests however fast they arrive, and its reset time is exact, which is what
// the RateLimit headers promise ("250 requests per minute" read literally). Each key's windows are offset by a
// per-key phase so that all clients do not reset at :00.

/** A stable phase in [0, windowMs) for a key id. */
export function phaseOf(keyId: number, windowMs: number): number {
  return (keyId * 7919) % windowMs;
}

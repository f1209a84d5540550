import type { StreamClient } from './fan-out.ts';
import type { KeyCloseReason } from './stream-hub.ts';

/** Which of these keys (with the plan their streams run on) must close their streams, and why. */
export type StreamRecheck = (
  keys: { id: number; planId: string }[],
) => Promise<{ id: number; reason: KeyCloseReason | 'plan-changed' }[]>;

// Open streams by API key: the per-key count the route's concurrent-stream cap reads, and the periodic check that
// closes the streams of keys that expired here or were revoked or suspended on any instance (docs/decisions/082, 086,
// 142).

export class StreamsByKey {
  private readonly byKey = new Map<number, Set<StreamClient>>();

  add(client: StreamClient): void {
    let keyed = this.byKey.get(client.key.id);
    if (!keyed) this.byKey.set(client.key.id, (keyed = new Set()));
    keyed.add(client);
  }

  remove(client: StreamClient): void {
    const keyed = this.byKey.get(client.key.id);
    if (!keyed) return;
    keyed.delete(client);
    if (keyed.size === 0) this.byKey.delete(client.key.id);
  }

  count(keyId: number): number {
    return this.byKey.get(keyId)?.size ?? 0;
  }

  /** The key's open streams (a copy: closing them is allowed while iterating). */
  of(keyId: number): StreamClient[] {
    return [...(this.byKey.get(keyId) ?? [])];
  }

  /**
   * Closes the streams of keys expired at `now`, then asks `recheck` (one database query) which of the open keys can
   * no longer be used, and closes theirs with the reason it gives. A failed query is retried at the next check.
   */
  check(
    now: number,
    recheck: StreamRecheck,
    close: (keyId: number, reason: KeyCloseReason | 'plan-changed') => void,
  ): void {
    for (const [id, clients] of this.byKey) {
      const key = [...clients][0]?.key;
      if (key?.expiresAt && key.expiresAt.getTime() <= now) close(id, 'expired');
    }
    const keys = [...this.byKey].flatMap(([id, clients]) => {
      const first = clients.values().next().value;
      return first ? [{ id, planId: first.key.plan.id }] : [];
    });
    if (keys.length === 0) return;
    recheck(keys).then(
      (gone) => {
        for (const { id, reason } of gone) close(id, reason);
      },
      () => {},
    );
  }
}

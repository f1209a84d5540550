import type { FastifyInstance } from 'fastify';
import type { PlanId } from '#domain/plans.ts';

// The paid API's test support (docs/decisions/080-086): keys created and revoked as operators do, raw SSE reads.

/** Creates a key of the plan directly through the service; returns the plain key. */
export async function createKey(app: FastifyInstance, planId: PlanId, expiresAt?: Date): Promise<string> {
  const { plain } = await app.apiKeys.create({
    planId,
    email: `ops+${planId}@example.com`,
    expiresAt: expiresAt ?? null,
  });
  return plain;
}

/** Revokes a key (or the key of a prefix) through the operators' route, as `npm run keys -- revoke` does. */
export function revokeKey(app: FastifyInstance, keyOrPrefix: string) {
  return app.inject({
    method: 'POST',
    url: '/admin/keys/revoke',
    headers: { authorization: `Bearer ${app.secrets.adminToken}`, 'content-type': 'application/json' },
    payload: { prefix: keyOrPrefix.slice(0, 14) },
  });
}

/** An SSE answer read as raw text over real HTTP: what arrived so far, and a promise that settles when it ends. */
export interface RawStream {
  status: number;
  text(): string;
  ended: Promise<void>;
  abort(): void;
}

export async function openRawStream(url: string, headers: Record<string, string> = {}): Promise<RawStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  let buffer = '';
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted by the test
    }
  })();
  return { status: response.status, text: () => buffer, ended, abort: () => controller.abort() };
}

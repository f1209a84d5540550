import type { FastifyInstance } from 'fastify';
import type { PlanId } from '#domain/plans.ts';
import { and, eq } from 'drizzle-orm';
import { apiKeys, sgpCredits } from '#server/db/schema.ts';
import { generateKey } from '#server/keys/key-format.ts';

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

/**
 * A trial key as the trial service issues it (kind 'trial', the Pro plan, a week long from `now`), inserted directly;
 * returns the plain key and its prefix.
 */
export async function createTrialKey(
  app: FastifyInstance,
  now: number = Date.now(),
  email = 'trial@example.com',
): Promise<{ plain: string; prefix: string }> {
  const trial = generateKey('trial');
  await app.db.insert(apiKeys).values({
    prefix: trial.prefix,
    hash: trial.hash,
    kind: 'trial',
    plan: 'pro',
    ownerEmail: email,
    expiresAt: new Date(now + 7 * 86_400_000),
  });
  return { plain: trial.plain, prefix: trial.prefix };
}

/**
 * Test-only shortcut to the end of a month: sets the `used` of a key's same-game-parlay ledger row for `month`
 * (`YYYY-MM`), which its first spend of the month created. Throws when there is no such row.
 */
export async function setSgpCreditsUsed(
  app: FastifyInstance,
  apiKeyId: number,
  month: string,
  used: number,
): Promise<void> {
  const rows = await app.db
    .update(sgpCredits)
    .set({ used })
    .where(and(eq(sgpCredits.apiKeyId, apiKeyId), eq(sgpCredits.month, `${month}-01`)))
    .returning();
  if (rows.length !== 1) throw new Error(`no SGP ledger row for key ${apiKeyId} in ${month}`);
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

/** One server-sent event of a raw stream: its id, its type and its data parsed. */
export interface StreamFrame {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** The events a raw stream has received so far, in order (comments and the `retry` line left out). */
export function streamFrames(stream: RawStream): StreamFrame[] {
  return stream
    .text()
    .split('\n\n')
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        const colon = line.indexOf(': ');
        if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
      }
      return fields;
    })
    .filter((fields) => fields.has('event'))
    .map((fields) => ({
      id: fields.get('id') ?? '',
      event: fields.get('event')!,
      data: JSON.parse(fields.get('data')!) as Record<string, unknown>,
    }));
}

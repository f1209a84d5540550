import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { waitFor } from '#tests/support/server/trials.ts';
import { createKey, openRawStream, revokeKey } from '#tests/support/server/odds-api.ts';
import { twoInstances } from '#tests/support/server/two-instances.ts';

// Revocation told across instances through CI's Redis (pub/sub): instance B trusts a key lookup for a whole minute
// here, so only the message from A can make B refuse a key A revoked, or close B's stream of it at once.

const MINUTE = 60_000;
// Neither the key cache nor the streams' database re-check may act within the test.
const instances = twoInstances('i6r', 4442, { keyCacheMs: MINUTE, stream: { recheckMs: MINUTE } });

const get = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: '/v1/leagues', headers: { 'x-api-key': key } });

const revoke = (key: string) => revokeKey(instances.a, key);

describe('key revocation across instances (Redis pub/sub)', () => {
  it("another instance refuses a revoked key at once, although its cache would trust the key's lookup for a minute", async () => {
    const key = await createKey(instances.a, 'elite');
    const other = await createKey(instances.a, 'elite');
    expect((await get(instances.b, key)).statusCode).toBe(200);
    expect((await get(instances.b, other)).statusCode).toBe(200);
    expect((await revoke(key)).statusCode).toBe(200);
    let status = 0;
    await waitFor(
      async () => (status = (await get(instances.b, key)).statusCode) === 401,
      'B to refuse the revoked key',
      5_000,
    );
    expect(status).toBe(401);
    expect((await get(instances.b, key)).json().type).toMatch(/api-key-revoked$/);
    // Only the revoked key: the other one still works on B.
    expect((await get(instances.b, other)).statusCode).toBe(200);
  });

  it('closes at once a stream of the key on the other instance, with event: close and reason revoked', async () => {
    const key = await createKey(instances.a, 'elite');
    const stream = await openRawStream(`http://127.0.0.1:${instances.portB}/v1/stream?initial=false`, {
      'x-api-key': key,
    });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    expect((await revoke(key)).statusCode).toBe(200);
    await waitFor(() => ended, 'the stream on the other instance to close', 5_000);
    expect(stream.text()).toContain('"reason":"revoked"');
    stream.abort();
  });
});

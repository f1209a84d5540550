import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '#tests/support/server/app.ts';
import { createKey, openRawStream, streamFrames } from '#tests/support/server/odds-api.ts';
import { trialTestConfig, waitFor } from '#tests/support/server/trials.ts';

// Decisions 211 and 223: no plan's positive EV and middles are staler than the free pages' (EV_PUBLIC_DELAY_S). With
// the default (120 s, Starter's delay) every plan's stream already holds; an operator who sets it lower makes a stream
// of EV and middles alone come at that delay on a plan delayed more.

let app: FastifyInstance;
let base = '';

beforeAll(async () => {
  app = await buildTestApp({
    config: trialTestConfig({ EV_PUBLIC_DELAY_S: '30' }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await app.close();
});

async function snapshotDelay(plan: 'starter' | 'pro', types: string): Promise<unknown> {
  const stream = await openRawStream(`${base}/v1/stream?types=${types}`, {
    'x-api-key': await createKey(app, plan),
  });
  try {
    await waitFor(() => streamFrames(stream).some((frame) => frame.event === 'snapshot'), 'the snapshot');
    return streamFrames(stream).find((frame) => frame.event === 'snapshot')!.data.delay_seconds;
  } finally {
    stream.abort();
  }
}

describe('GET /v1/stream: positive EV and middles never staler than the free pages', () => {
  it('serves a Starter stream of EV and middles alone at the free pages’ 30 s, not its plan’s 2 minutes', async () => {
    expect(await snapshotDelay('starter', 'ev,middle')).toBe(30);
    expect(await snapshotDelay('starter', 'ev')).toBe(30);
  });

  it('keeps a plan delayed less than the free pages at its own delay', async () => {
    expect(await snapshotDelay('pro', 'middle')).toBe(15);
  });

  it('serves a stream that mixes prices or arbs with EV at the plan’s delay (prices are what the plan buys)', async () => {
    expect(await snapshotDelay('starter', 'price,ev')).toBe(120);
  });
});

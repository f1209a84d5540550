import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { READ_SLICE_MS, ReadGuard } from './history-reads.ts';

// ReadGuard paces a long history read (decision 180): its JavaScript runs in slices of at most READ_SLICE_MS before
// other work (the feed, the streams, /healthz) gets a turn of the event loop.

const request = {
  raw: { socket: { destroyed: false }, readableAborted: false },
} as unknown as FastifyRequest;
const reply = { raw: { destroyed: false } } as unknown as FastifyReply;

/** Runs the CPU for `ms` without letting the event loop turn. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Whether a callback queued for the next turn of the event loop ran while `step` was awaited. */
async function turnedDuring(step: () => Promise<void>): Promise<boolean> {
  let turned = false;
  const queued = setImmediate(() => {
    turned = true;
  });
  await step();
  clearImmediate(queued);
  return turned;
}

describe('ReadGuard: a read in slices', () => {
  it('pace() lets other work run once a slice has lasted READ_SLICE_MS, and not before', async () => {
    const guard = new ReadGuard(request, reply, () => 0);
    await guard.turn();
    expect(await turnedDuring(() => guard.pace())).toBe(false);
    busy(READ_SLICE_MS + 1);
    expect(await turnedDuring(() => guard.pace())).toBe(true);
    // The turn began a new slice.
    expect(await turnedDuring(() => guard.pace())).toBe(false);
  });

  it('turn() always lets other work run, then stops a read whose budget is spent', async () => {
    let now = 0;
    const guard = new ReadGuard(request, reply, () => now, 1_000);
    expect(await turnedDuring(() => guard.turn())).toBe(true);
    now = 1_000;
    await expect(guard.turn()).rejects.toMatchObject({ status: 503, code: 'read-budget-exceeded' });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { Poller } from './poller.ts';

/** A pass the test finishes by hand: `passes` counts the passes started, `finish()` ends the one in hand. */
function controlledPass() {
  const state = { passes: 0, finish: () => {} };
  const pass = () =>
    new Promise<void>((resolve) => {
      state.passes += 1;
      state.finish = resolve;
    });
  return { state, pass };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Poller', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs nothing before start, a pass at start, and nothing after stop', async () => {
    const pass = vi.fn(async () => {});
    const poller = new Poller(pass, 1_000, () => {});
    poller.kick();
    expect(pass).not.toHaveBeenCalled();
    expect(poller.active).toBe(false);

    poller.start();
    expect(poller.active).toBe(true);
    expect(pass).toHaveBeenCalledTimes(1);
    await poller.stop();
    expect(poller.active).toBe(false);
    poller.kick();
    expect(pass).toHaveBeenCalledTimes(1);
  });

  it('never runs two passes at once: kicks during a pass make one more pass right after it', async () => {
    const { state, pass } = controlledPass();
    const poller = new Poller(pass, 60_000, () => {});
    poller.start();
    expect(state.passes).toBe(1);
    poller.kick();
    poller.kick();
    poller.kick();
    await flush();
    expect(state.passes).toBe(1);

    state.finish();
    await flush();
    expect(state.passes).toBe(2);
    state.finish();
    await flush();
    expect(state.passes).toBe(2);
    await poller.stop();
  });

  it('polls every pollMs after a pass, and a kick replaces the waiting poll', async () => {
    vi.useFakeTimers();
    const pass = vi.fn(async () => {});
    const poller = new Poller(pass, 1_000, () => {});
    poller.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(2);

    await vi.advanceTimersByTimeAsync(500);
    poller.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(pass).toHaveBeenCalledTimes(3);
    // The poll waiting when the kick came is gone: the next one is pollMs after the kicked pass.
    await vi.advanceTimersByTimeAsync(999);
    expect(pass).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(4);

    await poller.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pass).toHaveBeenCalledTimes(4);
  });

  it('stop waits for the pass in hand, and the pass sees it is no longer active', async () => {
    const { state, pass } = controlledPass();
    const seen: boolean[] = [];
    const poller = new Poller(
      async () => {
        await pass();
        seen.push(poller.active);
      },
      60_000,
      () => {},
    );
    poller.start();
    let stopped = false;
    const stopping = poller.stop().then(() => {
      stopped = true;
    });
    await flush();
    expect(stopped).toBe(false);
    state.finish();
    await stopping;
    expect(seen).toEqual([false]);
    expect(state.passes).toBe(1);
  });

  it('reports a failed pass and keeps polling; start resumes after stop', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let calls = 0;
    const poller = new Poller(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
      },
      1_000,
      (error) => errors.push(error),
    );
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('database down');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);

    await poller.stop();
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(3);
    await poller.stop();
  });
});

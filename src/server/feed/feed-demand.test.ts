import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, fixedBoard } from '#tests/support/server/app.ts';
import { FeedDemand } from './feed-demand.ts';
import { FEED_WANTED_MS } from './plugin.ts';

// Decision 294: the server is told when the public feed comes into demand and when that lapses (it lets V8's heap grow
// more freely meanwhile). What must hold: one signal per change (not one per request), the lapse only after a full
// `wantedMs` without a request, and every way of reading the feed counted, the fast path included.

describe('FeedDemand', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('signals demand once when it starts and once when wantedMs passed without a request', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const changes: boolean[] = [];
    const demand = new FeedDemand({
      now: Date.now,
      wantedMs: 60_000,
      onChange: (wanted) => changes.push(wanted),
    });
    expect(demand.wanted()).toBe(false);
    expect(changes).toEqual([]);

    demand.ask();
    demand.ask();
    expect(changes).toEqual([true]);
    expect(demand.wanted()).toBe(true);

    // Requests keep coming every 10 s for two minutes: still wanted, no signal either way.
    for (let i = 0; i < 12; i += 1) {
      vi.advanceTimersByTime(10_000);
      demand.ask();
    }
    expect(changes).toEqual([true]);
    // The last request was just now: 59.999 s later the feed is still wanted, at 60 s it is not.
    vi.advanceTimersByTime(59_999);
    expect(changes).toEqual([true]);
    expect(demand.wanted()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(changes).toEqual([true, false]);
    expect(demand.wanted()).toBe(false);

    // A later request starts a new spell of demand.
    vi.advanceTimersByTime(300_000);
    expect(changes).toEqual([true, false]);
    demand.ask();
    expect(changes).toEqual([true, false, true]);
    // Stopping (the app closing) ends it, and leaves no timer behind.
    demand.stop();
    expect(changes).toEqual([true, false, true, false]);
    expect(vi.getTimerCount()).toBe(0);
    demand.stop();
    expect(changes).toEqual([true, false, true, false]);
  });

  it('without a listener, only says whether the feed is wanted (no timer)', () => {
    vi.useFakeTimers({ now: 5_000_000 });
    const demand = new FeedDemand({ now: Date.now, wantedMs: 1_000 });
    demand.ask();
    expect(vi.getTimerCount()).toBe(0);
    expect(demand.wanted()).toBe(true);
    expect(demand.wanted(Date.now() + 999)).toBe(true);
    expect(demand.wanted(Date.now() + 1_000)).toBe(false);
  });
});

describe('the app tells onFeedWanted of the public feed’s demand', () => {
  function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('on the first feed request, over a socket (the fast path) or injected (the route); not for other routes; false on close', async () => {
    const changes: boolean[] = [];
    const app = await buildTestApp({
      source: fixedBoard,
      onFeedWanted: (wanted) => changes.push(wanted),
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      expect(await get(port, '/healthz', {})).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect(changes).toEqual([]);

      // Repeat requests of one case are the fast path's (decision 136): each of them is a demand, the first signals it.
      for (let i = 0; i < 5; i += 1)
        expect(await get(port, '/tools/arbs.json?t=1', { 'accept-encoding': 'gzip' })).toBe(200);
      expect(changes).toEqual([true]);
      expect((await app.inject({ method: 'GET', url: '/tools/arbs.json' })).statusCode).toBe(200);
      expect(changes).toEqual([true]);
      expect(FEED_WANTED_MS).toBe(60_000);
    } finally {
      await app.close();
    }
    expect(changes).toEqual([true, false]);

    // Nothing asked: nothing signalled, even on close.
    const quiet: boolean[] = [];
    const other = await buildTestApp({
      source: fixedBoard,
      onFeedWanted: (wanted) => quiet.push(wanted),
    });
    await other.ready();
    expect((await other.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await other.close();
    expect(quiet).toEqual([]);
  });
});

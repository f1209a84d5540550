import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { OddsEngine } from '../engine.ts';
import { MAX_TIMER_MS } from '../ingest.ts';
import { MAX_AT_MS, parseReplay, recordSimulation, replaySource } from './replay.ts';
import type { SourceContext } from './types.ts';

const EXAMPLE = path.resolve('tests/fixtures/replay-example.jsonl');
const HOSTILE = path.resolve('tests/fixtures/replay-hostile.jsonl');

function harness() {
  const engine = new OddsEngine({ source: 'replay' });
  const context: SourceContext = {
    ingest: (message) => engine.ingest(message),
    drop: (reason) => engine.drop(reason),
    ready: () => engine.markReady(),
    now: () => Date.now(),
    log: { info: () => {}, warn: () => {} },
  };
  const feed = () => {
    engine.tick();
    return ArbFeedSchema.parse(JSON.parse(engine.latest!.body.toString('utf8')));
  };
  return { engine, context, feed };
}

describe('replay source', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-11-22T00:00:00Z'));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('plays the example file as docs/reference/replay-format.md promises', async () => {
    const { context, feed } = harness();
    const source = replaySource(EXAMPLE);
    await source.start(context);
    let arbs = feed().arbs;
    expect(arbs).toHaveLength(1);
    expect(arbs[0]).toMatchObject({
      market: 'Moneyline',
      edge_pct: 3.602,
      event: { live: false, id: 'nba-bos-lal-202611220045' },
    });
    expect(arbs[0]!.sides.map((s) => s.sportsbook)).toEqual(['fanduel', 'draftkings']);
    expect(arbs[0]!.sides[0]!.links.mobile).toMatch(/^fanduelsportsbook:/);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(feed().arbs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    arbs = feed().arbs;
    expect(arbs.map((a) => a.edge_pct)).toEqual([3.602, 2.439]);
    expect(arbs[1]).toMatchObject({ market: 'Spread +1.5 / -1.5', event: { live: true } });
    await vi.advanceTimersByTimeAsync(4_000);
    arbs = feed().arbs;
    expect(arbs.map((a) => a.edge_pct)).toEqual([2.439]);
    // Keepalive re-confirms the held prices: arb B is still there long after the 10 s live age limit.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(feed().arbs.map((a) => a.edge_pct)).toEqual([2.439]);
    await source.stop();
  });

  it('counts lines that are not JSON or too long, and ignores comments', () => {
    const parsed = parseReplay(
      [
        '# comment',
        '',
        'not json',
        `{"at":1,"kind":"end","sourceEventId":"${'x'.repeat(70_000)}"}`,
        '{"at":-5}',
        '{"at":5,"kind":"end","sourceEventId":"a"}',
      ].join('\n'),
    );
    expect(parsed.refused.map((r) => r.reason)).toEqual(['not_json', 'payload_too_large', 'malformed']);
    expect(parsed.lines).toEqual([{ at: 5, message: { kind: 'end', sourceEventId: 'a' } }]);
  });

  it('drops and counts every implausible time and price of a hostile file, and keeps playing', async () => {
    const { engine, context, feed } = harness();
    const source = replaySource(HOSTILE);
    await source.start(context);
    const drops = engine.stats().drops;
    // 4 event start times, 1 update time from 2020, 1 line at 1e12 ms.
    expect(drops.time_out_of_range).toBe(6);
    expect(drops.odds_out_of_range).toBe(3);
    expect(engine.store.eventCount).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    const arbs = feed().arbs;
    expect(arbs.map((arb) => [arb.market, arb.edge_pct, arb.suspect])).toEqual([
      ['Moneyline', 90.536, true],
      ['Total 221.5', 2.5, undefined],
    ]);
    for (const side of arbs.flatMap((arb) => arb.sides)) {
      expect(Number.isFinite(side.decimal_odds) && side.decimal_odds <= 1001).toBe(true);
    }
    await source.stop();
  });

  it('never revives a price the file marks stale: keepalive leaves its own updatedAt alone', async () => {
    const { engine, context, feed } = harness();
    const source = replaySource(HOSTILE);
    await source.start(context);
    const staleAt = Date.parse('2026-11-21T23:50:00Z');
    const betmgm = () => {
      const event = engine.store.events().find((e) => e.home.name === 'Los Angeles Lakers')!;
      const moneyline = engine.store.markets(event.id).find((m) => m.spec.type === 'moneyline')!;
      return engine.store.prices(moneyline.key).find((price) => price.book === 'betmgm')!;
    };
    for (let second = 0; second < 30; second += 1) {
      await vi.advanceTimersByTimeAsync(1_000);
      expect(feed().arbs.filter((arb) => arb.event.teams.home.name === 'Los Angeles Lakers')).toHaveLength(1);
      expect(betmgm().updatedAt).toBe(staleAt);
    }
    await source.stop();
  });

  it('never hands a timer a delay above 2^31 − 1 ms, and refuses lines due later than that', async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const { context } = harness();
    const source = replaySource(HOSTILE);
    await source.start(context);
    await vi.advanceTimersByTimeAsync(10_000);
    await source.stop();
    const delays = setTimeoutSpy.mock.calls.map((call) => call[1] ?? 0);
    expect(delays.length).toBeGreaterThan(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_TIMER_MS);
    const parsed = parseReplay(
      `{"at":${MAX_AT_MS},"kind":"end","sourceEventId":"a"}\n{"at":${MAX_AT_MS + 1},"kind":"end","sourceEventId":"b"}`,
    );
    expect(parsed.lines.map((line) => line.message.sourceEventId)).toEqual(['a']);
    expect(parsed.refused).toEqual([{ reason: 'time_out_of_range', line: 2 }]);
  });

  it('replays a simulator recording into the same arbs the simulator produced', async () => {
    const text = recordSimulation({ seed: 4, seconds: 2, events: 15 });
    const parsed = parseReplay(text);
    expect(parsed.refused).toEqual([]);
    expect(parsed.lines.length).toBeGreaterThan(1000);
    const { engine } = harness();
    engine.markReady();
    for (const line of parsed.lines) {
      const m = line.message;
      engine.ingest(m.kind === 'event' ? { ...m, startsAt: Date.now() + (m.startsIn as number) } : m);
    }
    // Nothing is dropped but the props one simulated book names by a surname two players share (decision 122).
    expect(engine.stats().dropped).toBe(engine.stats().drops.ambiguous_player);
    expect(engine.store.eventCount).toBe(15);
  });
});

import { describe, expect, it } from 'vitest';
import type { LeagueKey } from '#domain/markets.ts';
import { EventRegistry } from '../../events.ts';
import type { SourceMessage } from '../../messages.ts';
import { MarketSimulator } from './market-simulator.ts';

// The simulator's fixtures are separate games: none may share its home and away teams with another starting within
// the engine's merge tolerance, or the engine takes the two for one game from two sources (with two fair models
// behind its prices: the bench board's bogus middles and positive-EV prices before the simulator checked this).

const T0 = Date.UTC(2026, 0, 1);

describe('simulated fixtures', { timeout: 120_000 }, () => {
  it('never lists two fixtures the engine would merge into one event, on the opening board or later', () => {
    const sim = new MarketSimulator({ seed: 2026, startMs: T0, events: 2000, stepMs: 1000, props: false });
    const registry = new EventRegistry();
    const events = new Map<string, string>();
    const ended = new Set<string>();
    const register = (messages: SourceMessage[]) => {
      for (const message of messages) {
        if (message.kind === 'end') {
          const id = registry.lookup(message.sourceEventId);
          if (id) registry.forget(id);
          ended.add(message.sourceEventId);
          continue;
        }
        if (message.kind !== 'event' || events.has(message.sourceEventId)) continue;
        const id = registry.resolve(
          message.sourceEventId,
          message.league as LeagueKey,
          { name: message.home.name, abbreviation: message.home.abbreviation ?? '' },
          { name: message.away.name, abbreviation: message.away.abbreviation ?? '' },
          Number(message.startsAt),
        );
        events.set(message.sourceEventId, id);
      }
    };
    register(sim.initial());
    for (let step = 0; step < 60; step += 1) register(sim.step());
    const sources = new Map<string, string[]>();
    for (const [source, id] of events)
      if (!ended.has(source)) sources.set(id, [...(sources.get(id) ?? []), source]);
    const merged = [...sources.values()].filter((list) => list.length > 1);
    expect(merged).toEqual([]);
    expect(events.size).toBeGreaterThanOrEqual(2000);
  });
});

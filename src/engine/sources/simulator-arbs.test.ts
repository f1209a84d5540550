import { describe, expect, it } from 'vitest';
import { OddsEngine } from '../engine.ts';
import { MarketSimulator } from './simulation/market-simulator.ts';

// Decision 162: the simulator's arbs are as rare, small and short-lived as real markets' (docs/product.md, "The demo
// market"). The engine's own scanner decides what an arb is; an arb here is an episode: a market (one event's market at
// one line) from the moment the scanner finds a positive edge on it until it finds none, with the largest edge it
// reached and whether the game was in play.

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);
const STEP_MS = 250;

interface Episode {
  start: number;
  lifetimeMs: number;
  maxEdge: number;
  live: boolean;
  suspect: boolean;
}

function episodes(seed: number, minutes: number): Episode[] {
  let now = T0;
  const engine = new OddsEngine({ source: 'simulator', now: () => now });
  const sim = new MarketSimulator({ seed, startMs: T0, events: 30 });
  for (const m of sim.initial()) engine.ingest(m);
  engine.markReady();
  const open = new Map<string, Omit<Episode, 'lifetimeMs'>>();
  const done: Episode[] = [];
  for (let step = 1; step <= (minutes * 60_000) / STEP_MS; step += 1) {
    now += STEP_MS;
    for (const m of sim.step()) engine.ingest(m);
    engine.tick();
    const seen = new Set<string>();
    for (const arb of engine.currentArbs()) {
      if (arb.edge_pct <= 0) continue;
      const key = `${arb.event.id}|${arb.market}`;
      seen.add(key);
      const episode = open.get(key);
      if (episode) {
        episode.maxEdge = Math.max(episode.maxEdge, arb.edge_pct);
        episode.suspect ||= arb.suspect === true;
      } else
        open.set(key, {
          start: now,
          maxEdge: arb.edge_pct,
          live: arb.event.live,
          suspect: arb.suspect === true,
        });
    }
    for (const [key, episode] of open)
      if (!seen.has(key)) {
        done.push({ ...episode, lifetimeMs: now - episode.start });
        open.delete(key);
      }
  }
  // Episodes still open at the end are left out: their lifetime is unknown (they are a handful among hundreds).
  return done;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
};

describe('the simulated market’s arbs (decision 162)', { timeout: 900_000 }, () => {
  it('are mostly under 3 %, live ones gone within a minute, suspect ones rare (20 simulated minutes, seed 7)', () => {
    const all = episodes(7, 20);
    const live = all.filter((e) => e.live);
    const prematch = all.filter((e) => !e.live);
    // Enough of each to judge, and the board is never without arbs for long. Live arbs follow scores, which come from
    // the score model (issue 57) at each sport's own scoring rate: fewer in 20 minutes than pre-match ones.
    expect(live.length).toBeGreaterThan(60);
    expect(prematch.length).toBeGreaterThan(100);
    // Size: most under 3 % (tuned to ~3 % over; bound 10 %), the typical one under 1 %.
    expect(all.filter((e) => e.maxEdge > 3).length / all.length).toBeLessThan(0.1);
    expect(
      quantile(
        all.map((e) => e.maxEdge),
        0.5,
      ),
    ).toBeLessThan(1);
    // Live arbs: 95 % gone within 60 s (tuned to a 95th percentile of ~10 s).
    expect(
      quantile(
        live.map((e) => e.lifetimeMs),
        0.95,
      ),
    ).toBeLessThan(60_000);
    // Suspect (over ARB_MAX_EDGE_PCT, 10 %): rare, at most 1 in 100, most of them the books' rare wrong prices.
    // Decision 288's first parts in play, with decision 291, had it at 1.75 in 100 with seed 7: a part's price read to
    // the twentieth of its time above jumped at each twentieth (an NBA half's total by 5.7 points), and on a score the
    // 15 % of books that did not suspend left their last price standing however far the score had moved it. Decision
    // 293 moves a part's price with its clock between twentieths and pulls a standing price the score moved 4 points
    // of probability or more, and books take their pre-game prices down at kick-off: 1 of 628 with seed 7.
    expect(all.filter((e) => e.suspect).length / all.length).toBeLessThan(0.01);
  });
});

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
  /** A player prop's (else a game line's: moneyline, spread, total, 1X2, full game or first part). */
  prop: boolean;
}

/** The run's episodes, and the game-hours played on the board during it (the games in play, summed over time). */
function episodes(seed: number, minutes: number): { done: Episode[]; gameHours: number } {
  let now = T0;
  const engine = new OddsEngine({ source: 'simulator', now: () => now });
  const sim = new MarketSimulator({ seed, startMs: T0, events: 30 });
  for (const m of sim.initial()) engine.ingest(m);
  engine.markReady();
  const open = new Map<string, Omit<Episode, 'lifetimeMs'>>();
  const done: Episode[] = [];
  let liveSteps = 0;
  for (let step = 1; step <= (minutes * 60_000) / STEP_MS; step += 1) {
    now += STEP_MS;
    for (const m of sim.step()) engine.ingest(m);
    engine.tick();
    for (const event of engine.store.events()) if (event.live) liveSteps += 1;
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
          prop: arb.market_type === 'prop',
        });
    }
    for (const [key, episode] of open)
      if (!seen.has(key)) {
        done.push({ ...episode, lifetimeMs: now - episode.start });
        open.delete(key);
      }
  }
  // Episodes still open at the end are left out: their lifetime is unknown (they are a handful among hundreds).
  return { done, gameHours: (liveSteps * STEP_MS) / 3_600_000 };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
};

describe('the simulated market’s arbs (decision 162)', { timeout: 900_000 }, () => {
  it('are mostly under 3 %, live ones several a game-hour in play and gone within a minute, suspect ones rare (20 simulated minutes, seed 7)', () => {
    const { done: all, gameHours } = episodes(7, 20);
    const live = all.filter((e) => e.live);
    const prematch = all.filter((e) => !e.live);
    expect(prematch.length).toBeGreaterThan(100);
    // Live arbs (decision 305) are counted per game-hour in play, not per run: how many games the calendar has in play
    // in the 20 minutes is the seed's (2 to 11 games, 0.7 to 3.7 game-hours, over seeds 1–9), and a count per run
    // judged that, not the books. The run must hold enough play to judge (seed 7: 2.0 game-hours, 6 games).
    expect(gameHours).toBeGreaterThan(1.5);
    // Real in-play arbs between sharp and soft books: several per game-hour across a game's board of game lines,
    // gone in seconds to tens of seconds. So the game lines' live arbs are 3 to 30 a game-hour: none would be a board
    // whose books never disagree in play; before decision 293, prices left standing through scores made 48–61 (seeds
    // 3, 6, 7), each gone in a second or two. Seed 7: 10 in 2.0 game-hours, 5 a game-hour (seeds 1–9 pooled: 7.4).
    const liveLines = live.filter((e) => !e.prop).length / gameHours;
    expect(liveLines).toBeGreaterThanOrEqual(3);
    expect(liveLines).toBeLessThanOrEqual(30);
    // Props too (a game's props are many more markets than its lines): 65 live arbs in all with seed 7. Enough that
    // the 95th percentile of their lifetimes below is not the longest one alone (it is from 21 on).
    expect(live.length).toBeGreaterThan(20);
    // Size: most under 3 % (tuned to ~3 % over; bound 10 %), the typical one under 1 %.
    expect(all.filter((e) => e.maxEdge > 3).length / all.length).toBeLessThan(0.1);
    expect(
      quantile(
        all.map((e) => e.maxEdge),
        0.5,
      ),
    ).toBeLessThan(1);
    // Live arbs: 95 % gone within 60 s, the top of "tens of seconds" (tuned to a 95th percentile of ~10 s in decision
    // 162, when most were prices left standing a second or two through a score; 45 s with seed 7 since decision 293,
    // the live arbs left being more often two books' leans, which last; 19–45 s over seeds 2–9).
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

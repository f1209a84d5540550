import { MarketSimulator } from './simulation/market-simulator.ts';
import { SGP_BOOKS } from './simulation/models.ts';
import type { OddsSource, SourceContext } from './types.ts';

// The market simulator as an odds source (ODDS_SOURCE=simulator). The simulation itself lives in ./simulation:
// models.ts (books, sports, leagues, markets), pricing.ts (fair model → book odds), market-simulator.ts (fixtures
// over time, from one seeded generator).

/**
 * Messages ingested per turn of the event loop. A step changes ~850 game-line and ~1,000 prop prices at once; ingested
 * in one synchronous burst they held the loop for tens of milliseconds, delaying every stream's release behind them
 * (issue 17). In slices of this size each turn takes about a millisecond, and timers (stream releases) run between.
 */
export const SIMULATOR_SLICE = 200;

/** The simulator as an engine source: steps on a timer (unref'd), stamping prices with the wall clock. */
export function simulatorSource(
  seed: number,
  options: { events?: number; stepMs?: number; props?: boolean } = {},
): OddsSource {
  let timer: ReturnType<typeof setInterval> | null = null;
  let slicing: ReturnType<typeof setImmediate> | null = null;
  /** The messages of the step being ingested. */
  let pending: unknown[] = [];
  let next = 0;
  return {
    name: 'simulator',
    sgp: { books: SGP_BOOKS },
    start(context: SourceContext) {
      const sim = new MarketSimulator({
        seed,
        startMs: context.now(),
        events: options.events,
        stepMs: options.stepMs,
        props: options.props,
      });
      for (const message of sim.initial()) context.ingest(message);
      context.ready();
      const slice = () => {
        slicing = null;
        const end = Math.min(pending.length, next + SIMULATOR_SLICE);
        for (; next < end; next += 1) context.ingest(pending[next]);
        if (next < pending.length) slicing = setImmediate(slice);
        else {
          pending = [];
          next = 0;
        }
      };
      timer = setInterval(() => {
        // A step still being ingested: this one waits for the next tick, as a synchronous step would have made the
        // timer wait (a loop too busy to keep up must not pile steps up, each older than the last).
        if (slicing) return;
        pending = sim.step();
        next = 0;
        slice();
      }, options.stepMs ?? 250);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      if (slicing) clearImmediate(slicing);
      timer = null;
      slicing = null;
      pending = [];
      next = 0;
    },
  };
}

import { MarketSimulator } from './simulation/market-simulator.ts';
import { SGP_BOOKS } from './simulation/models.ts';
import type { OddsSource, SourceContext } from './types.ts';

// The market simulator as an odds source (ODDS_SOURCE=simulator). The simulation itself lives in ./simulation:
// models.ts (books, sports, leagues, markets), pricing.ts (fair model → book odds), market-simulator.ts (fixtures
// over time, from one seeded generator).

/** The simulator as an engine source: steps on a timer (unref'd), stamping prices with the wall clock. */
export function simulatorSource(
  seed: number,
  options: { events?: number; stepMs?: number; props?: boolean } = {},
): OddsSource {
  let timer: ReturnType<typeof setInterval> | null = null;
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
      timer = setInterval(() => {
        for (const message of sim.step()) context.ingest(message);
      }, options.stepMs ?? 250);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

import { MarketSimulator } from './simulation/market-simulator.ts';
import { SGP_BOOKS } from './simulation/models.ts';
import type { SourceMessage } from '../messages.ts';
import type { OddsSource, SourceContext } from './types.ts';

// The market simulator as an odds source (ODDS_SOURCE=simulator). The simulation itself lives in ./simulation:
// models.ts (books, sports, leagues, markets), pricing.ts (fair model → book odds), market-simulator.ts (fixtures
// over time, from one seeded generator).

/**
 * Messages ingested per turn of the event loop. A step changes ~1,300 prices (game lines and props; up to ~2,400);
 * ingested at once, with what listens to the store (stream frames, history), it held the loop for 10–40 ms, delaying
 * every stream's release behind it (issue 17). In slices of 500 a turn takes a few milliseconds, timers run between,
 * and a step still fits in one stream batch (20 ms): slices of 200 spread a step over so many turns that other work
 * pushed its end past the batch, and streams got two releases per step instead of one (docs/benchmarks.md).
 */
export const SIMULATOR_SLICE = 500;

/**
 * A simulator message run `offset` ms from the clock (decision 230) as the clock sees it: a fixture's start moved on by
 * the offset (the simulator's other messages carry no time).
 */
export function ontoClock(message: SourceMessage, offset: number): SourceMessage {
  return offset !== 0 && message.kind === 'event'
    ? { ...message, startsAt: Number(message.startsAt) + offset }
    : message;
}

/**
 * The simulator as an engine source: steps on a timer (unref'd), each step from the simulator's time to the context's
 * clock (decision 222). The simulator keeps the clock's time whatever the load: a tick that comes late, or is skipped
 * while a step is still being ingested, is caught up in the next step, never by replaying the ticks missed, so a game
 * goes live in the first step at or after its start and its pre-match prices are all sent before it.
 *
 * `startAt` (decision 230): the calendar's instant at the source's start. The simulator then runs that far from the
 * clock (its time is the clock's less the offset, moving at the clock's pace) and each fixture's start is shifted back
 * onto the clock, so the board is the one of `startAt` whenever the source starts; absent, the offset is nought.
 */
export function simulatorSource(
  seed: number,
  options: { events?: number; stepMs?: number; props?: boolean; startAt?: number | undefined } = {},
): OddsSource {
  let timer: ReturnType<typeof setInterval> | null = null;
  let slicing: ReturnType<typeof setImmediate> | null = null;
  /** The messages of the step being ingested. */
  let pending: SourceMessage[] = [];
  let next = 0;
  return {
    name: 'simulator',
    sgp: { books: SGP_BOOKS },
    // fliff's props of players whose surname another player of the fixture shares (prop-simulator.ts).
    expectedDrops: options.props === false ? [] : ['ambiguous_player'],
    start(context: SourceContext) {
      const offset = options.startAt === undefined ? 0 : context.now() - options.startAt;
      const calendarNow = () => context.now() - offset;
      const onClock = (message: SourceMessage) => ontoClock(message, offset);
      const sim = new MarketSimulator({
        seed,
        startMs: calendarNow(),
        events: options.events,
        stepMs: options.stepMs,
        props: options.props,
      });
      for (const message of sim.initial()) context.ingest(onClock(message));
      context.ready();
      const slice = () => {
        slicing = null;
        const end = Math.min(pending.length, next + SIMULATOR_SLICE);
        for (; next < end; next += 1) context.ingest(onClock(pending[next]!));
        if (next < pending.length) slicing = setImmediate(slice);
        else {
          pending = [];
          next = 0;
        }
      };
      timer = setInterval(() => {
        // A step still being ingested: this tick is skipped, and the next one's step covers its time (a loop too busy
        // to keep up must not pile steps up, each older than the last).
        if (slicing) return;
        pending = sim.advanceTo(calendarNow());
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

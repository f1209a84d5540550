import { replaySource } from './replay.ts';
import { simulatorSource } from './simulator.ts';
import { TheOddsApiSource } from './the-odds-api.ts';
import type { OddsSource } from './types.ts';

// ODDS_SOURCE → one source: `simulator` (default), `the-odds-api`, or `replay:<path>`.

export interface SourceSettings {
  ODDS_SOURCE: string;
  SIM_SEED: number;
  /** The simulator quotes player props (default true). */
  SIM_PROPS?: boolean;
  /** The demo calendar's instant at the source's start (unix ms; decision 230); absent: the clock's time. */
  SIM_START?: number | undefined;
  ODDS_API_KEY?: string | undefined;
  /** The Odds API's base URL; absent: the real one. */
  ODDS_API_URL?: string | undefined;
  /** The Odds API's player-prop budget (decision 123); absent: the source's defaults. */
  ODDS_API_PROPS_BUDGET?: number;
  ODDS_API_PROPS_RESERVE?: number;
  ODDS_API_PROPS_WINDOW_H?: number;
  ODDS_API_PROPS_MAX_EVENTS?: number;
  /** Least seconds between two scores calls of a league (decision 262); 0 turns scores off. */
  ODDS_API_SCORES_INTERVAL_S?: number;
}

export function createSource(settings: SourceSettings): OddsSource {
  const spec = settings.ODDS_SOURCE;
  if (spec === 'simulator')
    return simulatorSource(settings.SIM_SEED, {
      props: settings.SIM_PROPS !== false,
      startAt: settings.SIM_START,
    });
  if (spec.startsWith('replay:')) return replaySource(spec.slice('replay:'.length));
  if (spec === 'the-odds-api') {
    if (!settings.ODDS_API_KEY) throw new Error('ODDS_API_KEY is required when ODDS_SOURCE is the-odds-api');
    return new TheOddsApiSource({
      apiKey: settings.ODDS_API_KEY,
      ...(settings.ODDS_API_URL !== undefined && { baseUrl: settings.ODDS_API_URL }),
      ...(settings.ODDS_API_PROPS_BUDGET !== undefined && { propsBudget: settings.ODDS_API_PROPS_BUDGET }),
      ...(settings.ODDS_API_PROPS_RESERVE !== undefined && { propsReserve: settings.ODDS_API_PROPS_RESERVE }),
      ...(settings.ODDS_API_PROPS_WINDOW_H !== undefined && {
        propsWindowMs: settings.ODDS_API_PROPS_WINDOW_H * 3_600_000,
      }),
      ...(settings.ODDS_API_PROPS_MAX_EVENTS !== undefined && {
        propsMaxEvents: settings.ODDS_API_PROPS_MAX_EVENTS,
      }),
      ...(settings.ODDS_API_SCORES_INTERVAL_S !== undefined && {
        scoresIntervalMs: settings.ODDS_API_SCORES_INTERVAL_S * 1000,
      }),
    });
  }
  throw new Error(`Unsupported ODDS_SOURCE: ${spec}`);
}

export type { OddsSource, SourceContext } from './types.ts';

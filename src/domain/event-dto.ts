import { LEAGUES, type OddsEvent } from './markets.ts';
import type { EventDto } from './schemas/api/odds.ts';

/**
 * An event as every `/v1` answer shows it (odds, events, positive EV, middles): the engine's event with its sport and
 * its start as an ISO time. One function, so that the answers cannot drift apart.
 */
export function toEventDto(event: OddsEvent): EventDto {
  return {
    id: event.id,
    league: event.league,
    sport: LEAGUES[event.league].sport,
    home: { ...event.home },
    away: { ...event.away },
    starts_at: new Date(event.startsAt).toISOString(),
    live: event.live,
  };
}

import { LEAGUES, type OddsEvent } from './markets.ts';
import type { Player } from './props.ts';
import type { PlayerDto } from './schemas/api/common.ts';
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

/**
 * A roster entry as every `/v1` answer shows it: its team as 'home' or 'away' (a team id is resolved against the
 * event), or null when the source did not know it (team '': The Odds API names players without teams).
 */
export function toPlayerDto(player: Player, event: Pick<OddsEvent, 'home' | 'away'>): PlayerDto {
  const team =
    player.team === 'home' || player.team === event.home.id
      ? 'home'
      : player.team === 'away' || player.team === event.away.id
        ? 'away'
        : null;
  return { id: player.id, name: player.name, team };
}

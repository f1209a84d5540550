import type { FastifyInstance } from 'fastify';
import { propPrice } from './props.ts';

// A same-game-parlay board for tests (issue 16): one NBA event fed through the engine as a source feeds it.

export const SGP_ROSTER = [
  { id: 'p-tatum', name: 'Jayson Tatum', team: 'home' },
  { id: 'p-brown', name: 'Jaylen Brown', team: 'home' },
  { id: 'p-james', name: 'LeBron James', team: 'away' },
];

/**
 * An NBA event named `Sgp Home <n>` v `Sgp Away <n>` starting in an hour: moneyline home −180 / +155, spread home −4.5
 * at −110 both ways, total 221.5 at −110, Jayson Tatum's points 27.5 at −110 and 25.5 at −160 / +130. FanDuel and
 * DraftKings quote everything, BetMGM all but Tatum's props, Circa (no parlays) everything. Returns the event id.
 */
export function ingestSgpBoard(app: FastifyInstance, n: number, now: number): string {
  const source = `sgp-ev-${n}`;
  const accept = (message: unknown) => {
    if (!app.engine.ingest(message)) throw new Error(`the engine dropped ${JSON.stringify(message)}`);
  };
  accept({
    kind: 'event',
    sourceEventId: source,
    league: 'nba',
    home: { name: `Sgp Home ${n}`, abbreviation: `SH${n}` },
    away: { name: `Sgp Away ${n}`, abbreviation: `SA${n}` },
    startsAt: now + 3_600_000,
    players: SGP_ROSTER,
  });
  const tatum = { id: 'p-tatum', name: 'Jayson Tatum' };
  for (const book of ['fanduel', 'draftkings', 'betmgm', 'circa']) {
    const game = { kind: 'price', sourceEventId: source, book };
    accept({ ...game, market: 'moneyline', outcome: 'home', american: -180 });
    accept({ ...game, market: 'moneyline', outcome: 'away', american: 155 });
    accept({ ...game, market: 'spread', point: -4.5, outcome: 'home', american: -110 });
    accept({ ...game, market: 'spread', point: 4.5, outcome: 'away', american: -110 });
    accept({ ...game, market: 'total', point: 221.5, outcome: 'over', american: -110 });
    accept({ ...game, market: 'total', point: 221.5, outcome: 'under', american: -110 });
    if (book === 'betmgm') continue;
    accept(propPrice(source, book, tatum, 'over', -110));
    accept(propPrice(source, book, tatum, 'under', -110));
    accept(propPrice(source, book, tatum, 'over', -160, { point: 25.5 }));
    accept(propPrice(source, book, tatum, 'under', 130, { point: 25.5 }));
  }
  return app.engine.store.events().find((event) => event.home.name === `Sgp Home ${n}`)!.id;
}

/** Spread home −4.5, over 221.5 and Tatum over 27.5 of the board's event. */
export function sgpThreeLegs(id: string) {
  return [
    { market: 'spread', line: -4.5, outcome: 'home' },
    { market: 'total', line: 221.5, outcome: 'over' },
    { market: `${id}|prop|player_points|full|p-tatum|27.5`, outcome: 'over' },
  ];
}

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

/**
 * A Premier League event named `Goals Home <n>` v `Goals Away <n>` starting in an hour, at FanDuel and DraftKings:
 * 1X2 home −250 / draw +380 / away +750, total 2.5 over −135 / under +115, total 3.5 over +160 / under −190, and
 * the away striker "Goals Striker" to score anytime at +300 / no −400. Returns the event id.
 */
export function ingestSoccerSgpBoard(app: FastifyInstance, n: number, now: number): string {
  const source = `sgp-soccer-${n}`;
  const accept = (message: unknown) => {
    if (!app.engine.ingest(message)) throw new Error(`the engine dropped ${JSON.stringify(message)}`);
  };
  const striker = { id: 'p-goals-striker', name: 'Goals Striker' };
  accept({
    kind: 'event',
    sourceEventId: source,
    league: 'epl',
    home: { name: `Goals Home ${n}`, abbreviation: `GH${n}` },
    away: { name: `Goals Away ${n}`, abbreviation: `GA${n}` },
    startsAt: now + 3_600_000,
    players: [{ ...striker, team: 'away' }],
  });
  for (const book of ['fanduel', 'draftkings']) {
    const game = { kind: 'price', sourceEventId: source, book };
    accept({ ...game, market: '1x2', outcome: 'home', american: -250 });
    accept({ ...game, market: '1x2', outcome: 'draw', american: 380 });
    accept({ ...game, market: '1x2', outcome: 'away', american: 750 });
    accept({ ...game, market: 'total', point: 2.5, outcome: 'over', american: -135 });
    accept({ ...game, market: 'total', point: 2.5, outcome: 'under', american: 115 });
    accept({ ...game, market: 'total', point: 3.5, outcome: 'over', american: 160 });
    accept({ ...game, market: 'total', point: 3.5, outcome: 'under', american: -190 });
    const scorer = { stat: 'player_goal_scorer_anytime', point: undefined };
    accept(propPrice(source, book, striker, 'yes', 300, scorer));
    accept(propPrice(source, book, striker, 'no', -400, scorer));
  }
  return app.engine.store.events().find((event) => event.home.name === `Goals Home ${n}`)!.id;
}

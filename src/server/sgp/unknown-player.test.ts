import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GradeResponseSchema } from '#domain/schemas/api/scores.ts';
import { SgpResponseSchema } from '#domain/schemas/api/sgp.ts';
import { SGP_BOOKS } from '#engine/sources/simulation/models.ts';
import { buildTestApp, manualSource, virtualClock } from '#tests/support/server/app.ts';
import { createKey } from '#tests/support/server/odds-api.ts';
import { propPrice } from '#tests/support/props.ts';
import { ingestSgpBoard } from '#tests/support/sgp.ts';

// POST /v1/sgp on a prop key whose player part is no player of the event (decision 305), over real HTTP: 422
// `sgp-unknown-player` naming what it could not find, with the players it may mean in `near_players`, found by the
// same function as POST /v1/grade's `unknown_player` (decision 297: a mistyped id, a name a few edits off, the same
// surname), and no credit spent. A name that finds one player prices his market.

const clock = virtualClock(Date.UTC(2026, 10, 22, 12));
let app: FastifyInstance;
let origin: string;
let elite: string;
let id: string;
/** An event with two players whose names fold to the same ("Marcus Hale" and "Marcus Hale Jr."). */
let twins: string;

const spread = { market: 'spread', line: -4.5, outcome: 'home' };
const total = { market: 'total', line: 221.5, outcome: 'over' };
const prop = (player: string, point = 27.5) => `${id}|prop|player_points|full|${player}|${point}`;

interface Answer {
  status: number;
  type: string | null;
  credits: string | null;
  json: Record<string, unknown>;
}

async function sgp(body: unknown): Promise<Answer> {
  const response = await fetch(`${origin}/v1/sgp`, {
    method: 'POST',
    headers: { 'x-api-key': elite, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    credits: response.headers.get('x-sgp-credits-remaining'),
    json: (await response.json()) as Record<string, unknown>,
  };
}

async function creditsUsed(): Promise<number> {
  const me = await fetch(`${origin}/v1/me`, { headers: { 'x-api-key': elite } });
  return ((await me.json()) as { sgp_credits: { used: number } }).sgp_credits.used;
}

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now, source: { ...manualSource(), sgp: { books: SGP_BOOKS } } });
  await app.ready();
  elite = await createKey(app, 'elite');
  // Jayson Tatum's points props at FanDuel, DraftKings and Circa (Jaylen Brown and LeBron James are on the roster,
  // with no props).
  id = ingestSgpBoard(app, 1, clock.now());
  twins = ingestSgpBoard(app, 2, clock.now());
  const source = 'sgp-ev-2';
  for (const [player, name] of [
    ['p-hale', 'Marcus Hale'],
    ['p-hale-jr', 'Marcus Hale Jr.'],
  ] as const) {
    expect(app.engine.ingest({ ...eventOf(2), players: [{ id: player, name, team: 'home' }] })).toBe(true);
    for (const book of ['fanduel', 'draftkings'])
      for (const [outcome, american] of [
        ['over', -110],
        ['under', -110],
      ] as const)
        expect(app.engine.ingest(propPrice(source, book, { id: player, name }, outcome, american))).toBe(
          true,
        );
  }
  // The history holds the board's prices, so POST /v1/grade looks among the same players.
  expect(await app.history.flush()).toBe(true);
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

/** The board's event message of `ingestSgpBoard(app, n)` (it starts an hour after the clock's start). */
function eventOf(n: number) {
  const event = app.engine.store.events().find((candidate) => candidate.home.name === `Sgp Home ${n}`)!;
  return {
    kind: 'event',
    sourceEventId: `sgp-ev-${n}`,
    league: 'nba',
    home: { name: event.home.name },
    away: { name: event.away.name },
    startsAt: clock.now() + 3_600_000,
  };
}

afterAll(async () => {
  await app?.close();
});

describe('POST /v1/sgp: a prop key naming no player of the event (decision 305)', () => {
  it('a mistyped id: 422 sgp-unknown-player naming it and the player it may mean, as POST /v1/grade does; no credit spent', async () => {
    const before = await creditsUsed();
    const answer = await sgp({
      event_id: id,
      legs: [spread, total, { market: prop('p-tatun'), outcome: 'over' }],
    });
    expect(answer.status).toBe(422);
    expect(answer.type).toMatch(/^application\/problem\+json/);
    const tatum = { id: 'p-tatum', name: 'Jayson Tatum' };
    expect(answer.json).toEqual({
      type: 'https://sharpline.io/problems/sgp-unknown-player',
      title: 'Unknown player',
      status: 422,
      detail: 'Leg 3: No player named “p-tatun” in this event’s props; did you mean Jayson Tatum (p-tatum)?',
      legs: [2],
      near_players: [tatum],
    });
    expect(await creditsUsed()).toBe(before);
    expect(answer.credits).not.toBeNull();
    // POST /v1/grade on the same player of the same event finds the same one, by the same function.
    const graded = await fetch(`${origin}/v1/grade`, {
      method: 'POST',
      headers: { 'x-api-key': elite, 'content-type': 'application/json' },
      body: JSON.stringify({
        bets: [
          {
            legs: [
              {
                event_id: id,
                market: 'prop',
                stat: 'player_points',
                player: 'p-tatun',
                line: 27.5,
                outcome: 'over',
              },
            ],
            price: -110,
            stake: 10,
          },
        ],
      }),
    });
    expect(graded.status).toBe(200);
    const leg = GradeResponseSchema.parse(await graded.json()).results[0]!.legs[0]!;
    expect(leg).toMatchObject({ status: 'unknown_player', near_players: [tatum] });
    expect(answer.json.near_players).toEqual(leg.near_players);
  });

  it('a name a few letters off, or of the same surname, or nobody close: the words and the list say so', async () => {
    const misspelt = await sgp({
      event_id: id,
      legs: [spread, { market: prop('Jayson%20Tatem'), outcome: 'over' }],
    });
    expect(misspelt.status).toBe(422);
    expect(misspelt.json).toMatchObject({
      legs: [1],
      near_players: [{ id: 'p-tatum', name: 'Jayson Tatum' }],
      detail:
        'Leg 2: No player named “Jayson Tatem” in this event’s props; did you mean Jayson Tatum (p-tatum)?',
    });
    const surname = await sgp({
      event_id: id,
      legs: [{ market: prop('Marcus Tatum'), outcome: 'over' }, total],
    });
    expect(surname.json).toMatchObject({
      legs: [0],
      near_players: [{ id: 'p-tatum', name: 'Jayson Tatum' }],
    });
    // Jaylen Brown is on the roster but has no props: not one to send.
    const nobody = await sgp({
      event_id: id,
      legs: [spread, { market: prop('Jaylen Brown'), outcome: 'over' }],
    });
    expect(nobody.json).toMatchObject({
      type: 'https://sharpline.io/problems/sgp-unknown-player',
      near_players: [],
      detail:
        'Leg 2: No player named “Jaylen Brown” in this event’s props; check the spelling, or send the player’s id.',
    });
  });

  it('two players answering to the name: 422 with both, to send one’s id', async () => {
    const key = `${twins}|prop|player_points|full|marcus%20hale|27.5`;
    const answer = await sgp({ event_id: twins, legs: [spread, { market: key, outcome: 'over' }] });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({
      type: 'https://sharpline.io/problems/sgp-unknown-player',
      legs: [1],
      detail:
        'Leg 2: 2 players of this event are named “marcus hale”: send the player’s id (Marcus Hale (p-hale), Marcus Hale Jr. (p-hale-jr)).',
    });
    expect(answer.json.near_players).toHaveLength(2);
  });

  it('a name that finds one player prices his market, keyed by his id; a known player at a line not offered is still sgp-invalid-leg', async () => {
    const byName = await sgp({
      event_id: id,
      legs: [spread, { market: prop('jayson tatum'), outcome: 'over' }],
    });
    expect(byName.status, JSON.stringify(byName.json)).toBe(200);
    const body = SgpResponseSchema.parse(byName.json);
    expect(body.legs[1]!.market).toBe(prop('p-tatum'));
    expect(body.legs[1]!.name).toBe('Jayson Tatum Points Over 27.5');
    const byId = SgpResponseSchema.parse(
      (await sgp({ event_id: id, legs: [spread, { market: prop('p-tatum'), outcome: 'over' }] })).json,
    );
    expect(body.fair.probability).toBe(byId.fair.probability);
    const line = await sgp({
      event_id: id,
      legs: [spread, { market: prop('p-tatum', 30.5), outcome: 'over' }],
    });
    expect(line.status).toBe(422);
    expect(line.json.type).toBe('https://sharpline.io/problems/sgp-invalid-leg');
    expect(line.json).not.toHaveProperty('near_players');
  });
});

// Same-game-parlay pricing benchmark (issue 16, decisions 127–129). Writes bench/results/sgp.json.
// 1. The model alone, in this process: jointProbability calls per second for 2, 4 and 8 legs of one NBA event with a
//    cached calibration (the legs as the route builds them: margin, total and player stats).
// 2. POST /v1/sgp on the real server (`node src/server/server.ts`): autocannon on loopback, 2, 4 and 8 legs of one
//    event, requests/s and p50/p99, every answer a priced 200 (each spends a credit: one database statement), and
//    GET /v1/leagues (authentication and quota only) in the same run as the floor every /v1 request pays. Requests
//    rotate over Enterprise keys so that none reaches its 2,000 a minute. The server is one Node process: its
//    JavaScript, the pricing and the embedded database run on one core; autocannon runs on the other. Three servers:
//    - `simulator`: `npm start`'s source (~5,000 price updates a second ingested, scanned and recorded on the same
//      thread), the embedded database;
//    - `replay`: one NBA event replayed from a file (the thread does nothing but answer), the embedded database;
//    - `replay-postgres`: the same with PostgreSQL (BENCH_DATABASE_URL, default CI's local one).
//    - `replay-nfl`: one NFL event replayed from a file with whole lines on the game and its first half (spread −3,
//      total 44, first-half −1, first-half total 21), the embedded database, 4 legs: the part's four variables with
//      four whole lines, 16 quasi-Monte Carlo rectangles when integrated (decisions 296 and 307).
// 1 also prices NFL 4-leg parlays with whole lines on the game and its first half: the same legs asked again, and a
// new price of the game's spread at every call (never asked before: nothing of the answer is cached, the part's
// distributions and tilts are).
// The aim: ≥ 2,000 priced requests/s for 4 legs.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { calibrateSgp, jointProbability, type SgpModelLeg } from '#domain/sgp.ts';
import type { PropStatKey } from '#domain/props.ts';
import { fixtureBuild, startServer, type RunningServer } from './lib/server.ts';

const PORT = Number(process.env.BENCH_SGP_PORT ?? 4460);
const SECONDS = Number(process.env.BENCH_SGP_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_SGP_CONNECTIONS ?? 16);
// Enough that no key reaches its 2,000 a minute: GET /v1/leagues alone answers ~10,000 a second.
const KEYS = 300;
const LEG_COUNTS = [2, 4, 8] as const;

function modelLegs(count: number): SgpModelLeg[] {
  const player = (playerId: string, team: 'home' | 'away', stat: PropStatKey, line: number): SgpModelLeg => ({
    variable: { kind: 'player', playerId, team, stat, period: 'full' },
    side: 'high',
    line,
    probability: 0.5,
  });
  const all: SgpModelLeg[] = [
    { variable: { kind: 'margin', period: 'full' }, side: 'high', line: 4.5, probability: 0.52 },
    { variable: { kind: 'total', period: 'full' }, side: 'high', line: 221.5, probability: 0.5 },
    player('a', 'home', 'player_points', 27.5),
    player('b', 'away', 'player_points', 24.5),
    player('a', 'home', 'player_rebounds', 7.5),
    player('c', 'home', 'player_assists', 6.5),
    { variable: { kind: 'margin', period: 'h1' }, side: 'high', line: 2.5, probability: 0.5 },
    player('b', 'away', 'player_threes', 2.5),
  ];
  return all.slice(0, count);
}

interface ModelFigure {
  callsPerSecond: number;
  microsPerCall: number;
  /** CPU time of this process per call (user + system): less moved by other jobs than the wall time. */
  cpuMicrosPerCall: number;
  probability: number;
}

/** Calls `price(i)` for i = 0, 1, … for two seconds after `warm` calls, in batches of `batch`. */
function timed(price: (i: number) => number, warm: number, batch: number): ModelFigure {
  let sink = 0;
  for (let i = 0; i < warm; i += 1) sink += price(i);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let calls = 0;
  while (process.hrtime.bigint() - started < 2_000_000_000n) {
    for (let i = 0; i < batch; i += 1) sink += price(warm + calls + i);
    calls += batch;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  if (!Number.isFinite(sink)) throw new Error('model returned a non-number');
  return {
    callsPerSecond: Math.round(calls / seconds),
    microsPerCall: Number(((seconds / calls) * 1e6).toFixed(1)),
    cpuMicrosPerCall: Number(((used.user + used.system) / calls).toFixed(1)),
    probability: Number(price(0).toPrecision(6)),
  };
}

const nflLeg = (
  kind: 'margin' | 'total',
  period: 'full' | 'h1',
  side: 'high' | 'low',
  line: number,
  probability: number,
): SgpModelLeg => ({ variable: { kind, period }, side, line, probability });

/**
 * NFL 4-leg parlays of the game and its first half, three or four of them on whole lines (the first one's index 0 is
 * the game's spread, whose price the "new price" rows move).
 */
const NFL_CASES: Record<string, SgpModelLeg[]> = {
  // Home −3, over 44, first-half home −1, first-half over 21: four whole lines, 16 rectangles.
  'nfl 4 whole lines': [
    nflLeg('margin', 'full', 'high', 3, 0.55),
    nflLeg('total', 'full', 'high', 44, 0.5),
    nflLeg('margin', 'h1', 'high', 1, 0.55),
    nflLeg('total', 'h1', 'high', 21, 0.5),
  ],
  // Decision 296's: game −7, over 44, first-half −3, first-half under 21.5: three whole lines, 8 rectangles.
  'nfl 3 whole lines (decision 296)': [
    nflLeg('margin', 'full', 'high', 7, 0.45),
    nflLeg('total', 'full', 'high', 44, 0.5),
    nflLeg('margin', 'h1', 'high', 3, 0.5),
    nflLeg('total', 'h1', 'low', 21.5, 0.5),
  ],
};
/** New prices of the game's spread, more than the joints the model keeps: every call is one never asked before. */
const NEW_PRICES = 5_000;

function modelBench() {
  const calibration = calibrateSgp('nba', 0.64);
  const out: Record<string, ModelFigure> = {};
  for (const count of LEG_COUNTS) {
    const legs = modelLegs(count);
    out[`${count} legs`] = timed(() => jointProbability(calibration, legs), 2_000, 200);
  }
  const nfl = calibrateSgp('nfl', 0.66, null, { line: 44.5, over: 0.5 });
  for (const [name, legs] of Object.entries(NFL_CASES)) {
    out[`${name}, asked again`] = timed(() => jointProbability(nfl, legs), 20, 10);
    // The spread's price within ±0.0005 of its own: the same few distribution builds, each call a new answer.
    const moved = (i: number) => {
      const step = (i * 2_011) % NEW_PRICES;
      const spread = { ...legs[0]!, probability: legs[0]!.probability + (step / NEW_PRICES - 0.5) * 1e-3 };
      return jointProbability(nfl, [spread, ...legs.slice(1)]);
    };
    out[`${name}, new spread price each call`] = timed(moved, 40, 5);
  }
  return out;
}

interface OddsBody {
  events: {
    event: { id: string; live: boolean };
    markets: {
      key: string;
      type: string;
      period: string;
      point: number | null;
      stat?: string;
      main?: boolean;
      outcomes: { outcome: string; prices: { book: string }[] }[];
    }[];
  }[];
}

/** A pre-match NBA event of the simulator with main spread and total and enough two-way props, and its legs. */
async function pickLegs(server: RunningServer, key: string) {
  const response = await fetch(`${server.origin}/v1/odds?league=nba&live=false`, {
    headers: { 'x-api-key': key },
  });
  const body = (await response.json()) as OddsBody;
  const twoWay = (market: OddsBody['events'][number]['markets'][number]) =>
    market.outcomes.every((outcome) => outcome.prices.some((price) => price.book === 'fanduel'));
  for (const { event, markets } of body.events) {
    const spread = markets.find((m) => m.type === 'spread' && m.period === 'full' && m.main && twoWay(m));
    const total = markets.find((m) => m.type === 'total' && m.period === 'full' && m.main && twoWay(m));
    const props = markets.filter((m) => m.type === 'prop' && m.main && m.period === 'full' && twoWay(m));
    const players = new Set<string>();
    const distinct = props.filter((m) => {
      const id = `${m.key.split('|')[4]}|${m.stat}`;
      if (players.has(id) || m.stat === 'player_double_double') return false;
      players.add(id);
      return true;
    });
    if (!spread || !total || distinct.length < 6) continue;
    const legs = [
      { market: spread.key, outcome: 'home' },
      { market: total.key, outcome: 'over' },
      ...distinct.slice(0, 6).map((m) => ({ market: m.key, outcome: 'over' })),
    ];
    return { eventId: event.id, legs };
  }
  throw new Error('no simulated NBA event with main lines and six two-way props at FanDuel');
}

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A replay file: one NBA event in two hours, two books quoting the main lines and eight players' points two ways. */
function replayFile(): string {
  const lines: unknown[] = [{ replay: 1, keepalive: true }];
  const players = Array.from({ length: 8 }, (_, index) => ({
    id: `p${index}`,
    name: `Player ${index}`,
    team: index % 2 ? 'away' : 'home',
  }));
  lines.push({
    at: 0,
    kind: 'event',
    sourceEventId: 'bench',
    league: 'nba',
    home: { name: 'Boston Celtics', abbreviation: 'BOS' },
    away: { name: 'Los Angeles Lakers', abbreviation: 'LAL' },
    startsIn: 7_200_000,
    players,
  });
  for (const book of ['fanduel', 'draftkings']) {
    const price = (extra: Record<string, unknown>) =>
      lines.push({ at: 0, kind: 'price', sourceEventId: 'bench', book, ...extra });
    price({ market: 'moneyline', outcome: 'home', american: -180 });
    price({ market: 'moneyline', outcome: 'away', american: 155 });
    price({ market: 'spread', point: -4.5, outcome: 'home', american: -110 });
    price({ market: 'spread', point: 4.5, outcome: 'away', american: -110 });
    price({ market: 'total', point: 221.5, outcome: 'over', american: -110 });
    price({ market: 'total', point: 221.5, outcome: 'under', american: -110 });
    for (const player of players) {
      const prop = {
        market: 'prop',
        stat: 'player_points',
        player: { id: player.id, name: player.name },
        point: 20.5,
      };
      price({ ...prop, outcome: 'over', american: -115 });
      price({ ...prop, outcome: 'under', american: -105 });
    }
  }
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-bench-sgp-replay-')), 'board.jsonl');
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

/**
 * A replay file for the NFL rows: one event in two hours, two books quoting its moneyline and whole lines on the game
 * and the first half (spread −3, total 44, first-half spread −1, first-half total 21).
 */
function nflReplayFile(): string {
  const lines: unknown[] = [{ replay: 1, keepalive: true }];
  lines.push({
    at: 0,
    kind: 'event',
    sourceEventId: 'bench-nfl',
    league: 'nfl',
    home: { name: 'Kansas City Chiefs', abbreviation: 'KC' },
    away: { name: 'Buffalo Bills', abbreviation: 'BUF' },
    startsIn: 7_200_000,
  });
  for (const [book, shade] of [
    ['fanduel', 0],
    ['draftkings', 5],
  ] as const) {
    const price = (extra: Record<string, unknown>) =>
      lines.push({ at: 0, kind: 'price', sourceEventId: 'bench-nfl', book, ...extra });
    price({ market: 'moneyline', outcome: 'home', american: -170 + shade });
    price({ market: 'moneyline', outcome: 'away', american: 145 - shade });
    for (const period of ['full', 'h1'] as const) {
      const [spread, total] = period === 'full' ? [3, 44] : [1, 21];
      price({ market: 'spread', period, point: -spread, outcome: 'home', american: -115 + shade });
      price({ market: 'spread', period, point: spread, outcome: 'away', american: -105 - shade });
      price({ market: 'total', period, point: total, outcome: 'over', american: -108 - shade });
      price({ market: 'total', period, point: total, outcome: 'under', american: -112 + shade });
    }
  }
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sharpline-bench-sgp-nfl-')), 'board.jsonl');
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

/** The NFL event's four legs: home −3, over 44, first-half home −1, first-half over 21. */
async function pickNflLegs(server: RunningServer, key: string) {
  const response = await fetch(`${server.origin}/v1/odds?league=nfl&live=false`, {
    headers: { 'x-api-key': key },
  });
  const body = (await response.json()) as OddsBody;
  const event = body.events[0];
  if (!event) throw new Error('the NFL replay has no event');
  const find = (type: string, period: string) => {
    const market = event.markets.find((m) => m.type === type && m.period === period);
    if (!market) throw new Error(`the NFL replay has no ${period} ${type}`);
    return market.key;
  };
  return {
    eventId: event.event.id,
    legs: [
      { market: find('spread', 'full'), outcome: 'home' },
      { market: find('total', 'full'), outcome: 'over' },
      { market: find('spread', 'h1'), outcome: 'home' },
      { market: find('total', 'h1'), outcome: 'over' },
    ],
  };
}

const SERVERS: Record<string, () => Record<string, string>> = {
  simulator: () => ({ SIM_SEED: '7' }),
  replay: () => ({ ODDS_SOURCE: `replay:${replayFile()}` }),
  'replay-postgres': () => ({
    ODDS_SOURCE: `replay:${replayFile()}`,
    DATABASE_URL,
    DATABASE_SCHEMA: `bench_sgp_${Date.now().toString(36)}`,
  }),
  'replay-nfl': () => ({ ODDS_SOURCE: `replay:${nflReplayFile()}` }),
};

/**
 * The server process's CPU time so far in ms (Linux: /proc/<pid>/stat's user and system ticks), or null elsewhere. Per
 * request it says what one core could answer when other jobs take the machine's time (the requests a second then
 * measure the machine, not the server).
 */
function serverCpuMs(server: RunningServer): number | null {
  try {
    const fields = readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // 100 ticks a second (USER_HZ)
  } catch {
    return null;
  }
}

/** Runs `load`, and adds the server's CPU ms per completed request and what that makes a core's requests a second. */
async function withServerCpu<T extends { requests: { total: number } }>(
  server: RunningServer,
  load: () => Promise<T>,
): Promise<{ result: T; serverCpuMsPerRequest: number | null; requestsPerServerCpuSecond: number | null }> {
  const before = serverCpuMs(server);
  const result = await load();
  const after = serverCpuMs(server);
  if (before === null || after === null || result.requests.total === 0)
    return { result, serverCpuMsPerRequest: null, requestsPerServerCpuSecond: null };
  const perRequest = (after - before) / result.requests.total;
  return {
    result,
    serverCpuMsPerRequest: Number(perRequest.toFixed(3)),
    requestsPerServerCpuSecond: perRequest > 0 ? Math.round(1000 / perRequest) : null,
  };
}

async function floor(server: RunningServer, keys: readonly string[]) {
  let turn = 0;
  const { result, serverCpuMsPerRequest, requestsPerServerCpuSecond } = await withServerCpu(server, () =>
    autocannon({
      url: `${server.origin}/v1/leagues`,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'x-api-key': keys[(turn += 1) % keys.length]! },
          }),
        },
      ],
    }),
  );
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    serverCpuMsPerRequest,
    requestsPerServerCpuSecond,
  };
}

async function http(mode: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sharpline-bench-sgp-'));
  const server = await startServer(PORT, {
    DATA_DIR: dataDir,
    BUILD_DIR: fixtureBuild(),
    ...SERVERS[mode]!(),
  });
  try {
    for (;;) {
      const ready = await fetch(`${server.origin}/readyz`).catch(() => null);
      if (ready?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const token = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const keys: string[] = [];
    for (let index = 0; index < KEYS; index += 1) {
      const created = await fetch(`${server.origin}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'enterprise', email: `bench-sgp+${index}@example.com` }),
      });
      keys.push(((await created.json()) as { key: string }).key);
    }
    const nfl = mode === 'replay-nfl';
    const { eventId, legs } = nfl ? await pickNflLegs(server, keys[0]!) : await pickLegs(server, keys[0]!);
    const out: Record<string, unknown> = { 'GET /v1/leagues': await floor(server, keys) };
    console.log(mode, 'GET /v1/leagues', out['GET /v1/leagues']);
    let turn = 0;
    for (const count of nfl ? [4] : LEG_COUNTS) {
      const body = JSON.stringify({ event_id: eventId, legs: legs.slice(0, count) });
      const check = await fetch(`${server.origin}/v1/sgp`, {
        method: 'POST',
        headers: { 'x-api-key': keys[0]!, 'content-type': 'application/json' },
        body,
      });
      const sample = (await check.json()) as {
        fair?: { probability: number; model: string };
        prices?: unknown[];
      };
      if (check.status !== 200) throw new Error(`${count} legs: ${check.status} ${JSON.stringify(sample)}`);
      const { result, serverCpuMsPerRequest, requestsPerServerCpuSecond } = await withServerCpu(server, () =>
        autocannon({
          url: `${server.origin}/v1/sgp`,
          method: 'POST',
          connections: CONNECTIONS,
          duration: SECONDS,
          headers: { 'content-type': 'application/json' },
          body,
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                headers: { ...request.headers, 'x-api-key': keys[(turn += 1) % keys.length]! },
              }),
            },
          ],
        }),
      );
      out[`${count} legs`] = {
        requestsPerSecond: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        fairProbability: sample.fair?.probability,
        model: sample.fair?.model,
        books: sample.prices?.length,
        serverCpuMsPerRequest,
        requestsPerServerCpuSecond,
      };
      console.log(mode, `POST /v1/sgp ${count} legs`, out[`${count} legs`]);
    }
    return out;
  } finally {
    await server.stop();
  }
}

async function main() {
  const started = new Date().toISOString();
  const load = loadavg().map((value) => value.toFixed(2));
  const model = modelBench();
  console.log('model', model);
  const servers: Record<string, unknown> = {};
  for (const mode of (process.env.BENCH_SGP_SERVERS ?? Object.keys(SERVERS).join(','))
    .split(',')
    .filter(Boolean))
    servers[mode] = await http(mode);
  const result = {
    started,
    loadAverage: load,
    seconds: SECONDS,
    connections: CONNECTIONS,
    model,
    http: servers,
  };
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/sgp.json'), `${JSON.stringify(result, null, 2)}\n`);
}

await main();

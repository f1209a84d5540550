// The engine's outputs on a seeded replay, as one digest (issue 37: a change to the engine's core must leave them
// byte-identical). Run it at two commits and compare the lines:
//   node --import tsx bench/replay-digest.ts            (game lines: 300 events, 600 ticks of 250 ms)
//   REPLAY_PROPS=true REPLAY_EVENTS=120 REPLAY_TICKS=400 node --import tsx bench/replay-digest.ts
// Digested, in order: every published feed body (the bytes the feed, the stream's snapshots and replication carry),
// every positive-EV and middles change (the rows' answers and the removed ids), every price change the store announces
// (what the odds history records), and, every 97 ticks, one market's prices as a reader 30 s delayed sees them.
import { createHash } from 'node:crypto';
import { OddsEngine } from '#engine/engine.ts';
import { MarketSimulator } from '#engine/sources/simulation/market-simulator.ts';
import { evPriceDto } from '#domain/ev-dto.ts';
import { middleDto } from '#domain/middle-dto.ts';

const T0 = Date.UTC(2026, 0, 1);
const PROPS = process.env.REPLAY_PROPS === 'true';
const EVENTS = Number(process.env.REPLAY_EVENTS ?? 300);
const TICKS = Number(process.env.REPLAY_TICKS ?? 600);

let now = T0;
const sim = new MarketSimulator({
  seed: 7,
  startMs: T0,
  events: EVENTS,
  stepMs: 250,
  props: PROPS,
  propsPostedMs: Infinity,
});
const engine = new OddsEngine({
  source: 'replay',
  now: () => now,
  maxArbs: 300,
  values: { ev: true, middles: true },
});
engine.markReady();
const digest = createHash('sha256');
const counts = { snapshots: 0, valueChanges: 0, priceChanges: 0 };
engine.onSnapshot((snapshot) => {
  digest.update(snapshot.body);
  counts.snapshots += 1;
});
engine.onValues((changes) => {
  digest.update(
    JSON.stringify([
      changes.at,
      changes.ev.map(evPriceDto),
      changes.evRemoved.map((row) => row.id),
      changes.middles.map(middleDto),
      changes.middlesRemoved.map((row) => row.id),
    ]),
  );
  counts.valueChanges += 1;
});
engine.store.subscribe((change) => {
  digest.update(JSON.stringify(change));
  counts.priceChanges += 1;
});
for (const message of sim.initial()) engine.ingest(message);
engine.tick();
for (let tick = 0; tick < TICKS; tick += 1) {
  now += 250;
  for (const message of sim.step()) engine.ingest(message);
  engine.tick();
  if (tick % 97 === 0) {
    const market = engine.store.allMarkets().next().value;
    if (market) digest.update(JSON.stringify(engine.store.prices(market.key, now - 30_000)));
  }
}
console.log(
  JSON.stringify({ ...counts, dropped: engine.stats().dropped, props: PROPS, digest: digest.digest('hex') }),
);

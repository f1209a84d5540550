import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publishedEvPct } from '#domain/ev.ts';
import { roundTo } from '#domain/odds.ts';
import { seededRandom } from '#domain/random.ts';
import { OddsEngine } from '../engine.ts';
import { DEFAULT_SCAN_OPTIONS } from '../scanner.ts';
import { MarketSimulator } from '../sources/simulation/market-simulator.ts';
import { referenceEv, referenceGameMiddles, referencePropMiddles } from '#tests/support/value-judges.ts';
import type { DevigMethod } from '#domain/devig.ts';
import { EV_MIN_BOOKS } from '#domain/ev.ts';
import type { FairReference } from '#domain/history.ts';
import { MIDDLE_MIN_BOOKS } from '#domain/middles.ts';
import type { OddsStore } from '../store.ts';
import { judgeEv, type EvRow } from './ev.ts';
import { beginViews, gameMemo, judgementMemo, pricesAt } from './memos.ts';
import { eventPropMiddles, gameMiddles, middleMarkets, type MiddleQuote, type MiddleRow } from './middles.ts';
import type { ValueChanges } from './scanner.ts';

// The engine's incremental positive-EV and middles sets (decision 170) against a full recomputation: on a simulated
// run (the market simulator's game lines: spreads and totals at several lines, live games, games ending, books
// suspending; a third of the prices dropped so that one side often moves alone), with ticks that sometimes skip ahead so that used prices turn stale without any new price, every
// tick's sets must equal judging every market and every game of the store again at that instant; and a client that
// applies each tick's changes (add or replace by id, remove by id) must hold exactly the sets.

const T0 = Date.UTC(2026, 10, 22, 18);

/**
 * What a row says (everything its answer shows is derived from these), without its age and book time: a kept row's
 * age was counted when it was judged, and a re-quote at the same odds (a newer book time) does not judge its market
 * again.
 */
function evView(row: EvRow) {
  return {
    id: row.id,
    event: row.event,
    market: row.market.key,
    outcome: row.outcomeIndex,
    book: row.book,
    american: row.american,
    decimal: row.decimal,
    links: [row.desktop, row.mobile],
    fair: [row.fairProbability, row.fairBooks, row.fairSource],
    evPct: publishedEvPct(row.decimal, row.fairProbability),
  };
}

function middleView(row: MiddleRow) {
  const side = (quote: MiddleQuote) => ({
    market: quote.market.key,
    outcome: quote.outcome,
    line: quote.line,
    book: quote.book,
    american: quote.american,
    decimal: quote.decimal,
    links: [quote.desktop, quote.mobile],
  });
  return {
    id: row.id,
    event: row.event,
    variable: row.variable,
    high: side(row.high),
    low: side(row.low),
    chances: row.published,
    evPct: row.publishedEvPct,
    centre: roundTo(row.centre, 2),
    model: row.propModel,
    source: row.source,
  };
}

function byId<R>(rows: Iterable<R>, id: (row: R) => string, view: (row: R) => unknown) {
  const out = new Map<string, unknown>();
  for (const row of rows) out.set(id(row), view(row));
  return out;
}

function sorted(map: Map<string, unknown>) {
  return [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * De-vig methods and references a request may choose (decision 206): undefined is the default; the default named
 * (Shin's for EV, multiplicative for middles, on the consensus) names its source; the sharp books (circa is one, and
 * often absent), one book's own prices (often missing a side), a book the store does not carry.
 */
const CHOICES: ({ method: DevigMethod; reference: FairReference } | undefined)[] = [
  undefined,
  { method: 'shin', reference: 'consensus' },
  { method: 'multiplicative', reference: 'consensus' },
  { method: 'power', reference: 'sharp' },
  { method: 'additive', reference: 'consensus' },
  { method: 'shin', reference: 'fanduel' },
  { method: 'multiplicative', reference: 'circa' },
  { method: 'additive', reference: 'nobook' },
];

/**
 * The store judged at `horizon` (each price as it was then) by `choice`, by the app's judges as the boards call them
 * (src/server/ev/board.ts, src/server/middles/board.ts: a view of the prices at the horizon, memos of the judgement's
 * own) and by the reference model, as the views the tests compare.
 */
function judgedAt(store: OddsStore, horizon: number, choice: (typeof CHOICES)[number]) {
  const app = { ev: [] as EvRow[], middles: [] as MiddleRow[] };
  const model = { ev: [] as EvRow[], middles: [] as MiddleRow[] };
  const viewAt = (market: Parameters<typeof pricesAt>[1]) => pricesAt(store, market, horizon);
  for (const event of store.events()) {
    const state = store.eventState(event.id)!;
    const markets = [...state.markets.values()];
    for (const market of markets) {
      beginViews();
      app.ev.push(
        ...judgeEv(
          market,
          viewAt(market),
          horizon,
          DEFAULT_SCAN_OPTIONS,
          judgementMemo(market, false),
          EV_MIN_BOOKS,
          choice,
        ),
      );
      model.ev.push(
        ...referenceEv(store, event, market, horizon, horizon, DEFAULT_SCAN_OPTIONS, EV_MIN_BOOKS, choice)
          .rows,
      );
    }
    beginViews();
    app.middles.push(
      ...gameMiddles(
        event,
        gameMemo(state),
        (market) => judgementMemo(market, true),
        horizon,
        DEFAULT_SCAN_OPTIONS,
        MIDDLE_MIN_BOOKS,
        choice,
        viewAt,
      ),
    );
    beginViews();
    app.middles.push(
      ...eventPropMiddles(event, markets, viewAt, horizon, DEFAULT_SCAN_OPTIONS, MIDDLE_MIN_BOOKS, choice),
    );
    model.middles.push(
      ...referenceGameMiddles(
        store,
        event,
        middleMarkets(state),
        horizon,
        horizon,
        DEFAULT_SCAN_OPTIONS,
        MIDDLE_MIN_BOOKS,
        choice,
      ),
      ...referencePropMiddles(
        store,
        event,
        markets,
        horizon,
        horizon,
        DEFAULT_SCAN_OPTIONS,
        MIDDLE_MIN_BOOKS,
        choice,
      ),
    );
  }
  const views = (side: typeof app) => ({
    ev: sorted(byId(side.ev, (row) => row.id, evView)),
    middles: sorted(byId(side.middles, (row) => row.id, middleView)),
  });
  return {
    app: views(app),
    model: views(model),
    counts: { ev: model.ev.length, middles: model.middles.length },
  };
}

describe('ValueScanner', () => {
  it.each([
    [1, false],
    [2, false],
    [3, false],
    [4, true],
  ])(
    'keeps the positive-EV and middles sets equal to a full recomputation at every scan (seed %i, player props %s)',
    (seed, props) => {
      const random = seededRandom(seed);
      let now = T0;
      const engine = new OddsEngine({
        source: 'replay',
        now: () => now,
        values: { ev: true, middles: true },
      });
      const simulator = new MarketSimulator({
        seed,
        startMs: T0,
        events: props ? 12 : 24,
        stepMs: 250,
        props,
        propsPostedMs: Infinity,
      });
      // The client's view, built from the changes alone.
      const clientEv = new Map<string, unknown>();
      const clientMiddles = new Map<string, unknown>();
      let changesSeen = 0;
      engine.onValues((changes: ValueChanges) => {
        changesSeen += 1;
        for (const row of changes.ev) clientEv.set(row.id, evView(row));
        for (const row of changes.evRemoved) clientEv.delete(row.id);
        for (const row of changes.middles) clientMiddles.set(row.id, middleView(row));
        for (const row of changes.middlesRemoved) clientMiddles.delete(row.id);
      });
      for (const message of simulator.initial()) engine.ingest(message);
      engine.markReady();
      engine.tick();
      let sawEv = 0;
      let sawMiddles = 0;
      let sawPropMiddles = 0;
      let scans = 0;
      const atHorizons = { ev: 0, middles: 0 };
      for (let step = 0; step < 300; step += 1) {
        // Now and then the clock skips ahead with no new price: used prices turn stale on their own.
        const skip = random() < 0.1 ? 5_000 + Math.floor(random() * 60_000) : 0;
        now += 250 + skip;
        // A third of the prices are lost on the way, so that one side of a market often moves alone.
        for (const message of simulator.step())
          if (message.kind !== 'price' || random() > 0.3) engine.ingest(message);
        engine.tick();
        // The scan runs on the first tick of each second (decision 170): the sets are judged at that tick's instant.
        const values = engine.values!;
        if (values.scannedAt !== now) continue;
        scans += 1;
        const store = engine.store;
        const expectedEv: EvRow[] = [];
        for (const market of store.allMarkets()) {
          const event = store.event(market.eventId)!;
          expectedEv.push(...referenceEv(store, event, market, undefined, now, DEFAULT_SCAN_OPTIONS).rows);
        }
        const expectedMiddles: MiddleRow[] = [];
        for (const event of store.events()) {
          const state = store.eventState(event.id)!;
          expectedMiddles.push(
            ...referenceGameMiddles(store, event, middleMarkets(state), undefined, now, DEFAULT_SCAN_OPTIONS),
            ...referencePropMiddles(
              store,
              event,
              [...state.markets.values()],
              undefined,
              now,
              DEFAULT_SCAN_OPTIONS,
            ),
          );
        }
        const ev = sorted(byId(values.ev.values(), (row) => row.id, evView));
        const middles = sorted(byId(values.middles.values(), (row) => row.id, middleView));
        expect(ev).toEqual(sorted(byId(expectedEv, (row) => row.id, evView)));
        expect(middles).toEqual(sorted(byId(expectedMiddles, (row) => row.id, middleView)));
        // The changes told a client everything.
        expect(sorted(clientEv)).toEqual(ev);
        expect(sorted(clientMiddles)).toEqual(middles);
        // Every fifth scan, the store judged at an earlier horizon by a choice, as a board judges it (decision 281):
        // the app's judges find what the reference model finds.
        if (scans % 5 === 0) {
          const horizon = now - Math.floor(random() * 90_000);
          const choice = CHOICES[Math.floor(random() * CHOICES.length)];
          const { app, model, counts } = judgedAt(store, horizon, choice);
          expect(app).toEqual(model);
          atHorizons.ev += counts.ev;
          atHorizons.middles += counts.middles;
        }
        sawEv = Math.max(sawEv, values.ev.size);
        sawMiddles = Math.max(sawMiddles, values.middles.size);
        sawPropMiddles = Math.max(
          sawPropMiddles,
          expectedMiddles.filter((row) => row.type === 'prop').length,
        );
      }
      // The run does hold positive-EV prices and middles, and changes them.
      expect(sawEv).toBeGreaterThan(5);
      expect(sawMiddles).toBeGreaterThan(5);
      // With props on, player-prop middles are among them.
      if (props) expect(sawPropMiddles).toBeGreaterThan(5);
      else expect(sawPropMiddles).toBe(0);
      expect(changesSeen).toBeGreaterThan(50);
      // The horizons' judgements had rows to compare.
      expect(atHorizons.ev).toBeGreaterThan(20);
      expect(atHorizons.middles).toBeGreaterThan(20);
      // Judged once a second: about every fourth tick, and after every skip.
      expect(scans).toBeGreaterThan(70);
      expect(scans).toBeLessThan(150);
    },
  );

  it('gives a delayed reader the sets as they stood at its horizon, at most a step early', () => {
    let now = T0;
    const engine = new OddsEngine({ source: 'replay', now: () => now, values: { ev: true, middles: true } });
    const simulator = new MarketSimulator({ seed: 7, startMs: T0, events: 12, stepMs: 250, props: false });
    for (const message of simulator.initial()) engine.ingest(message);
    engine.markReady();
    engine.tick();
    const seen: { at: number; ev: string[] }[] = [];
    for (let step = 0; step < 240; step += 1) {
      now += 250;
      for (const message of simulator.step()) engine.ingest(message);
      engine.tick();
      seen.push({ at: now, ev: [...engine.values!.ev.keys()].sort() });
    }
    for (const horizon of [T0 + 10_000, T0 + 30_100, T0 + 45_600]) {
      const sets = engine.valuesAt(horizon)!;
      expect(sets.at).toBeLessThanOrEqual(horizon);
      expect(sets.at).toBeGreaterThan(horizon - 1_250);
      const exact = seen.filter((s) => s.at <= sets.at).at(-1)!;
      expect(sets.ev.map((row) => row.id).sort()).toEqual(exact.ev);
    }
  });
});

// The scan's judges (`judgeEv`, `gameMiddles`) against the reference model (tests/support/value-judges.ts), on random
// boards rather than the simulator's: few books, so a market often sits at the minimum of three; equal prices at
// several books; two- and three-way markets; spreads and totals at lines that do and do not middle; suspensions,
// prices of any age, games going live and back, the clock jumping. The scan runs at every instant the clock moved to
// (`periodMs` 1, each check a millisecond later), and every scan's sets must equal judging the whole store again; and
// now and then the whole store is judged at an earlier horizon (each price's version then) by a de-vig method and
// reference (`CHOICES`), as the boards judge a non-default choice (decision 281), and must equal the model's judgement.
const BOOKS = ['fanduel', 'draftkings', 'betmgm', 'caesars', 'circa'] as const;
const FIXTURES = [
  { sourceEventId: 'r-nfl', league: 'nfl', home: 'Kansas City Chiefs', away: 'Buffalo Bills' },
  { sourceEventId: 'r-epl', league: 'epl', home: 'Arsenal', away: 'Chelsea' },
] as const;
const MARKETS = [
  { market: 'moneyline', outcomes: ['home', 'away'], points: [null] },
  { market: '1x2', outcomes: ['home', 'draw', 'away'], points: [null] },
  { market: 'spread', outcomes: ['home', 'away'], points: [-3, -3.5] },
  { market: 'total', outcomes: ['over', 'under'], points: [44.5, 47.5] },
] as const;
const randomOps = fc.array(
  fc.oneof(
    {
      weight: 14,
      arbitrary: fc.record({
        op: fc.constant('price' as const),
        fixture: fc.integer({ min: 0, max: FIXTURES.length - 1 }),
        market: fc.integer({ min: 0, max: MARKETS.length - 1 }),
        point: fc.integer({ min: 0, max: 3 }),
        outcome: fc.integer({ min: 0, max: 2 }),
        book: fc.constantFrom(...BOOKS),
        american: fc.oneof(
          fc.constantFrom(-110, -105, 100, 105),
          fc.integer({ min: 100, max: 600 }),
          fc.integer({ min: -600, max: -100 }),
        ),
        suspended: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, fc.constant(true)),
        age: fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 0, max: 5_000 }) },
          fc.integer({ min: 0, max: 90_000 }),
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 5_000 }) }),
    },
    fc.record({
      op: fc.constant('live' as const),
      fixture: fc.integer({ min: 0, max: FIXTURES.length - 1 }),
      live: fc.boolean(),
    }),
    { weight: 4, arbitrary: fc.constant({ op: 'tick' as const }) },
    fc.record({
      op: fc.constant('judge' as const),
      back: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 120_000 })),
      choice: fc.integer({ min: 0, max: CHOICES.length - 1 }),
    }),
  ),
  { minLength: 50, maxLength: 400, size: 'max' },
);

describe('the judges against the reference model', () => {
  it('hold the same positive-EV prices and middles as judging the whole store again, on random boards, at any horizon and choice', () => {
    let compared = { ev: 0, middles: 0 };
    let atHorizons = { ev: 0, middles: 0 };
    fc.assert(
      fc.property(randomOps, (ops) => {
        let now = T0;
        const engine = new OddsEngine({
          source: 'replay',
          now: () => now,
          values: { ev: true, middles: true, periodMs: 1 },
        });
        engine.markReady();
        const live = FIXTURES.map(() => false);
        const send = (index: number) => {
          const fixture = FIXTURES[index]!;
          engine.ingest({
            kind: 'event',
            sourceEventId: fixture.sourceEventId,
            league: fixture.league,
            home: { name: fixture.home },
            away: { name: fixture.away },
            startsAt: T0 + 3_600_000,
            live: live[index]!,
          });
        };
        FIXTURES.forEach((_, index) => send(index));
        // Each check moves the clock on by a millisecond: a scan runs at most once an instant.
        const check = () => {
          now += 1;
          engine.tick();
          const values = engine.values!;
          expect(values.scannedAt).toBe(now);
          const store = engine.store;
          const expectedEv: EvRow[] = [];
          const expectedMiddles: MiddleRow[] = [];
          for (const event of store.events()) {
            const state = store.eventState(event.id)!;
            for (const market of state.markets.values())
              expectedEv.push(
                ...referenceEv(store, event, market, undefined, now, DEFAULT_SCAN_OPTIONS).rows,
              );
            expectedMiddles.push(
              ...referenceGameMiddles(
                store,
                event,
                middleMarkets(state),
                undefined,
                now,
                DEFAULT_SCAN_OPTIONS,
              ),
            );
          }
          expect(sorted(byId(values.ev.values(), (row) => row.id, evView))).toEqual(
            sorted(byId(expectedEv, (row) => row.id, evView)),
          );
          expect(sorted(byId(values.middles.values(), (row) => row.id, middleView))).toEqual(
            sorted(byId(expectedMiddles, (row) => row.id, middleView)),
          );
          compared = {
            ev: compared.ev + expectedEv.length,
            middles: compared.middles + expectedMiddles.length,
          };
        };
        for (const op of ops) {
          if (op.op === 'advance') now += op.ms;
          else if (op.op === 'tick') check();
          else if (op.op === 'judge') {
            // The store judged at a horizon (each price's version then) by a choice, as the boards do.
            const { app, model, counts } = judgedAt(engine.store, now - op.back, CHOICES[op.choice]);
            expect(app).toEqual(model);
            atHorizons = { ev: atHorizons.ev + counts.ev, middles: atHorizons.middles + counts.middles };
          } else if (op.op === 'live') {
            live[op.fixture] = op.live;
            send(op.fixture);
          } else {
            const market = MARKETS[op.market]!;
            const point = market.points[op.point % market.points.length]!;
            const outcome = market.outcomes[op.outcome % market.outcomes.length]!;
            engine.ingest({
              kind: 'price',
              sourceEventId: FIXTURES[op.fixture]!.sourceEventId,
              book: op.book,
              market: market.market,
              outcome,
              point:
                point === null
                  ? undefined
                  : market.market === 'spread' && outcome === 'away'
                    ? -point
                    : point,
              american: op.american,
              suspended: op.suspended,
              updatedAt: now - op.age,
            });
          }
        }
        check();
      }),
      { numRuns: 100, seed: 58 },
    );
    // The boards did hold positive-EV prices and middles to compare.
    expect(compared.ev).toBeGreaterThan(1_000);
    expect(compared.middles).toBeGreaterThan(500);
    expect(atHorizons.ev).toBeGreaterThan(200);
    expect(atHorizons.middles).toBeGreaterThan(100);
  });
});

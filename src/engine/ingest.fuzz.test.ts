import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { OddsEngine } from './engine.ts';
import type { DropReason } from './messages.ts';

// Ingestion is untrusted input: every bad input is counted under its reason, skipped, and the engine keeps running
// with its last good snapshot.

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);

function goodEngine() {
  let now = T0;
  const engine = new OddsEngine({ source: 'the-odds-api', now: () => now });
  engine.markReady();
  engine.ingest({
    kind: 'event',
    sourceEventId: 'e1',
    league: 'nba',
    home: { name: 'Los Angeles Lakers', abbreviation: 'LAL' },
    away: { name: 'Boston Celtics', abbreviation: 'BOS' },
    startsAt: T0 + 3_600_000,
  });
  engine.ingest({
    kind: 'price',
    sourceEventId: 'e1',
    book: 'fanduel',
    market: 'moneyline',
    outcome: 'away',
    american: 150,
    links: { desktop: 'https://az.sportsbook.fanduel.com/addToBetslip?marketId=1&selectionId=2' },
  });
  engine.ingest({
    kind: 'price',
    sourceEventId: 'e1',
    book: 'draftkings',
    market: 'moneyline',
    outcome: 'home',
    american: -130,
  });
  const good = engine.tick()!;
  return { engine, good, advance: (ms: number) => (now += ms) };
}

const base = { kind: 'price', sourceEventId: 'e1', book: 'betmgm', market: 'moneyline', outcome: 'home' };
const link = (desktop: string | null, mobile: string | null = null) => ({
  ...base,
  american: -105,
  links: { desktop, mobile },
});

const BAD: { name: string; input: unknown; reason: DropReason; priceKept?: boolean }[] = [
  { name: 'NaN decimal odds', input: { ...base, decimal: Number.NaN }, reason: 'invalid_odds' },
  {
    name: 'infinite decimal odds',
    input: { ...base, decimal: Number.POSITIVE_INFINITY },
    reason: 'invalid_odds',
  },
  { name: 'zero decimal odds', input: { ...base, decimal: 0 }, reason: 'invalid_odds' },
  { name: 'negative decimal odds', input: { ...base, decimal: -2.5 }, reason: 'invalid_odds' },
  { name: 'decimal odds of exactly 1', input: { ...base, decimal: 1 }, reason: 'invalid_odds' },
  { name: 'NaN American odds', input: { ...base, american: Number.NaN }, reason: 'invalid_odds' },
  {
    name: 'infinite American odds',
    input: { ...base, american: Number.NEGATIVE_INFINITY },
    reason: 'invalid_odds',
  },
  { name: 'zero American odds', input: { ...base, american: 0 }, reason: 'invalid_odds' },
  { name: 'American odds +50', input: { ...base, american: 50 }, reason: 'american_out_of_range' },
  { name: 'American odds -99', input: { ...base, american: -99 }, reason: 'american_out_of_range' },
  {
    name: 'American odds text "+99.5"',
    input: { ...base, american: '+99.5' },
    reason: 'american_out_of_range',
  },
  { name: 'American odds text "abc"', input: { ...base, american: 'abc' }, reason: 'invalid_odds' },
  {
    name: 'an event without teams',
    input: { kind: 'event', sourceEventId: 'e2', league: 'nba', startsAt: T0 },
    reason: 'missing_teams',
  },
  {
    name: 'an event with an empty team name',
    input: {
      kind: 'event',
      sourceEventId: 'e2',
      league: 'nba',
      home: { name: ' ' },
      away: { name: 'X' },
      startsAt: T0,
    },
    reason: 'missing_teams',
  },
  {
    name: 'an event with the same team twice',
    input: {
      kind: 'event',
      sourceEventId: 'e2',
      league: 'nba',
      home: { name: 'A' },
      away: { name: 'a' },
      startsAt: T0,
    },
    reason: 'missing_teams',
  },
  {
    name: 'an unknown market',
    input: { ...base, market: 'player_points', american: 120 },
    reason: 'unknown_market',
  },
  { name: 'an unknown period', input: { ...base, period: 'q9', american: 120 }, reason: 'unknown_market' },
  {
    name: 'an outcome the market lacks',
    input: { ...base, outcome: 'draw', american: 120 },
    reason: 'unknown_market',
  },
  {
    name: 'a spread point that is not a half',
    input: { ...base, market: 'spread', point: 3.3, american: 120 },
    reason: 'unknown_market',
  },
  {
    name: 'a total without a point',
    input: { ...base, market: 'total', outcome: 'over', american: 120 },
    reason: 'unknown_market',
  },
  { name: 'an unknown book', input: { ...base, book: 'shadybook', american: 120 }, reason: 'unknown_book' },
  {
    name: 'a price for an unknown event',
    input: { ...base, sourceEventId: 'nope', american: 120 },
    reason: 'unknown_event',
  },
  {
    name: 'a price from the future',
    input: { ...base, american: 120, updatedAt: T0 + 3_600_000 },
    reason: 'future_timestamp',
  },
  { name: 'a javascript: link', input: link('javascript:alert(1)'), reason: 'bad_link', priceKept: true },
  {
    name: 'a data: link',
    input: link('data:text/html,<script>alert(1)</script>'),
    reason: 'bad_link',
    priceKept: true,
  },
  {
    name: 'an http: link',
    input: link('http://sports.az.betmgm.com/en/sports'),
    reason: 'bad_link',
    priceKept: true,
  },
  {
    name: 'a link to another host',
    input: link('https://betmgm.com.evil.example/x'),
    reason: 'bad_link',
    priceKept: true,
  },
  {
    name: "another book's app scheme",
    input: link(null, 'dksb://sb/addbet/1'),
    reason: 'bad_link',
    priceKept: true,
  },
  {
    name: 'an app scheme as a desktop link',
    input: link('playmgmsportswrp://x'),
    reason: 'bad_link',
    priceKept: true,
  },
  {
    name: 'an unfilled {state} placeholder',
    input: link('https://sports.{state}.betmgm.com/en/sports/events/1'),
    reason: 'unfilled_placeholder',
    priceKept: true,
  },
  {
    name: 'an unfilled encoded placeholder',
    input: link(null, 'https://sports.az.betmgm.com/x?stake=%7BwagerAmount%7D'),
    reason: 'unfilled_placeholder',
    priceKept: true,
  },
  { name: 'American odds 1e308', input: { ...base, american: 1e308 }, reason: 'odds_out_of_range' },
  {
    name: 'American odds 99999999999',
    input: { ...base, american: 99_999_999_999 },
    reason: 'odds_out_of_range',
  },
  { name: 'decimal odds 1e12', input: { ...base, decimal: 1e12 }, reason: 'odds_out_of_range' },
  {
    name: 'decimal odds 1001.5 (above the range)',
    input: { ...base, decimal: 1001.5 },
    reason: 'odds_out_of_range',
  },
  {
    name: 'decimal odds 1.0005 (below the range)',
    input: { ...base, decimal: 1.0005 },
    reason: 'odds_out_of_range',
  },
  {
    name: 'American odds -200000 (below the range)',
    input: { ...base, american: -200_000 },
    reason: 'odds_out_of_range',
  },
  ...(
    [
      ['unix ms 9e15', 9e15],
      ['unix ms 1 (1970)', 1],
      ['in 401 days', T0 + 401 * 86_400_000],
      ['3 days ago', T0 - 3 * 86_400_000],
      ['the ISO text "+275760-09-13T00:00:00Z"', '+275760-09-13T00:00:00Z'],
    ] as const
  ).map(([when, startsAt]) => ({
    name: `an event starting ${when}`,
    input: {
      kind: 'event',
      sourceEventId: 'e2',
      league: 'nba',
      home: { name: 'Miami Heat' },
      away: { name: 'Utah Jazz' },
      startsAt,
    },
    reason: 'time_out_of_range' as const,
  })),
  {
    name: 'a price updated over 400 days ago',
    input: { ...base, american: 120, updatedAt: T0 - 401 * 86_400_000 },
    reason: 'time_out_of_range',
  },
  { name: 'a message that is not an object', input: 'price', reason: 'malformed' },
  { name: 'a message of unknown kind', input: { kind: 'delete-everything' }, reason: 'malformed' },
];

/**
 * Characters no accepted text may hold (decision 148), written out here rather than taken from the intake: C0, DEL and
 * C1 controls, bidi marks, embeddings, overrides and isolates, line and paragraph separators, lone surrogate halves.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const UNSAFE_CHARS = [
  '\u0000',
  '\u0001',
  '\u0009',
  '\u000a',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ud800',
  '\udfff',
];

/** Text as a hostile source writes it: plain, any code units, or a name with unsafe characters put in. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...UNSAFE_CHARS), fc.string({ maxLength: 8 }))
    .map(([before, unsafe, after]) => `Team ${before}${unsafe}${after}`),
);

/** Every string the engine holds for its fixtures, rosters, markets and links (what /v1, the history and the feed show). */
function storedTexts(engine: OddsEngine): string[] {
  const texts: string[] = [];
  for (const event of engine.store.events()) {
    texts.push(event.id, event.home.id, event.home.name, event.home.abbreviation);
    texts.push(event.away.id, event.away.name, event.away.abbreviation);
    const state = engine.store.eventState(event.id)!;
    for (const { player } of state.players.values()) texts.push(player.id, player.name, player.team);
    for (const market of state.markets.values()) {
      texts.push(market.key);
      if (market.player) texts.push(market.player.id, market.player.name, market.player.team);
      for (let index = 0; index < market.cells; index += 1) {
        const links = market.links[index];
        if (links?.desktop) texts.push(links.desktop);
        if (links?.mobile) texts.push(links.mobile);
      }
    }
  }
  return texts;
}

/** Every string value of a parsed JSON document. */
function jsonTexts(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) jsonTexts(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      jsonTexts(item, into);
    }
  return into;
}

describe('ingestion of bad input', () => {
  for (const bad of BAD) {
    it(`counts and skips ${bad.name}, keeping the last good snapshot`, () => {
      const { engine, good } = goodEngine();
      const before = engine.stats();
      const accepted = engine.ingest(bad.input);
      const after = engine.stats();
      expect(after.drops[bad.reason]).toBe(before.drops[bad.reason] + 1);
      expect(accepted).toBe(bad.priceKept === true);
      const key = engine.store.markets(engine.store.events()[0]!.id)[0]!.key;
      const betmgm = engine.store.prices(key).find((price) => price.book === 'betmgm');
      if (bad.priceKept) {
        // The price is valid on its own: kept, with the refused link removed (the page disables that button).
        expect(betmgm?.links).toEqual({ desktop: null, mobile: null });
      } else {
        expect(betmgm).toBeUndefined();
        expect(engine.store.eventCount).toBe(1);
      }
      engine.tick();
      expect(engine.latest).toBeDefined();
      if (!bad.priceKept) expect(engine.latest!.body.equals(good.body)).toBe(true);
    });
  }

  it('publishes only finite figures within the odds range, and flags every edge above the ceiling', () => {
    const { engine } = goodEngine();
    const odds = fc.oneof(
      fc.record({ american: fc.oneof(fc.double(), fc.integer({ min: -2e6, max: 2e6 }), fc.constant(1e308)) }),
      fc.record({ decimal: fc.oneof(fc.double({ min: 1, max: 2e6 }), fc.double(), fc.constant(1e12)) }),
    );
    const message = fc.tuple(
      fc.constantFrom('fanduel', 'betmgm', 'caesars'),
      fc.constantFrom('home', 'away'),
      odds,
    );
    let published = 0;
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 20 }), (messages) => {
        for (const [book, outcome, price] of messages)
          engine.ingest({ kind: 'price', sourceEventId: 'e1', book, market: 'moneyline', outcome, ...price });
        engine.tick();
        const feed = ArbFeedSchema.parse(JSON.parse(engine.latest!.body.toString('utf8')));
        for (const arb of feed.arbs) {
          published += 1;
          expect(Number.isFinite(arb.edge_pct)).toBe(true);
          expect(arb.suspect).toBe(arb.edge_pct > 10 ? true : undefined);
          for (const side of arb.sides) {
            expect(side.decimal_odds).toBeGreaterThanOrEqual(1.001);
            expect(side.decimal_odds).toBeLessThanOrEqual(1001);
            expect(side.implied_prob).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(published).toBeGreaterThan(100);
    expect(engine.stats().drops.odds_out_of_range).toBeGreaterThan(0);
  });

  it('refuses a payload over the byte cap before parsing it', () => {
    const { engine, good } = goodEngine();
    const huge = `[${'{"kind":"price"},'.repeat(1000)}{}]`;
    expect(engine.ingestPayload(huge, 1024)).toBe(0);
    expect(engine.stats().drops.payload_too_large).toBe(1);
    expect(engine.stats().drops.malformed).toBe(0); // never parsed, so no message was looked at
    engine.tick();
    expect(engine.latest!.body.equals(good.body)).toBe(true);
  });

  it('refuses non-JSON bodies', () => {
    const { engine, good } = goodEngine();
    for (const body of ['<html>502 Bad Gateway</html>', '{"kind":"price",', '', '\u0000\u0001']) {
      expect(engine.ingestPayload(body)).toBe(0);
    }
    expect(engine.stats().drops.not_json).toBe(4);
    engine.tick();
    expect(engine.latest!.body.equals(good.body)).toBe(true);
  });

  it('survives arbitrary junk: never throws, counts every refusal, publishes only valid feeds, holds no unsafe text', () => {
    const { engine } = goodEngine();
    const team = fc.record(
      { name: hostileText, abbreviation: hostileText, id: hostileText },
      { requiredKeys: ['name'] },
    );
    // Fixtures that would hold, but for their text: ids, names, abbreviations, rosters.
    const hostileEvent = fc.record({
      kind: fc.constant('event'),
      sourceEventId: fc.oneof(fc.constantFrom('e1', 'e2'), hostileText),
      league: fc.constantFrom('nba', 'epl'),
      home: team,
      away: team,
      startsAt: fc.constant(T0 + 3_600_000),
      players: fc.array(
        fc.record(
          { id: hostileText, name: hostileText, team: fc.constantFrom('home', 'away') },
          { requiredKeys: ['name', 'team'] },
        ),
        { maxLength: 4 },
      ),
    });
    // Prices that would hold, but for their text: a prop's player, links.
    const hostilePrice = fc.oneof(
      fc.record({
        kind: fc.constant('price'),
        sourceEventId: fc.constantFrom('e1', 'e2'),
        book: fc.constantFrom('fanduel', 'betmgm'),
        market: fc.constant('prop'),
        stat: fc.constant('player_points'),
        point: fc.constant(20.5),
        outcome: fc.constantFrom('over', 'under'),
        american: fc.constant(-110),
        player: fc.record(
          { id: hostileText, name: hostileText, team: hostileText },
          { requiredKeys: ['name'] },
        ),
      }),
      fc.record({
        kind: fc.constant('price'),
        sourceEventId: fc.constantFrom('e1', 'e2'),
        book: fc.constant('fanduel'),
        market: fc.constant('moneyline'),
        outcome: fc.constantFrom('home', 'away'),
        american: fc.constantFrom(-110, 120, 150),
        links: fc.record({
          desktop: hostileText.map(
            (tail) => `https://az.sportsbook.fanduel.com/addToBetslip?marketId=${tail}`,
          ),
        }),
      }),
    );
    const junk = fc.oneof(
      hostileEvent,
      hostilePrice,
      fc.anything(),
      fc.record({
        kind: fc.constantFrom('price', 'event', 'end'),
        sourceEventId: fc.oneof(fc.constant('e1'), fc.string()),
        book: fc.oneof(fc.constantFrom('fanduel', 'betmgm'), fc.string()),
        market: fc.oneof(fc.constantFrom('moneyline', 'spread', 'total', '1x2'), fc.string()),
        outcome: fc.oneof(fc.constantFrom('home', 'away', 'over'), fc.anything()),
        point: fc.oneof(fc.double(), fc.constant(null), fc.anything()),
        american: fc.oneof(fc.double(), fc.integer({ min: -99, max: 99 }), fc.string()),
        decimal: fc.oneof(fc.double(), fc.constant(0)),
        links: fc.anything(),
        updatedAt: fc.oneof(fc.double(), fc.string()),
        league: fc.oneof(fc.constantFrom('nba', 'epl'), fc.string()),
        home: fc.anything(),
        away: fc.anything(),
        startsAt: fc.anything(),
      }),
    );
    fc.assert(
      fc.property(fc.array(junk, { maxLength: 30 }), (messages) => {
        for (const message of messages) {
          const before = engine.stats();
          const accepted = engine.ingest(message);
          const after = engine.stats();
          if (!accepted) expect(after.dropped).toBeGreaterThan(before.dropped);
        }
        engine.tick();
        const json: unknown = JSON.parse(engine.latest!.body.toString('utf8'));
        const feed = ArbFeedSchema.parse(json);
        for (const arb of feed.arbs) {
          expect(new Set(arb.sides.map((side) => side.sportsbook)).size).toBe(arb.sides.length);
        }
        expect(storedTexts(engine).filter((text) => UNSAFE.test(text))).toEqual([]);
        expect(jsonTexts(json).filter((text) => UNSAFE.test(text))).toEqual([]);
      }),
      { numRuns: 200 },
    );
    const stats = engine.stats();
    expect(stats.dropped).toBeGreaterThan(0);
    // The hostile texts were met: some cleaned and kept, some refused.
    expect(stats.drops.text_cleaned).toBeGreaterThan(0);
    expect(stats.drops.control_characters).toBeGreaterThan(0);
    expect(engine.store.eventCount).toBeGreaterThan(1);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toArb } from '#tests/support/arb-feed.ts';
import { marketKey } from '#domain/markets.ts';
import { ArbFeedSchema } from '#domain/schemas/feed.ts';
import { OddsEngine } from './engine.ts';
import { pricesOf } from './store.ts';
import { propPrice } from '#tests/support/props.ts';
import type { PlayerInput, PriceMessage } from './messages.ts';

// Player props through the engine (issue 15, decision 121): rosters from event messages, each prop price's player
// matched against them, prop markets keyed by (event, stat, period, player, line) and scanned like game lines.

const T0 = Date.UTC(2026, 10, 24, 0, 0, 0);

const ROSTER: PlayerInput[] = [
  { id: 'p-lebron', name: 'LeBron James', team: 'home' },
  { id: 'p-davis', name: 'Anthony Davis', team: 'home' },
  { id: 'p-jalen', name: 'Jalen Williams', team: 'away' },
  { id: 'p-jaylin', name: 'Jaylin Williams', team: 'away' },
  { id: 'p-jjj', name: 'Jaren Jackson Jr.', team: 'away' },
  { id: 'p-doncic', name: 'Luka Dončić', team: 'home' },
];

function setup(players: PlayerInput[] = ROSTER) {
  let now = T0;
  const engine = new OddsEngine({ source: 'replay', now: () => now });
  engine.markReady();
  engine.ingest({
    kind: 'event',
    sourceEventId: 'g1',
    league: 'nba',
    home: { name: 'Los Angeles Lakers', abbreviation: 'LAL', id: 'lal' },
    away: { name: 'Oklahoma City Thunder', abbreviation: 'OKC', id: 'okc' },
    startsAt: T0 + 3_600_000,
    players,
  });
  const eventId = engine.store.events()[0]!.id;
  return {
    engine,
    eventId,
    advance(ms: number) {
      now += ms;
    },
    feed() {
      engine.tick();
      return ArbFeedSchema.parse(JSON.parse(engine.latest!.body.toString('utf8')));
    },
  };
}

function prop(
  book: string,
  player: PriceMessage['player'],
  outcome: string,
  american: number,
  extra: Partial<PriceMessage> = {},
): PriceMessage {
  return propPrice('g1', book, player, outcome, american, extra);
}

const lebron = { id: 'p-lebron', name: 'LeBron James' };

describe('player props in the engine', () => {
  it('publishes an over/under arb across two books with a label that names the player, stat and line', () => {
    const { engine, eventId, feed } = setup();
    expect(engine.ingest(prop('fanduel', lebron, 'over', 120))).toBe(true);
    expect(engine.ingest(prop('draftkings', lebron, 'under', 105))).toBe(true);
    const arbs = feed().arbs;
    expect(arbs).toHaveLength(1);
    const arb = arbs[0]!;
    expect(arb.market).toBe('LeBron James Points Over/Under 27.5');
    expect(arb.market_type).toBe('prop');
    expect(arb.sides.map((side) => [side.sportsbook, side.name, side.selection.name]).sort()).toEqual([
      ['draftkings', 'LeBron James Points Under 27.5', 'LeBron James Under'],
      ['fanduel', 'LeBron James Points Over 27.5', 'LeBron James Over'],
    ]);
    const market = engine.store.market(
      marketKey(eventId, {
        type: 'prop',
        stat: 'player_points',
        period: 'full',
        playerId: 'p-lebron',
        point: 27.5,
      }),
    )!;
    expect(market.player).toEqual({ id: 'p-lebron', name: 'LeBron James', team: 'home' });
    // The same arb as the domain builds from the same prices (labels, side ids, edge).
    const { found_at: _found, ...published } = arb;
    expect(published).toEqual(
      toArb(engine.store.event(eventId)!, market.spec, engine.store.prices(market.key), market.player),
    );
  });

  it('never pairs two lines of one stat (a gap is a middle), two stats, two players or two periods', () => {
    const { engine, feed } = setup();
    engine.ingest(prop('fanduel', lebron, 'over', 150, { point: 26.5 }));
    engine.ingest(prop('draftkings', lebron, 'under', 150, { point: 28.5 }));
    engine.ingest(prop('betmgm', lebron, 'over', 150, { stat: 'player_rebounds', point: 7.5 }));
    engine.ingest(prop('caesars', lebron, 'under', 150, { stat: 'player_assists', point: 7.5 }));
    engine.ingest(prop('fanduel', { id: 'p-davis', name: 'Anthony Davis' }, 'over', 150, { point: 24.5 }));
    engine.ingest(
      prop('draftkings', { id: 'p-lebron', name: 'LeBron James' }, 'under', 150, { point: 24.5 }),
    );
    engine.ingest(prop('betmgm', lebron, 'over', 150, { period: 'q1', point: 7.5 }));
    engine.ingest(prop('caesars', lebron, 'under', 150, { point: 7.5 }));
    expect(feed().arbs).toEqual([]);
    expect(engine.stats().dropped).toBe(0);
  });

  it('pairs a yes with a no of the same proposition only', () => {
    const { engine, feed } = setup();
    const dd = { stat: 'player_double_double', point: null };
    engine.ingest(prop('fanduel', lebron, 'yes', 150, dd));
    engine.ingest(prop('draftkings', { id: 'p-davis', name: 'Anthony Davis' }, 'no', 150, dd));
    expect(feed().arbs).toEqual([]);
    engine.ingest(prop('draftkings', lebron, 'no', 105, dd));
    const arbs = feed().arbs;
    expect(arbs).toHaveLength(1);
    expect(arbs[0]!.market).toBe('LeBron James Double-Double');
    expect(arbs[0]!.sides.map((side) => side.name).sort()).toEqual([
      'LeBron James Double-Double — No',
      'LeBron James Double-Double — Yes',
    ]);
  });

  it('matches books that name a player without the id (accents, Jr., case) to one market', () => {
    const { engine, feed } = setup();
    expect(engine.ingest(prop('fanduel', { name: 'Luka Doncic' }, 'over', 120, { point: 31.5 }))).toBe(true);
    expect(
      engine.ingest(prop('draftkings', { name: 'LUKA DONČIĆ', team: 'home' }, 'under', 105, { point: 31.5 })),
    ).toBe(true);
    expect(engine.ingest(prop('betmgm', { name: 'Jaren Jackson' }, 'over', -110, { point: 18.5 }))).toBe(
      true,
    );
    expect(
      engine.ingest(
        prop('caesars', { name: 'Jaren Jackson Jr', team: 'okc' }, 'under', -110, { point: 18.5 }),
      ),
    ).toBe(true);
    const arbs = feed().arbs;
    expect(arbs.map((arb) => arb.market)).toEqual(['Luka Dončić Points Over/Under 31.5']);
    expect(
      engine.store.markets(engine.store.events()[0]!.id).filter((m) => m.spec.type === 'prop'),
    ).toHaveLength(2);
  });

  it('drops and counts a player it cannot be sure of: not on the roster, the other team, or a shared surname', () => {
    const { engine, feed } = setup();
    expect(engine.ingest(prop('fanduel', { name: 'Stephen Curry' }, 'over', 200))).toBe(false);
    expect(engine.ingest(prop('fanduel', { name: 'LeBron James', team: 'away' }, 'over', 200))).toBe(false);
    expect(engine.ingest(prop('fanduel', { name: 'J. Williams' }, 'over', 200))).toBe(false);
    // The two Williamses share a surname: by name neither is matched (could be the other), by id each is.
    expect(engine.ingest(prop('fanduel', { name: 'Jalen Williams' }, 'over', 200))).toBe(false);
    expect(engine.ingest(prop('draftkings', { id: 'p-jaylin', name: 'Jaylin Williams' }, 'under', 200))).toBe(
      true,
    );
    expect(engine.ingest(prop('fanduel', { id: 'p-jalen', name: 'Jalen Williams' }, 'over', 200))).toBe(true);
    const drops = engine.stats().drops;
    expect(drops.unknown_player).toBe(3);
    expect(drops.ambiguous_player).toBe(1);
    // Jalen's over and Jaylin's under are two players' props: no arb, however good the prices.
    expect(feed().arbs).toEqual([]);
  });

  it('remembers each naming with its team, and at most 10,000 namings an event', () => {
    const { engine, eventId } = setup();
    const luka = (team: string | undefined, american: number) =>
      engine.ingest(prop('fanduel', { name: 'Luka Doncic', team }, 'over', american, { point: 31.5 }));
    // The same name with another team is another naming: remembered apart, never given the first one's match.
    expect(luka('home', 120)).toBe(true);
    expect(luka('away', 125)).toBe(false);
    expect(luka('home', 130)).toBe(true);
    expect(luka(undefined, 135)).toBe(true);
    expect(engine.stats().drops.unknown_player).toBe(1);
    const state = engine.store.eventState(eventId)!;
    expect(state.matchCount).toBe(3);
    for (let n = 0; n < 10_010; n += 1)
      engine.ingest(prop('draftkings', { name: `Nobody ${n}`, team: 'home' }, 'over', 110, { point: 1.5 }));
    expect(state.matchCount).toBe(10_000);
    expect([...state.nameMatches.values()].reduce((sum, byTeam) => sum + byTeam.size, 0)).toBe(10_000);
    // Past the bound a naming is matched again each time, with the same answers.
    expect(
      engine.ingest(prop('betmgm', { id: 'p-unknown', name: 'LeBron James', team: 'lal' }, 'over', 110)),
    ).toBe(true);
    expect(engine.ingest(prop('betmgm', { name: 'Nobody 10009', team: 'home' }, 'over', 110))).toBe(false);
    expect(state.matchCount).toBe(10_000);
  });

  it('refuses props the league does not offer, whole lines, and outcomes of the other kind', () => {
    const { engine } = setup();
    const refused: Partial<PriceMessage>[] = [
      { stat: 'player_pass_yds', point: 250.5 }, // an NFL stat in an NBA game
      { point: 27 }, // a whole line could push
      { point: null }, // an over/under prop needs its line
      { period: 'h1' }, // NBA props exist for the game and the first quarter
      { stat: 'player_anytime_td' },
      { stat: 'player_double_double', point: 0.5 },
      { stat: 'not_a_stat' },
    ];
    for (const extra of refused)
      expect(engine.ingest(prop('fanduel', lebron, 'over', 110, extra))).toBe(false);
    expect(engine.ingest(prop('fanduel', lebron, 'yes', 110))).toBe(false);
    expect(engine.stats().drops.unknown_market).toBe(refused.length + 1);
    expect(engine.ingest({ ...prop('fanduel', lebron, 'over', 110), player: undefined })).toBe(false);
    expect(engine.stats().drops.malformed).toBe(1);
  });

  it('keeps the roster across event messages and takes a player announced later', () => {
    const { engine, feed } = setup([{ id: 'p-lebron', name: 'LeBron James', team: 'home' }]);
    const reaves = { name: 'Austin Reaves' };
    expect(engine.ingest(prop('fanduel', reaves, 'over', 120, { point: 15.5 }))).toBe(false);
    engine.ingest({
      kind: 'event',
      sourceEventId: 'g1',
      league: 'nba',
      home: { name: 'Los Angeles Lakers', id: 'lal' },
      away: { name: 'Oklahoma City Thunder', id: 'okc' },
      startsAt: T0 + 3_600_000,
      players: [{ id: 'p-reaves', name: 'Austin Reaves', team: 'lal' }],
    });
    expect(engine.ingest(prop('fanduel', reaves, 'over', 120, { point: 15.5 }))).toBe(true);
    expect(engine.ingest(prop('draftkings', lebron, 'under', 120))).toBe(true);
    expect(engine.ingest(prop('betmgm', lebron, 'over', 120))).toBe(true);
    expect(feed().arbs.map((arb) => arb.market)).toEqual(['LeBron James Points Over/Under 27.5']);
  });

  it('suspends and ages prop prices like game lines', () => {
    const { engine, feed, advance } = setup();
    engine.ingest(prop('fanduel', lebron, 'over', 120));
    engine.ingest(prop('draftkings', lebron, 'under', 105));
    expect(feed().arbs).toHaveLength(1);
    engine.ingest(prop('fanduel', lebron, 'over', 120, { suspended: true }));
    expect(feed().arbs).toHaveLength(0);
    engine.ingest(prop('fanduel', lebron, 'over', 120));
    expect(feed().arbs).toHaveLength(1);
    advance(61_000);
    expect(feed().arbs).toHaveLength(0);
  });

  it('over random prop books, every arb is one player, stat, period and line, from different books', () => {
    const players = ROSTER.map((player) => ({ id: player.id, name: player.name }));
    const quote = fc.record({
      book: fc.constantFrom('fanduel', 'draftkings', 'betmgm', 'caesars'),
      player: fc.constantFrom(...players),
      stat: fc.constantFrom('player_points', 'player_rebounds', 'player_double_double'),
      period: fc.constantFrom('full', 'q1'),
      point: fc.constantFrom(5.5, 6.5, 27.5),
      side: fc.boolean(),
      american: fc.integer({ min: 100, max: 250 }),
    });
    let arbsSeen = 0;
    fc.assert(
      fc.property(fc.array(quote, { minLength: 1, maxLength: 60 }), (quotes) => {
        const { engine, feed } = setup();
        const sent = new Map<
          string,
          { player: string; stat: string; period: string; point: number | null }
        >();
        for (const q of quotes) {
          const yesNo = q.stat === 'player_double_double';
          const message = prop(
            q.book,
            q.player,
            yesNo ? (q.side ? 'yes' : 'no') : q.side ? 'over' : 'under',
            q.american,
            {
              stat: q.stat,
              period: yesNo ? 'full' : q.period,
              point: yesNo ? null : q.point,
            },
          );
          engine.ingest(message);
        }
        for (const market of engine.store.markets(engine.store.events()[0]!.id)) {
          if (market.spec.type !== 'prop') continue;
          for (let outcome = 0; outcome < market.outcomes.length; outcome += 1)
            for (const price of pricesOf(market, outcome))
              sent.set(`${market.key}|${price.outcome}|${price.book}`, {
                player: market.spec.playerId,
                stat: market.spec.stat,
                period: market.spec.period,
                point: market.spec.point,
              });
        }
        const bySide = new Map<string, string>();
        for (const market of engine.store.allMarkets())
          for (let outcome = 0; outcome < market.outcomes.length; outcome += 1)
            for (const price of pricesOf(market, outcome)) {
              const side = toArb(engine.store.event(market.eventId)!, market.spec, [price], market.player)
                .sides[0]!;
              bySide.set(side.id, market.key);
            }
        for (const arb of feed().arbs) {
          arbsSeen += 1;
          const keys = new Set(arb.sides.map((side) => bySide.get(side.id)));
          expect(keys.size).toBe(1);
          expect(new Set(arb.sides.map((side) => side.sportsbook)).size).toBe(arb.sides.length);
          expect(arb.market_type).toBe('prop');
        }
        expect(sent.size).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
    // Not vacuous: random books at these prices make arbs; fast-check's seeds 1–6 give 21–38 over the 150 runs, so
    // a bound of 20 failed now and then; 5 is far below any seed seen and still fails if arbs stop being found.
    expect(arbsSeen).toBeGreaterThan(5);
  });
});

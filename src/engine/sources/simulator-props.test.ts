import { describe, expect, it } from 'vitest';
import { bookSum } from '#domain/arbitrage.ts';
import type { LeagueKey } from '#domain/markets.ts';
import { americanToDecimal, type AmericanOdds } from '#domain/odds.ts';
import { indexRoster, matchPlayer, normalizePlayerName, surnameOf } from '#domain/player-matching.ts';
import { PROP_CATALOGUE, propSpecProblem, type PropStatKey } from '#domain/props.ts';
import type { Arb } from '#domain/schemas/feed.ts';
import { OddsEngine } from '../engine.ts';
import type { EventMessage, PlayerInput, PriceMessage, SourceMessage } from '../messages.ts';
import { MarketSimulator, PROPS_POSTED_MS } from './simulation/market-simulator.ts';
import { DNP_SHARE } from './simulation/prop-simulator.ts';

// Player props of the simulator (decision 122): rosters in the event messages, a few dozen props per fixture, books
// that skip props and name players their own way, live lines that move and get suspended, and prop arbs in the
// engine's feed.

// Sunday 22 November 2026, 12:30 ET: NFL, NBA, NHL and NCAAB games within hours, Premier League games in play.
const T0 = Date.UTC(2026, 10, 22, 17, 30, 0);
const isProp = (m: SourceMessage): m is PriceMessage => m.kind === 'price' && m.market === 'prop';
const events = (messages: SourceMessage[]) => messages.filter((m): m is EventMessage => m.kind === 'event');
const propKey = (m: PriceMessage) =>
  `${m.sourceEventId}|${m.player!.id ?? m.player!.name}|${m.stat}|${m.period}|${m.point}`;

describe('MarketSimulator player props', () => {
  // Props on every fixture from its listing, so the whole board shows what books hang (the default posts them
  // PROPS_POSTED_MS before the start: see the last test).
  const initial = new MarketSimulator({ seed: 3, startMs: T0, propsPostedMs: Infinity }).initial();
  const rosters = new Map(events(initial).map((e) => [e.sourceEventId, e.players ?? []]));
  const leagues = new Map(events(initial).map((e) => [e.sourceEventId, e.league as LeagueKey]));
  const live = new Set(events(initial).flatMap((e) => (e.live ? [e.sourceEventId] : [])));
  const props = initial.filter(isProp);

  it('lists both teams of every fixture in its event message, with stable ids and realistic names', () => {
    const names: string[] = [];
    let sharedSurnameEvents = 0;
    const byId = new Map<string, string>();
    for (const [, players] of rosters) {
      expect(players.length).toBeGreaterThanOrEqual(18);
      expect(players.filter((p) => p.team === 'home').length).toBe(players.length / 2);
      expect(new Set(players.map((p) => p.id)).size).toBe(players.length);
      const surnames = players.map((p) => surnameOf(normalizePlayerName(p.name)));
      if (new Set(surnames).size < surnames.length) sharedSurnameEvents += 1;
      for (const player of players) {
        names.push(player.name);
        // A team's players are the same in each of its fixtures.
        if (byId.has(player.id!)) expect(byId.get(player.id!)).toBe(player.name);
        byId.set(player.id!, player.name);
      }
    }
    expect(rosters.size).toBe(110);
    expect(names.some((name) => /[^\x00-\x7f]/.test(name))).toBe(true);
    expect(names.some((name) => / (Jr\.|II|III)$/.test(name))).toBe(true);
    expect(names.some((name) => /^[A-Z]\.[A-Z]\. /.test(name))).toBe(true);
    expect(names.some((name) => / (Mc|O')[A-Z]/.test(name))).toBe(true);
    // Two players of one fixture share a surname now and then (never within one team).
    expect(sharedSurnameEvents).toBeGreaterThan(0);
    expect(sharedSurnameEvents).toBeLessThan(rosters.size);
  });

  it("hangs a few dozen props per fixture from its league's catalogue, on half-lines, some with alternate lines", () => {
    const perEvent = new Map<string, Set<string>>();
    const linesPerStat = new Map<string, Set<number | null | undefined>>();
    for (const m of props) {
      const roster = rosters.get(m.sourceEventId)!;
      const league = leagues.get(m.sourceEventId)!;
      const player =
        roster.find((p) => p.id === m.player!.id) ?? roster.find((p) => p.name === m.player!.name);
      const spec = {
        type: 'prop' as const,
        stat: m.stat as PropStatKey,
        period: (m.period ?? 'full') as 'full',
        playerId: player?.id ?? '',
        point: m.point ?? null,
      };
      if (!m.player!.id) continue; // name-only books: matched in the engine test below
      expect(player, `${m.player!.name} on the roster`).toBeDefined();
      expect(propSpecProblem(league, spec), JSON.stringify(m)).toBeNull();
      const set = perEvent.get(m.sourceEventId) ?? new Set<string>();
      set.add(propKey(m));
      perEvent.set(m.sourceEventId, set);
      const stat = `${m.sourceEventId}|${m.player!.id}|${m.stat}|${m.period}`;
      const lines = linesPerStat.get(stat) ?? new Set();
      lines.add(m.point);
      linesPerStat.set(stat, lines);
    }
    // Before kick-off every prop is up; in play books keep about half of theirs (and take settled lines down).
    const counts = [...perEvent].flatMap(([id, set]) => (live.has(id) ? [] : [set.size]));
    expect(perEvent.size).toBe(110);
    expect(counts.length).toBeGreaterThan(50);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(15);
    expect(Math.max(...counts)).toBeLessThanOrEqual(100);
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    expect(mean).toBeGreaterThan(24);
    expect(mean).toBeLessThan(70);
    // Every league's whole catalogue appears somewhere on the board (yes/no props included); MLB, out of season on T0
    // (late November, decision 162), on a board of early April.
    for (const league of ['nba', 'ncaab', 'nfl', 'nhl'] as const) {
      const stats = new Set(props.filter((m) => leagues.get(m.sourceEventId) === league).map((m) => m.stat));
      for (const def of PROP_CATALOGUE[league]) expect(stats, `${league} ${def.key}`).toContain(def.key);
    }
    const april = new MarketSimulator({
      seed: 3,
      startMs: Date.UTC(2027, 3, 2),
      propsPostedMs: Infinity,
    }).initial();
    const mlb = new Set(events(april).flatMap((e) => (e.league === 'mlb' ? [e.sourceEventId] : [])));
    const mlbStats = new Set(april.filter(isProp).flatMap((m) => (mlb.has(m.sourceEventId) ? [m.stat] : [])));
    for (const def of PROP_CATALOGUE.mlb) expect(mlbStats, `mlb ${def.key}`).toContain(def.key);
    expect(props.some((m) => m.period === 'q1')).toBe(true);
    // Alternate lines (and books hanging their own number) give some stats more than one line.
    expect([...linesPerStat.values()].filter((lines) => lines.size > 1).length).toBeGreaterThan(100);
  });

  it('has books skip props: each quotes a subset, and two quote none', () => {
    const books = new Set(props.map((m) => m.book));
    expect(books).not.toContain('circa');
    expect(books).not.toContain('hardrock_in');
    expect(books.size).toBe(13);
    const perProp = new Map<string, Set<string>>();
    for (const m of props) {
      if (!m.player!.id) continue;
      const set = perProp.get(propKey(m)) ?? new Set<string>();
      set.add(m.book);
      perProp.set(propKey(m), set);
    }
    const sizes = [...perProp.values()].map((set) => set.size);
    expect(Math.max(...sizes)).toBeLessThan(13);
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(mean).toBeGreaterThan(3);
    expect(mean).toBeLessThan(9);
  });

  it('names players by roster id at most books, and by a spelling the matcher accepts at bodog, fliff and betonline', () => {
    const nameOnly = props.filter((m) => !m.player!.id);
    expect(new Set(nameOnly.map((m) => m.book))).toEqual(new Set(['bodog', 'fliff', 'betonline']));
    expect(nameOnly.length / props.length).toBeGreaterThan(0.05);
    expect(nameOnly.length / props.length).toBeLessThan(0.3);
    let respelt = 0;
    for (const m of nameOnly) {
      const roster = rosters.get(m.sourceEventId)!;
      // Two teams' rosters can share a full name: a book naming its team picks one; fliff's bare name is the
      // ambiguity the engine drops on purpose (the engine test below).
      const same = roster.filter(
        (p) =>
          normalizePlayerName(p.name) === normalizePlayerName(m.player!.name) &&
          (!m.player!.team || p.team === m.player!.team),
      );
      if (!m.player!.team && same.length > 1) continue;
      expect(same, m.player!.name).toHaveLength(1);
      if (same[0]!.name !== m.player!.name) respelt += 1;
      if (m.player!.team) expect(m.player!.team).toBe(same[0]!.team);
    }
    expect(respelt).toBeGreaterThan(0);
  });

  it('prices props with more margin than game lines (about 4–10 % per book)', () => {
    const groups = new Map<string, number[]>();
    for (const m of props) {
      const key = `${m.book}|${propKey(m)}`;
      groups.set(key, [...(groups.get(key) ?? []), americanToDecimal(m.american as AmericanOdds)]);
    }
    const overrounds = [...groups.values()]
      .filter((g) => g.length === 2)
      .map((g) => bookSum(g) - 1)
      .sort((a, b) => a - b);
    expect(overrounds.length).toBeGreaterThan(10_000);
    expect(overrounds[Math.floor(overrounds.length * 0.02)]!).toBeGreaterThan(0.03);
    expect(overrounds[Math.floor(overrounds.length * 0.98)]!).toBeLessThan(0.13);
  });

  it('keeps the update rate in the order of the game lines (a minute of the default board)', () => {
    const sim = new MarketSimulator({ seed: 42, startMs: T0 });
    sim.initial();
    let game = 0;
    let prop = 0;
    for (let step = 0; step < 240; step += 1) {
      for (const m of sim.step()) {
        if (m.kind !== 'price') continue;
        if (m.market === 'prop') prop += 1;
        else game += 1;
      }
    }
    // On the calendar's board (decision 221) props are up on the fixtures within PROPS_POSTED_MS of their start and in
    // play: a fraction of its days of fixtures, whose game lines all move.
    expect(prop).toBeGreaterThan(game * 0.1);
    expect(prop).toBeLessThan(game * 1.5);
  });

  it('moves live lines with the game, suspends props in play (scores, at random) and resumes them', () => {
    // From 13:00 ET, as the NFL's early games, the NBA's and the NHL's kick off.
    const sim = new MarketSimulator({ seed: 11, startMs: T0 + 30 * 60_000, events: 30 });
    const live = new Set<string>();
    const suspendedAt = new Map<string, number>();
    let suspended = 0;
    let resumed = 0;
    const lines = new Map<string, Set<number>>();
    const track = (m: SourceMessage, step: number) => {
      if (m.kind === 'event') {
        if (m.live) live.add(m.sourceEventId);
        return;
      }
      if (!isProp(m) || !live.has(m.sourceEventId)) return;
      const key = `${m.book}|${propKey(m)}|${m.outcome}`;
      if (m.suspended) {
        suspended += 1;
        suspendedAt.set(key, step);
      } else if (suspendedAt.has(key)) {
        resumed += 1;
        suspendedAt.delete(key);
      }
      if (m.player!.id && m.point !== null && m.point !== undefined && !m.suspended) {
        const stat = `${m.book}|${m.sourceEventId}|${m.player!.id}|${m.stat}|${m.period}`;
        const set = lines.get(stat) ?? new Set<number>();
        set.add(m.point);
        lines.set(stat, set);
      }
    };
    for (const m of sim.initial()) track(m, 0);
    for (let step = 1; step <= 2_400; step += 1) for (const m of sim.step()) track(m, step);
    expect(live.size).toBeGreaterThan(5);
    expect(suspended).toBeGreaterThan(500);
    expect(resumed).toBeGreaterThan(200);
    // A live line moves as the player's tally grows: many (book, player, stat) show several lines over ten minutes.
    const moved = [...lines.values()].filter((set) => set.size >= 2).length;
    expect(moved).toBeGreaterThan(50);
  });

  it("posts a fixture's props PROPS_POSTED_MS before its start: its roster first, then its props", () => {
    // 40 fixtures over eight hours (twelve hours of the default board, 110 fixtures, took ~48 s on a loaded machine).
    const sim = new MarketSimulator({ seed: 8, startMs: T0, stepMs: 60_000, events: 40 });
    const rosterAt = new Map<string, number>();
    const firstPropAt = new Map<string, number>();
    const startsAt = new Map<string, number>();
    const seen = (messages: SourceMessage[], at: number) => {
      for (const m of messages) {
        if (m.kind === 'event') {
          startsAt.set(m.sourceEventId, m.startsAt as number);
          if (m.players?.length && !rosterAt.has(m.sourceEventId)) rosterAt.set(m.sourceEventId, at);
        } else if (isProp(m) && !firstPropAt.has(m.sourceEventId)) firstPropAt.set(m.sourceEventId, at);
      }
    };
    seen(sim.initial(), T0);
    const early = [...startsAt]
      .filter(([, start]) => start - T0 > PROPS_POSTED_MS + 60_000)
      .map(([id]) => id);
    expect(early.length).toBeGreaterThan(10);
    for (const id of early) {
      expect(rosterAt.has(id), id).toBe(false);
      expect(firstPropAt.has(id), id).toBe(false);
    }
    for (let step = 1; step <= 8 * 60; step += 1) seen(sim.step(), T0 + step * 60_000);
    let posted = 0;
    for (const id of early) {
      if (!firstPropAt.has(id)) continue;
      posted += 1;
      // Posted within a step of PROPS_POSTED_MS before the start, the roster in the same step, before the props.
      expect(startsAt.get(id)! - rosterAt.get(id)!).toBeLessThanOrEqual(PROPS_POSTED_MS);
      expect(startsAt.get(id)! - rosterAt.get(id)!).toBeGreaterThan(PROPS_POSTED_MS - 60_000);
      expect(firstPropAt.get(id)!).toBeGreaterThanOrEqual(rosterAt.get(id)!);
    }
    expect(posted).toBeGreaterThan(5);
    // Eight simulated hours of 40 fixtures with props, minute by minute.
  }, 120_000);

  it('feeds the engine props it stores and scans, dropping only the ambiguous namings it sends on purpose', () => {
    let now = T0;
    const engine = new OddsEngine({ source: 'simulator', now: () => now });
    const sim = new MarketSimulator({ seed: 42, startMs: T0 });
    const eventRosters = new Map<string, PlayerInput[]>();
    let intended = 0;
    let intendedOutsideFliff = 0;
    const feed = (messages: SourceMessage[]) => {
      for (const m of messages) {
        if (m.kind === 'event') {
          eventRosters.set(m.sourceEventId, m.players ?? []);
        } else if (isProp(m) && !m.player!.id) {
          // What the engine must drop: a name two players of the fixture could be (fliff, on purpose).
          const roster = eventRosters.get(m.sourceEventId)!;
          const players = roster.map((p) => ({ id: String(p.id), name: p.name, team: String(p.team) }));
          const match = matchPlayer(indexRoster({ players }), {
            name: m.player!.name,
            team: m.player!.team ?? null,
          });
          expect(match.status, JSON.stringify(m.player)).not.toBe('unmatched');
          if (match.status === 'ambiguous') {
            intended += 1;
            if (m.book !== 'fliff') intendedOutsideFliff += 1;
          }
        }
        engine.ingest(m);
      }
    };
    feed(sim.initial());
    engine.markReady();
    const propArbs: Arb[] = [];
    let gameArbs = 0;
    for (let step = 1; step <= 120; step += 1) {
      now += 250;
      feed(sim.step());
      engine.tick();
      if (step % 40 === 0) {
        const arbs = engine.currentArbs().filter((arb) => arb.edge_pct > 0);
        propArbs.push(...arbs.filter((arb) => arb.market_type === 'prop'));
        gameArbs += arbs.filter((arb) => arb.market_type !== 'prop').length;
      }
    }

    // Every drop is one of the ambiguous namings sent on purpose, all from fliff.
    const { drops, dropped } = engine.stats();
    expect(intended).toBeGreaterThan(0);
    expect(intendedOutsideFliff).toBe(0);
    expect(drops.ambiguous_player).toBe(intended);
    expect(dropped).toBe(intended);

    // The store holds the props, each with its roster player.
    let propMarkets = 0;
    let gameMarkets = 0;
    for (const event of engine.store.events()) {
      const markets = engine.store.markets(event.id);
      const withProps = markets.some((market) => market.spec.type === 'prop');
      for (const market of markets) {
        if (market.spec.type !== 'prop') {
          if (withProps) gameMarkets += 1;
          continue;
        }
        propMarkets += 1;
        expect(market.player).toBeDefined();
        expect(market.player!.id).toBe(market.spec.playerId);
      }
    }
    // Props are up only on the fixtures starting within PROPS_POSTED_MS and in play: on those, more markets than
    // their game lines.
    expect(propMarkets).toBeGreaterThan(gameMarkets);

    // Prop arbs appear beside game-line arbs, and stay a small share of the prop markets.
    expect(propArbs.length).toBeGreaterThan(0);
    expect(gameArbs).toBeGreaterThan(0);
    expect(propArbs.length / 3).toBeLessThan(propMarkets * 0.05);
    const rosterNames = new Set([...eventRosters.values()].flat().map((p) => p.name));
    for (const arb of propArbs) {
      // One player, one stat, one line: the sides are the market's two outcomes, at two books.
      expect(arb.sides).toHaveLength(2);
      expect(arb.sides[0]!.sportsbook).not.toBe(arb.sides[1]!.sportsbook);
      const overUnder = /^(.+) Over\/Under (\d+\.5)$/.exec(arb.market);
      const names = arb.sides.map((side) => side.name).sort();
      if (overUnder) {
        const [, base, line] = overUnder;
        expect(names).toEqual([`${base} Over ${line}`, `${base} Under ${line}`]);
      } else {
        expect(names).toEqual([`${arb.market} — No`, `${arb.market} — Yes`]);
      }
      expect(
        [...rosterNames].some((name) => arb.market.startsWith(`${name} `)),
        `${arb.market} names a roster player`,
      ).toBe(true);
    }
  });

  // Decision 261: the final's box score is drawn from the very process the props are priced from.
  it('gives every final the box score of each player priced on, consistent with the props’ closing prices, scratches void', () => {
    const sim = new MarketSimulator({ seed: 21, startMs: T0 + 30 * 60_000, events: 40, stepMs: 30_000 });
    const live = new Set<string>();
    /** FanDuel's last open main-line prices before kick-off of each full-game over/under prop: key → [over, under]. */
    const closing = new Map<
      string,
      { event: string; player: string; stat: string; point: number; odds: number[] }
    >();
    const pricedOn = new Map<string, Set<string>>();
    const quotedAfterScratch: string[] = [];
    const finals: {
      event: string;
      players: Record<string, Record<string, Record<string, number>> | null>;
    }[] = [];
    const scratched = new Set<string>();
    const rosterIds = new Map<string, string[]>();
    const track = (m: SourceMessage) => {
      if (m.kind === 'event') {
        if (m.live) live.add(m.sourceEventId);
        if (m.players)
          rosterIds.set(
            m.sourceEventId,
            m.players.map((p) => p.id!),
          );
        return;
      }
      if (m.kind === 'score' && m.status === 'final') {
        finals.push({ event: m.sourceEventId, players: m.players ?? {} });
        for (const [id, line] of Object.entries(m.players ?? {})) if (line === null) scratched.add(id);
        return;
      }
      if (!isProp(m) || !m.player!.id) return;
      const ids = pricedOn.get(m.sourceEventId) ?? new Set<string>();
      ids.add(m.player!.id);
      pricedOn.set(m.sourceEventId, ids);
      if (live.has(m.sourceEventId)) {
        if (!m.suspended && scratched.has(m.player!.id)) quotedAfterScratch.push(propKey(m));
        return;
      }
      if (m.book !== 'fanduel' || m.period !== 'full' || m.point === null || m.point === undefined) return;
      const key = `${propKey(m)}`;
      const entry = closing.get(key) ?? {
        event: m.sourceEventId,
        player: m.player!.id,
        stat: m.stat!,
        point: m.point,
        odds: [0, 0],
      };
      entry.odds[m.outcome === 'over' ? 0 : 1] = m.suspended ? 0 : Number(m.american);
      closing.set(key, entry);
    };
    for (const m of sim.initial()) track(m);
    for (let step = 0; step < 1_200; step += 1) for (const m of sim.step()) track(m);
    const withProps = finals.filter((final) => pricedOn.has(final.event));
    expect(withProps.length).toBeGreaterThan(15);
    // Every player priced on is in his game's box score (played, or null: did not play), and only his roster's.
    for (const final of withProps) {
      const listed = Object.keys(final.players);
      expect(listed).toEqual(expect.arrayContaining([...pricedOn.get(final.event)!]));
      expect(rosterIds.get(final.event)).toEqual(expect.arrayContaining(listed));
    }
    const players = withProps.flatMap((final) => Object.values(final.players));
    const share = players.filter((line) => line === null).length / players.length;
    expect(share).toBeGreaterThan(DNP_SHARE / 3);
    expect(share).toBeLessThan(DNP_SHARE * 3);
    expect(quotedAfterScratch).toEqual([]);
    // Calibration: the closing fair chance of the over (FanDuel's two prices, margin removed proportionally) against
    // what the box score says, summed over every full-game prop of the played games: within four standard errors.
    let expected = 0;
    let variance = 0;
    let observed = 0;
    let props = 0;
    const byEvent = new Map(withProps.map((final) => [final.event, final.players]));
    for (const entry of closing.values()) {
      const line = byEvent.get(entry.event)?.[entry.player];
      if (!line || entry.odds.includes(0)) continue;
      const value = line.full?.[entry.stat];
      expect(value).toBeTypeOf('number');
      const [over, under] = entry.odds.map((a) => 1 / americanToDecimal(a as AmericanOdds));
      const p = over! / (over! + under!);
      expected += p;
      variance += p * (1 - p);
      observed += value! > entry.point ? 1 : 0;
      props += 1;
    }
    expect(props).toBeGreaterThan(200);
    expect(Math.abs(observed - expected)).toBeLessThan(4 * Math.sqrt(variance));
  });
});

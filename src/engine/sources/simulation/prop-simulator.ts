import type { LeagueKey, Period } from '#domain/markets.ts';
import { normalizePlayerName, surnameOf } from '#domain/player-matching.ts';
import { propOutcomes } from '#domain/props.ts';
import { gaussian, seededRandom } from '#domain/random.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import type { PlayerInput, PriceMessage, PricePlayerInput } from '../../messages.ts';
import { simulatedLinks } from '../links.ts';
import { MODELS, PROFILES, periodEndsAt, type BookProfile } from './models.ts';
import { bookOdds } from './pricing.ts';
import {
  counterModel,
  doubleDoubleProbability,
  evenLine,
  overProbability,
  periodShare,
  propsFor,
  type Counter,
  type CounterModel,
  type PropPlan,
} from './props.ts';
import { hash32, teamRoster, type RosterPlayer } from './rosters.ts';

// Player props of the simulated fixtures (decision 122). Each fixture's two rosters are listed in its event messages;
// the books hang a few dozen props on the rosters' leading players (main lines, and alternate lines of some stats as
// separate markets). A player's counted stats accumulate through the game (compound Poisson, following his team's
// expected score from the fixture's fair model), so a live line drifts with what he has and what is left. Each book
// quotes a random subset, with its own projection error (slowly drifting), lean, margin (props hold more than game
// lines) and pace (slower than its game lines); it keeps only part of its props in play, suspends some on a score and
// now and then at random, and takes a line down when it is settled or lopsided. Most books name the player by the
// roster's id; bodog, fliff and betonline by name only, in their own spelling (accents stripped, "Jr." dropped, upper
// case, spaced initials), which the engine's matching accepts. The name-only books skip a player whose surname another
// player of the fixture shares, except fliff: its props of such players are dropped by the engine as ambiguous_player
// (on purpose: the only drops the simulator causes).
//
// Everything draws from the simulator's second seeded generator, so game lines are exactly what they were without props.
//
// Box scores (decision 261): the counters that move the live lines are the players' figures. At the final each player
// priced on is played to the end and his figure of each stat is the sum of its counters' counts (at the period's end
// for a period prop): drawn from the very process the prop's fair price is computed from (same mean and spread). A
// player is a late scratch with chance DNP_SHARE (a hash of the seed, fixture and player, so no draw is taken from the
// generator): priced before the game, his props are taken down at kick-off and he is listed as not having played.

/** The fixture as the prop simulator reads it (the market simulator's event). */
export interface PropFixture {
  fixture: number;
  sourceEventId: string;
  league: LeagueKey;
  home: readonly [string, string];
  away: readonly [string, string];
  startsAt: number;
  endsAt: number;
  live: boolean;
  /** Expected home margin and total (the fixture's fair model). */
  margin: number;
  total: number;
  slug: string;
}

type Side = 'home' | 'away';

/** How each book handles props. `coverage`: share of the fixture's props it offers (0: none). */
interface PropBookConfig {
  coverage: number;
  /** 'id': the roster's id (and name, team); 'name': name and team; 'name_only': name alone (no team). */
  naming: 'id' | 'name' | 'name_only';
}

const PROP_BOOKS: Readonly<Record<SportsbookKey, PropBookConfig>> = {
  circa: { coverage: 0, naming: 'id' },
  betonline: { coverage: 0.5, naming: 'name_only' },
  bodog: { coverage: 0.45, naming: 'name' },
  fanduel: { coverage: 0.9, naming: 'id' },
  draftkings: { coverage: 0.9, naming: 'id' },
  betmgm: { coverage: 0.75, naming: 'id' },
  caesars: { coverage: 0.7, naming: 'id' },
  espn: { coverage: 0.6, naming: 'id' },
  fanatics: { coverage: 0.6, naming: 'id' },
  hardrock: { coverage: 0.4, naming: 'id' },
  hardrock_in: { coverage: 0, naming: 'id' },
  ballybet: { coverage: 0.3, naming: 'id' },
  betparx: { coverage: 0.3, naming: 'id' },
  betrivers: { coverage: 0.5, naming: 'id' },
  fliff: { coverage: 0.35, naming: 'name' },
};

/** The books that quote alternate lines (the big apps), and how many of the alternates each offers. */
const ALTERNATE_COVERAGE: Partial<Record<SportsbookKey, number>> = {
  fanduel: 0.8,
  draftkings: 0.8,
  betmgm: 0.6,
  caesars: 0.5,
  espn: 0.4,
  fanatics: 0.4,
};

/** Props hold more than game lines: this is added to each book's game-line margin. */
export const PROP_EXTRA_MARGIN = 0.02;
/**
 * A book's projection error of a player's stat, in standard deviations of what is left of it (so a book is as far off
 * on a star's points as on a backup's threes): spread, and how fast it wanders (ms).
 */
const SKEW_SD = 0.03;
const SKEW_TAU_MS = 15 * 60_000;
/** A book's lean on each outcome (log weight): spread and mean reversion time (ms). */
const BIAS_SD = 0.015;
const BIAS_TAU_MS = 3 * 60_000;
/** Re-quote gaps against the book's game-line lag: pre-match three times slower, live twice. Caps keep prices inside the engine's age limits (60 s / 10 s). */
const PREMATCH_LAG_FACTOR = 4;
const LIVE_LAG_FACTOR = 2.5;
const PREMATCH_GAP_CAP_MS = 45_000;
const LIVE_GAP_CAP_MS = 8_000;
/** Share of a book's props it keeps in play (the rest are taken down at kick-off). */
const IN_PLAY_KEEP = { main: 0.45, alternate: 0.25 };
/** On a score, each prop of the fixture is suspended at all its books with this chance, for 3–9 s. */
const SCORE_SUSPEND_SHARE = 0.3;
/** In play, a book suspends a prop instead of re-quoting it with this chance per quote, for 5–20 s. */
const RANDOM_SUSPEND_PER_QUOTE = 0.01;
/** A book re-prices a player's props this long (ms, uniform) after it took them down on his play. */
const STAT_REQUOTE_MS = [1_000, 4_000] as const;
/** A line is taken down outside these fair probabilities (settled, or too lopsided to offer). */
const OFFER_RANGE = [0.04, 0.96] as const;
/** The consensus main line re-centres when its over probability leaves this range. */
const RECENTRE_RANGE = [0.3, 0.7] as const;
/** Chance an eligible stat also gets an alternate line in a fixture. */
const ALTERNATE_SHARE = 0.6;
/** Chance a player priced on does not play (a late scratch): his props are void (decision 261). */
export const DNP_SHARE = 0.03;

interface PlayerState {
  player: RosterPlayer;
  side: Side;
  /** Counted stats so far (continuous latent; the count is its floor). */
  sofar: Partial<Record<Counter, number>>;
  /** The counters his role keeps, with their models and compound-Poisson chunk (sd² / mean; 1 for Poisson). */
  counters: { counter: Counter; model: CounterModel; chunk: number }[];
  /** The game fraction the counters are at. */
  at: number;
  /** Another player of the fixture has his surname (or his whole name): only an id names him for sure. */
  sharedSurname: boolean;
  /** His props (a change of one of his counters takes down the ones that read it). */
  markets: PropMarket[];
  /** The ends of his props' partial periods (game fractions), each with his counts there once it is passed. */
  marks: { period: Period; endsAt: number; counts: Partial<Record<Counter, number>> | null }[];
  /** A late scratch (decided at kick-off): he does not play. */
  scratched: boolean;
}

/** A stat's main line and its alternate (which hangs a fixed distance from it). */
interface LineGroup {
  /** The consensus main line (null for yes/no props, and before the first quote). */
  line: number | null;
  main?: PropMarket;
}

interface PropBook {
  book: SportsbookKey;
  player: PricePlayerInput;
  /** Offset from the market's line (main markets of normal stats only): a book hanging its own number. */
  offset: number;
  skew: number;
  bias: [number, number];
  driftAt: number;
  nextQuoteAt: number;
  /** The point of the book's live (unsuspended) quote, undefined when it shows none; and its odds. */
  shown: number | null | undefined;
  shownOdds: number[];
  /** The point its links were last sent for (links go with a book's first quote of each market). */
  linksFor: number | null | undefined;
  /** Not offered in play (decided at kick-off). */
  offline: boolean;
}

interface PropMarket {
  index: number;
  player: PlayerState;
  plan: PropPlan;
  models: CounterModel[];
  /** Scratch space for `fair` (one entry per counter). */
  parts: { mean: number; sd: number | undefined }[];
  group: LineGroup;
  /** 0 for the main line; otherwise the alternate's distance from it (whole units). */
  alternate: number;
  books: PropBook[];
  /** Earliest `nextQuoteAt` of its books. */
  nextDue: number;
  /** A period prop whose period is over: taken down at every book for good. */
  closed: boolean;
}

/** A fixture's props. */
export interface FixtureProps {
  roster: PlayerInput[];
  markets: PropMarket[];
  nextDue: number;
}

export class PropSimulator {
  private readonly random: () => number;
  private readonly rosters = new Map<string, RosterPlayer[]>();
  /** A stat change took props down during this step (their due times moved earlier than the step had counted). */
  private reacted = false;

  constructor(private readonly seed: number) {
    this.random = seededRandom((seed ^ 0x5bd1e995) >>> 0);
  }

  private poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * gaussian(this.random)));
    const limit = Math.exp(-lambda);
    let k = 0;
    let product = this.random();
    while (product > limit) {
      k += 1;
      product *= this.random();
    }
    return k;
  }

  private teamRoster(league: LeagueKey, abbreviation: string): RosterPlayer[] {
    const key = `${league}|${abbreviation}`;
    let roster = this.rosters.get(key);
    if (!roster) {
      roster = teamRoster(this.seed, league, abbreviation);
      this.rosters.set(key, roster);
    }
    return roster;
  }

  /** The fixture's props: its rosters, the props the books hang and which books quote each (nothing sent yet). */
  create(event: PropFixture): FixtureProps {
    const sides: [Side, RosterPlayer[]][] = [
      ['home', this.teamRoster(event.league, event.home[1])],
      ['away', this.teamRoster(event.league, event.away[1])],
    ];
    const roster: PlayerInput[] = sides.flatMap(([side, players]) =>
      players.map((player) => ({ id: player.id, name: player.name, team: side })),
    );
    const names = new Map<string, number>();
    const surnames = new Map<string, number>();
    for (const entry of roster) {
      const name = normalizePlayerName(entry.name);
      names.set(name, (names.get(name) ?? 0) + 1);
      surnames.set(surnameOf(name), (surnames.get(surnameOf(name)) ?? 0) + 1);
    }
    const markets: PropMarket[] = [];
    for (const [side, players] of sides) {
      const states = new Map<string, PlayerState>();
      for (const { player, plan } of propsFor(event.league, players)) {
        let state = states.get(player.id);
        if (!state) {
          const name = normalizePlayerName(player.name);
          state = {
            player,
            side,
            sofar: Object.fromEntries(countersOf(event.league, player).map((counter) => [counter, 0])),
            counters: countersOf(event.league, player).map((counter) => {
              const model = counterModel(event.league, player, counter)!;
              return {
                counter,
                model,
                chunk: model.sd === undefined ? 1 : (model.sd * model.sd) / model.mean,
              };
            }),
            at: 0,
            markets: [],
            marks: [],
            scratched: false,
            sharedSurname: (names.get(name) ?? 0) > 1 || (surnames.get(surnameOf(name)) ?? 0) > 1,
          };
          states.set(player.id, state);
        }
        if (plan.period !== 'full' && !state.marks.some((mark) => mark.period === plan.period))
          state.marks.push({ period: plan.period, endsAt: periodShare(plan.period).endsAt, counts: null });
        const models = plan.counters.map((counter) => counterModel(event.league, player, counter)!);
        const group: LineGroup = { line: null };
        const main = this.createMarket(event, markets.length, state, plan, models, group, 0);
        group.main = main;
        markets.push(main);
        const eligible =
          plan.alternates && plan.kind === 'over_under' && models.every((m) => m?.sd !== undefined);
        if (eligible && this.random() < ALTERNATE_SHARE) {
          const sd = Math.sqrt(models.reduce((sum, m) => sum + m!.sd! * m!.sd!, 0));
          const distance = Math.max(2, Math.round(sd * 0.8)) * (this.random() < 0.5 ? -1 : 1);
          markets.push(this.createMarket(event, markets.length, state, plan, models, group, distance));
        }
      }
    }
    return { roster, markets, nextDue: -Infinity };
  }

  private createMarket(
    event: PropFixture,
    index: number,
    player: PlayerState,
    plan: PropPlan,
    models: CounterModel[],
    group: LineGroup,
    alternate: number,
  ): PropMarket {
    const books: PropBook[] = [];
    const normal = models.every((m) => m?.sd !== undefined);
    for (const [book, config] of Object.entries(PROP_BOOKS) as [SportsbookKey, PropBookConfig][]) {
      const coverage = alternate === 0 ? config.coverage : (ALTERNATE_COVERAGE[book] ?? 0);
      if (this.random() >= coverage) continue;
      if (config.naming !== 'id' && player.sharedSurname && book !== 'fliff') continue;
      const roll = this.random();
      books.push({
        book,
        player: this.naming(book, config, player),
        offset:
          alternate === 0 && plan.kind === 'over_under' && normal && roll < 0.2 ? (roll < 0.1 ? 1 : -1) : 0,
        skew: gaussian(this.random) * SKEW_SD,
        bias: [gaussian(this.random) * BIAS_SD, gaussian(this.random) * BIAS_SD],
        driftAt: 0,
        nextQuoteAt: 0,
        shown: undefined,
        shownOdds: [],
        linksFor: undefined,
        offline: false,
      });
    }
    const parts = models.map(() => ({ mean: 0, sd: undefined as number | undefined }));
    const market: PropMarket = {
      index,
      player,
      plan,
      models,
      parts,
      group,
      alternate,
      books,
      nextDue: -Infinity,
      closed: false,
    };
    player.markets.push(market);
    return market;
  }

  /** How a book names the player: by the roster's id, or by name in its own spelling (the engine must match it). */
  private naming(book: SportsbookKey, config: PropBookConfig, state: PlayerState): PricePlayerInput {
    const { player, side } = state;
    if (config.naming === 'id') return { id: player.id, name: player.name, team: side };
    const name = spelling(book, player.name);
    return config.naming === 'name' ? { name, team: side } : { name };
  }

  /** The fraction of the game played (0 before kick-off). */
  private progress(event: PropFixture, now: number): number {
    if (!event.live) return 0;
    return Math.min(1, Math.max(0, (now - event.startsAt) / (event.endsAt - event.startsAt)));
  }

  /** How the player's team's expected score compares with the league's typical one, raised to the stat's `scoring`. */
  private scoringFactor(event: PropFixture, side: Side, model: CounterModel): number {
    const typical = MODELS[event.league].total / 2;
    const expected = (event.total + (side === 'home' ? event.margin : -event.margin)) / 2;
    const ratio = Math.min(1.6, Math.max(0.5, expected / typical));
    return model.scoring === 0 ? 1 : ratio ** model.scoring;
  }

  /**
   * Accumulates the player's counters up to the game fraction `f` (compound Poisson: unbiased, never decreasing).
   * Returns the counters whose count (the floor) moved, or null.
   */
  private advance(event: PropFixture, state: PlayerState, f: number): Counter[] | null {
    if (f <= state.at) return null;
    let moved: Counter[] | null = null;
    // A partial period's end passed: his counts there are his figures of that period (the box score's).
    for (const mark of state.marks) {
      if (mark.counts !== null || mark.endsAt > f) continue;
      if (mark.endsAt > state.at) moved = this.accumulate(event, state, mark.endsAt, moved);
      mark.counts = { ...state.sofar };
    }
    return this.accumulate(event, state, f, moved);
  }

  /** The counters' compound-Poisson steps from where they are to `f`, adding each whose count moved to `moved`. */
  private accumulate(
    event: PropFixture,
    state: PlayerState,
    f: number,
    moved: Counter[] | null,
  ): Counter[] | null {
    if (f <= state.at) return moved;
    const df = f - state.at;
    state.at = f;
    for (const entry of state.counters) {
      const mean = entry.model.mean * this.scoringFactor(event, state.side, entry.model) * df;
      const before = state.sofar[entry.counter] ?? 0;
      const after = before + entry.chunk * this.poisson(mean / entry.chunk);
      state.sofar[entry.counter] = after;
      if (Math.floor(after) !== Math.floor(before) && !moved?.includes(entry.counter))
        (moved ??= []).push(entry.counter);
    }
    return moved;
  }

  /**
   * The player's count moved in play (he scored, caught a pass…): every book takes down his props that read a counter
   * that moved and re-prices them STAT_REQUOTE_MS later, as books suspend a player's props on the play. Without it a
   * book still showing the line from before the play stood against one priced after it: the arbs of 20–90 % that
   * lived for seconds (issue 34).
   */
  private react(
    event: PropFixture,
    player: PlayerState,
    moved: readonly Counter[],
    now: number,
    out: PriceMessage[],
  ): void {
    for (const market of player.markets) {
      if (market.closed || !market.plan.counters.some((counter) => moved.includes(counter))) continue;
      for (const book of market.books) {
        if (book.offline) continue;
        this.takeDown(event, market, book, out);
        book.nextQuoteAt =
          now + STAT_REQUOTE_MS[0] + this.random() * (STAT_REQUOTE_MS[1] - STAT_REQUOTE_MS[0]);
      }
      market.nextDue = Math.min(Infinity, ...market.books.map((b) => b.nextQuoteAt));
      this.reacted = true;
    }
  }

  /** Takes down for good, at every book, the period props whose period is over at `now` (the game clock, PERIOD_ENDS). */
  private closePeriods(event: PropFixture, props: FixtureProps, now: number, out: PriceMessage[]): void {
    for (const market of props.markets) {
      if (market.closed || market.plan.period === 'full' || now < periodEndsAt(event, market.plan.period))
        continue;
      market.closed = true;
      for (const book of market.books) {
        this.takeDown(event, market, book, out);
        book.offline = true;
        book.nextQuoteAt = Infinity;
      }
      market.nextDue = Infinity;
    }
  }

  /** P(over) (or P(yes)) of the market at a line, for a projection off by `skew` standard deviations of what is left. */
  private fair(event: PropFixture, market: PropMarket, line: number | null, f: number, skew: number): number {
    const { plan, models, player, parts } = market;
    const { share, endsAt } = periodShare(plan.period);
    const left = Math.max(0, endsAt - f) * (share / endsAt);
    let sofar = 0;
    let variance = 0;
    for (let index = 0; index < models.length; index += 1) {
      const model = models[index]!;
      const mean = model.mean * this.scoringFactor(event, player.side, model) * left;
      const chunk = model.sd === undefined ? 1 : (model.sd * model.sd) / model.mean;
      const part = parts[index]!;
      part.mean = mean;
      part.sd = model.sd === undefined ? undefined : Math.sqrt(chunk * mean);
      variance += chunk * mean;
      sofar += Math.floor(player.sofar[plan.counters[index]!] ?? 0);
    }
    if (plan.stat === 'player_double_double') {
      // Each of points, rebounds and assists is off by `skew` of its own spread.
      for (const part of parts) part.mean = Math.max(0, part.mean + skew * (part.sd ?? Math.sqrt(part.mean)));
      const count = (counter: Counter) => Math.floor(player.sofar[counter] ?? 0);
      return doubleDoubleProbability(
        { pts: count('pts'), reb: count('reb'), ast: count('ast') },
        { pts: parts[0]!, reb: parts[1]!, ast: parts[2]! },
      );
    }
    // The book's error moves the whole stat by `skew` of its spread (put on the first part of a sum of counters).
    parts[0]!.mean = Math.max(0, parts[0]!.mean + skew * Math.sqrt(variance));
    if (plan.kind === 'yes_no') {
      if (sofar >= 1) return 1;
      let mean = 0;
      for (const part of parts) mean += part.mean;
      return 1 - Math.exp(-mean);
    }
    return overProbability(line!, sofar, parts);
  }

  /** Re-centres the stat's consensus main line when its over probability left RECENTRE_RANGE. */
  private recentre(event: PropFixture, group: LineGroup, f: number): void {
    const market = group.main!;
    if (market.plan.kind !== 'over_under') return;
    const line = group.line;
    if (line !== null) {
      const p = this.fair(event, market, line, f, 0);
      if (p >= RECENTRE_RANGE[0] && p <= RECENTRE_RANGE[1]) return;
    }
    let guess = 0;
    market.plan.counters.forEach((counter, index) => {
      guess += Math.floor(market.player.sofar[counter] ?? 0) + market.models[index]!.mean * (1 - f);
    });
    group.line = evenLine((at) => this.fair(event, market, at, f, 0), guess);
  }

  /** The fixture's first quotes (every book of every prop) at `now`. */
  initial(event: PropFixture, props: FixtureProps, now: number): PriceMessage[] {
    const out: PriceMessage[] = [];
    if (event.live) {
      this.scratch(event, props, out);
      this.takeDownOffline(event, props, now, out);
      this.closePeriods(event, props, now, out);
    }
    for (const market of props.markets) {
      for (const book of market.books) if (!book.offline) this.quote(event, market, book, now, out);
      market.nextDue = Math.min(...market.books.map((b) => b.nextQuoteAt));
    }
    props.nextDue = Math.min(Infinity, ...props.markets.map((m) => m.nextDue));
    return out;
  }

  /** A fixture listed at run time: every book's first quote within two seconds. */
  schedule(props: FixtureProps, now: number, withinMs: number): void {
    for (const market of props.markets) {
      for (const book of market.books) if (!book.offline) book.nextQuoteAt = now + this.random() * withinMs;
      market.nextDue = Math.min(Infinity, ...market.books.map((b) => b.nextQuoteAt));
    }
    props.nextDue = Math.min(Infinity, ...props.markets.map((m) => m.nextDue));
  }

  /** At kick-off: each book takes down the props it does not offer in play, and re-quotes the rest within 1.5 s. */
  kickOff(event: PropFixture, props: FixtureProps, now: number): PriceMessage[] {
    const out: PriceMessage[] = [];
    this.scratch(event, props, out);
    this.takeDownOffline(event, props, now, out);
    this.schedule(props, now, 1_500);
    return out;
  }

  /**
   * The late scratches, known at kick-off (DNP_SHARE of the players priced on, by a hash: no draw): every book takes
   * his props down for good.
   */
  private scratch(event: PropFixture, props: FixtureProps, out: PriceMessage[]): void {
    for (const market of props.markets) {
      const player = market.player;
      if (!player.scratched) {
        const roll = hash32(`${this.seed}|${event.sourceEventId}|${player.player.id}|dnp`) / 2 ** 32;
        if (roll >= DNP_SHARE) continue;
        player.scratched = true;
      }
      market.closed = true;
      market.nextDue = Infinity;
      for (const book of market.books) {
        this.takeDown(event, market, book, out);
        book.offline = true;
        book.nextQuoteAt = Infinity;
      }
    }
  }

  /**
   * The final's box score of the players priced on (decision 261): each played to the end of the game, his figure of
   * each stat he has a prop on (`full`, and the period of a period prop) the sum of its counters' counts (a
   * double-double: 1 or 0); a scratch is null (he did not play).
   */
  boxScore(
    event: PropFixture,
    props: FixtureProps,
  ): Record<string, Record<string, Record<string, number>> | null> {
    const out: Record<string, Record<string, Record<string, number>> | null> = {};
    for (const market of props.markets) {
      const player = market.player;
      const id = player.player.id;
      if (player.scratched) {
        out[id] = null;
        continue;
      }
      this.advance(event, player, 1);
      const line = (out[id] ??= {})!;
      const { stat, period, counters } = market.plan;
      const counts = period === 'full' ? player.sofar : player.marks.find((m) => m.period === period)?.counts;
      if (!counts) continue;
      const count = (counter: Counter) => Math.floor(counts[counter] ?? 0);
      (line[period] ??= {})[stat] =
        stat === 'player_double_double'
          ? Number([count('pts'), count('reb'), count('ast')].filter((n) => n >= 10).length >= 2)
          : counters.reduce((sum, counter) => sum + count(counter), 0);
    }
    return out;
  }

  private takeDownOffline(event: PropFixture, props: FixtureProps, now: number, out: PriceMessage[]): void {
    for (const market of props.markets) {
      const keep = market.alternate === 0 ? IN_PLAY_KEEP.main : IN_PLAY_KEEP.alternate;
      for (const book of market.books) {
        if (this.random() < keep) continue;
        book.offline = true;
        book.nextQuoteAt = Infinity;
        this.takeDown(event, market, book, out);
      }
    }
  }

  /** One step of the fixture's props: scores suspend some of them; books re-quote the ones due. */
  step(event: PropFixture, props: FixtureProps, now: number, scored: boolean): PriceMessage[] {
    const out: PriceMessage[] = [];
    if (event.live) this.closePeriods(event, props, now, out);
    if (scored) {
      for (const market of props.markets) {
        if (this.random() >= SCORE_SUSPEND_SHARE) continue;
        const until = now + 3_000 + this.random() * 6_000;
        for (const book of market.books) {
          if (book.offline) continue;
          this.takeDown(event, market, book, out);
          book.nextQuoteAt = Math.max(book.nextQuoteAt, until);
        }
        market.nextDue = Math.min(...market.books.map((b) => b.nextQuoteAt));
      }
      props.nextDue = Math.min(Infinity, ...props.markets.map((m) => m.nextDue));
    }
    if (now < props.nextDue) return out;
    let nextDue = Infinity;
    for (const market of props.markets) {
      if (now >= market.nextDue) {
        let due = Infinity;
        for (const book of market.books) {
          if (now >= book.nextQuoteAt) {
            if (event.live && this.random() < RANDOM_SUSPEND_PER_QUOTE) {
              this.takeDown(event, market, book, out);
              book.nextQuoteAt = now + 5_000 + this.random() * 15_000;
            } else this.quote(event, market, book, now, out);
          }
          due = Math.min(due, book.nextQuoteAt);
        }
        market.nextDue = due;
      }
      nextDue = Math.min(nextDue, market.nextDue);
    }
    props.nextDue = nextDue;
    if (this.reacted) {
      // A stat change moved the due times of markets already passed in this step.
      this.reacted = false;
      for (const market of props.markets)
        market.nextDue = Math.min(Infinity, ...market.books.map((b) => b.nextQuoteAt));
      props.nextDue = Math.min(Infinity, ...props.markets.map((m) => m.nextDue));
    }
    return out;
  }

  private gap(book: SportsbookKey, live: boolean): number {
    const lag = PROFILES[book].lagSeconds * 1000;
    const mean = live ? lag * 0.35 * LIVE_LAG_FACTOR : lag * PREMATCH_LAG_FACTOR;
    return Math.min(-Math.log(1 - this.random()) * mean, live ? LIVE_GAP_CAP_MS : PREMATCH_GAP_CAP_MS);
  }

  /** The book's lean and projection error wander (mean-reverting), drawn lazily over the time since it last quoted. */
  private drift(book: PropBook, now: number): void {
    const dt = book.driftAt === 0 ? 0 : now - book.driftAt;
    book.driftAt = now;
    if (dt <= 0) return;
    const skewKeep = Math.exp(-dt / SKEW_TAU_MS);
    book.skew = book.skew * skewKeep + SKEW_SD * Math.sqrt(1 - skewKeep * skewKeep) * gaussian(this.random);
    const biasKeep = Math.exp(-dt / BIAS_TAU_MS);
    const biasStep = BIAS_SD * Math.sqrt(1 - biasKeep * biasKeep);
    book.bias[0] = book.bias[0] * biasKeep + biasStep * gaussian(this.random);
    book.bias[1] = book.bias[1] * biasKeep + biasStep * gaussian(this.random);
  }

  /** One book's quote of one prop (both outcomes), or its taking down the line when settled or lopsided. */
  private quote(
    event: PropFixture,
    market: PropMarket,
    book: PropBook,
    now: number,
    out: PriceMessage[],
  ): void {
    book.nextQuoteAt = now + this.gap(book.book, event.live);
    const f = this.progress(event, now);
    const moved = this.advance(event, market.player, f);
    if (moved && event.live) this.react(event, market.player, moved, now, out);
    this.drift(book, now);
    this.recentre(event, market.group, f);
    const point = market.plan.kind === 'yes_no' ? null : market.group.line! + market.alternate + book.offset;
    const p = point !== null && point < 0.5 ? NaN : this.fair(event, market, point, f, book.skew);
    if (!(p >= OFFER_RANGE[0] && p <= OFFER_RANGE[1])) {
      this.takeDown(event, market, book, out);
      return;
    }
    if (book.shown !== undefined && book.shown !== point) this.takeDown(event, market, book, out);
    const odds = bookOdds([p, 1 - p], book.bias, propProfile(book.book), event.live);
    const links = book.linksFor !== point;
    book.linksFor = point;
    book.shown = point;
    book.shownOdds = odds;
    const outcomes = propOutcomes(market.plan.kind);
    for (let index = 0; index < 2; index += 1) {
      const outcome = outcomes[index]!;
      const message = this.message(event, market, book, point, outcome);
      message.american = odds[index]!;
      if (links) message.links = simulatedLinks(book.book);
      out.push(message);
    }
  }

  /** Suspends the book's shown line (both outcomes, at the odds it last showed). */
  private takeDown(event: PropFixture, market: PropMarket, book: PropBook, out: PriceMessage[]): void {
    if (book.shown === undefined) return;
    const point = book.shown;
    book.shown = undefined;
    const outcomes = propOutcomes(market.plan.kind);
    for (let index = 0; index < 2; index += 1) {
      const message = this.message(event, market, book, point, outcomes[index]!);
      message.american = book.shownOdds[index]!;
      message.suspended = true;
      out.push(message);
    }
  }

  private message(
    event: PropFixture,
    market: PropMarket,
    book: PropBook,
    point: number | null,
    outcome: string,
  ): PriceMessage {
    return {
      kind: 'price',
      sourceEventId: event.sourceEventId,
      book: book.book,
      market: 'prop',
      stat: market.plan.stat,
      period: market.plan.period,
      player: book.player,
      point,
      outcome,
    };
  }
}

const propProfiles = new Map<SportsbookKey, BookProfile>();
function propProfile(book: SportsbookKey): BookProfile {
  let profile = propProfiles.get(book);
  if (!profile) {
    profile = { ...PROFILES[book], margin: PROFILES[book].margin + PROP_EXTRA_MARGIN };
    propProfiles.set(book, profile);
  }
  return profile;
}

const roleCounters = new Map<string, Counter[]>();
/** The counters a player's role keeps (all of them accumulate, whichever props are offered). */
function countersOf(league: LeagueKey, player: RosterPlayer): Counter[] {
  const key = `${league}|${player.role}`;
  let counters = roleCounters.get(key);
  if (!counters) {
    counters = ALL_COUNTERS.filter((counter) => counterModel(league, player, counter) !== undefined);
    roleCounters.set(key, counters);
  }
  return counters;
}

const ALL_COUNTERS: readonly Counter[] = [
  'pts',
  'reb',
  'ast',
  'threes',
  'pass_yds',
  'pass_tds',
  'rush_yds',
  'rec_yds',
  'receptions',
  'tds',
  'hits',
  'total_bases',
  'strikeouts',
  'sog',
  'hockey_points',
  'goals',
  'shots',
  'shots_on_target',
];

/**
 * A name-only book's spelling of a player, stable per book and player: as listed, accents stripped, "Jr." (or II, III)
 * dropped, upper case, or initials spaced ("C. J."). Each is one the engine's normaliser folds to the roster's name;
 * a spelling that would not fold alike falls back to the name as listed.
 */
export function spelling(book: string, name: string): string {
  const variants = [
    name,
    name.normalize('NFD').replace(/\p{M}+/gu, ''),
    name.replace(/\s+(Jr\.|Sr\.|II|III|IV)$/, ''),
    name.toUpperCase(),
    name.replace(/\b([A-Z])\.([A-Z])\./, '$1. $2.'),
  ];
  const variant = variants[hash32(`${book}|${name}`) % variants.length]!;
  return normalizePlayerName(variant) === normalizePlayerName(name) ? variant : name;
}

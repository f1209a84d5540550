import { outcomesOf, type LeagueKey } from '#domain/markets.ts';
import { americanToDecimal, type AmericanOdds } from '#domain/odds.ts';
import { gaussian, seededRandom } from '#domain/random.ts';
import { SPORTSBOOK_KEYS, type SportsbookKey } from '#domain/sportsbooks.ts';
import { DEFAULT_MERGE_TOLERANCE_MS, slug } from '../../events.ts';
import type { PriceMessage, SourceMessage } from '../../messages.ts';
import { simulatedLinks } from '../links.ts';
import { TEAMS } from '../teams.ts';
import { LEAGUE_WEIGHTS, MODELS, PROFILES, periodEndsAt, plansFor, type MarketPlan } from './models.ts';
import { bookAmerican, bookOdds, fairProbabilities, mainLine } from './pricing.ts';
import { PropSimulator, type FixtureProps, type PropFixture } from './prop-simulator.ts';
import { ScoreModel } from './score-model.ts';
import { inSeason } from './seasons.ts';

// The market simulator (the default source, and the public demo's data; always labelled "simulator" in the feed).
// A fair model per event (expected home margin and total, random-walking; faster and with scoring jumps once live)
// is quoted by fifteen books, each with its own margin (2–6 %), bias, line choice, rounding and update lag. Arbs
// appear where one book lags a move or leans against the others, and vanish when it catches up or suspends.
// Deterministic for a seed: the k-th step emits the same messages whatever the wall clock says.
//
// Pace (decision 111): a ten-minute run shows games ending and a fixture's whole pre-match life. The live games of
// the opening board end one every few minutes (spread evenly over the next INITIAL_ENDS_SPAN_MS), each end lists a
// new fixture in its place, and some of those kick off minutes after they are listed (on a whole minute): they open,
// move, start (their closing line) and, a game's length later, end. The others are listed hours ahead, as before.

/**
 * The live games of the opening board end spread over this span: the shortest game, less the 5-minute rounding of
 * kick-offs, so that each of them did kick off before the run.
 */
const INITIAL_ENDS_SPAN_MS =
  Math.min(...Object.values(MODELS).map((model) => model.durationMinutes)) * 60_000 - 300_000;
/** Share of fixtures created at run time that kick off within minutes of being listed. */
const SOON_SHARE = 0.3;
/** And at least one of them whenever none was listed within this window (so the run's first new fixture is one). */
const SOON_AT_LEAST_EVERY_MS = 10 * 60_000;
/** A soon fixture kicks off on the next whole minute plus 3–5 minutes: 3 to 6 minutes of pre-match life. */
const SOON_LEAD_MINUTES = [3, 5] as const;
/**
 * On a score, each book suspends each market of the game with this chance, for 2–9 s (as in-play books do on a goal,
 * touchdown or run); the others re-price it within SCORE_REQUOTE_MS. A price left standing after a score is what makes
 * a live arb, so it stands for seconds (decision 162).
 */
const SCORE_SUSPEND_SHARE = 0.85;
const SCORE_REQUOTE_MS = 2_500;
/**
 * Chance that a book's quote is a wrong price (its payout on one outcome 20–40 % too long): about one every ten minutes
 * on the default board (~1,000 game-line quotes a second), each standing for one quote gap (half the usual one).
 */
const BAD_PRICE_PER_QUOTE = 1.5e-6;
/** Other run-time fixtures kick off this far ahead (on the five minutes). */
const LATER_MIN_MS = 10 * 60_000;
const LATER_MAX_MS = 10 * 3_600_000;

export interface SimulatorOptions {
  seed: number;
  /** How many fixtures are in play at once. */
  events?: number;
  /** Virtual start time (unix ms); the simulator's clock advances `stepMs` per step. */
  startMs: number;
  stepMs?: number;
  /** Player props (decision 122); default true. Off, the run is exactly the game lines it would have with them. */
  props?: boolean;
  /** How long before a fixture's start its props are posted (default PROPS_POSTED_MS; Infinity: from its listing). */
  propsPostedMs?: number;
}

/** Fixtures listed ahead start on the five minutes. */
const onFive = (ms: number) => Math.round(ms / 300_000) * 300_000;

interface SimBook {
  book: SportsbookKey;
  /** The book's line offset from the market's main line (most books agree; some hang a different number). */
  lineOffset: number;
  bias: number[];
  nextQuoteAt: number;
  suspendedUntil: number;
  suspendedSent: boolean;
  linksSent: boolean;
  /** A wrong price the book hangs until its next quote: the outcome it is on and how far its payout is off. */
  error: { outcome: number; factor: number } | null;
}

interface SimMarket {
  index: number;
  plan: MarketPlan;
  /** Main line: the home spread or the total; null for moneyline and 1X2. */
  line: number | null;
  books: SimBook[];
  /** A period market whose period is over: suspended at every book, never quoted again. */
  closed: boolean;
}

/** A fixture: what the prop simulator reads of it (`PropFixture`), its game lines and its props. */
interface SimEvent extends PropFixture {
  markets: SimMarket[];
  /** The fixture's rosters and player props (null when the simulator runs without props). */
  props: FixtureProps | null;
}

/**
 * Books post a fixture's player props this long before its start (decision 122), as real books post them on the day
 * of the game rather than when the fixture is listed. The simulator lists fixtures up to 12 hours ahead; props on all
 * of them would double the board's updates and the server's memory for prices no bettor looks at yet.
 */
export const PROPS_POSTED_MS = 3 * 3_600_000;

export class MarketSimulator {
  private readonly random: () => number;
  /** Player props draw from their own generator, so the game lines do not depend on them. */
  private readonly props: PropSimulator | null;
  /** Scores (issue 57): each game's result, drawn at kick-off from its closing model, and its live model. */
  private readonly scores: ScoreModel;
  private readonly propsPostedMs: number;
  private readonly stepMs: number;
  private readonly eventCount: number;
  private readonly events: SimEvent[] = [];
  private nowMs: number;
  private nextFixture = 1;
  /** When the last run-time fixture kicking off within minutes was listed. */
  private lastSoonListedAt = -Infinity;

  constructor(options: SimulatorOptions) {
    this.random = seededRandom(options.seed);
    this.props = options.props === false ? null : new PropSimulator(options.seed);
    this.scores = new ScoreModel(options.seed);
    this.propsPostedMs = options.propsPostedMs ?? PROPS_POSTED_MS;
    this.stepMs = options.stepMs ?? 250;
    this.eventCount = options.events ?? 110;
    this.nowMs = options.startMs;
  }

  get now(): number {
    return this.nowMs;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  /** A league in season on the simulator's date (seasons.ts), drawn by LEAGUE_WEIGHTS. */
  private pickLeague(): LeagueKey {
    const open = LEAGUE_WEIGHTS.filter(([league]) => inSeason(league, this.nowMs));
    const total = open.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.random() * total;
    for (const [league, weight] of open) {
      roll -= weight;
      if (roll < 0) return league;
    }
    return open[open.length - 1]![0];
  }

  private createEvent(initial: boolean): SimEvent {
    const league = this.pickLeague();
    const model = MODELS[league];
    const busy = new Set(
      this.events.filter((e) => e.league === league).flatMap((e) => [e.home[0], e.away[0]]),
    );
    const free = TEAMS[league].filter(([name]) => !busy.has(name));
    const pool = free.length >= 2 ? free : TEAMS[league];
    const home = this.pick(pool);
    let away = this.pick(pool);
    while (away[0] === home[0]) away = this.pick(pool);
    const duration = model.durationMinutes * 60_000;
    let startsAt: number;
    if (initial && this.random() < 0.35)
      startsAt = onFive(this.nowMs - Math.floor(this.random() * duration * 0.9));
    else if (initial) startsAt = onFive(this.nowMs + 120_000 + Math.floor(this.random() * 12 * 3_600_000));
    else startsAt = this.runTimeStart();
    const fixture = this.nextFixture++;
    const margin = (this.random() - 0.4) * model.marginScale * 2;
    const total = model.total * (0.9 + this.random() * 0.2);
    const event: SimEvent = {
      fixture,
      sourceEventId: `sim-${fixture}`,
      league,
      home,
      away,
      startsAt,
      endsAt: startsAt + duration,
      live: startsAt <= this.nowMs,
      margin,
      total,
      markets: [],
      slug: slug(`${away[0]} ${home[0]}`),
      props: null,
    };
    this.untangle(event);
    event.markets = plansFor(league).map((plan, index) => this.createMarket(event, plan, index));
    event.props = this.props && this.propsPosted(event, this.nowMs) ? this.props.create(event) : null;
    return event;
  }

  /** Whether the books have hung props on the fixture by `now`: from PROPS_POSTED_MS before its start, and in play. */
  private propsPosted(event: SimEvent, now: number): boolean {
    return event.startsAt - now <= this.propsPostedMs;
  }

  /** When a fixture listed now kicks off: within minutes (a whole minute) for a share of them, else hours ahead. */
  private runTimeStart(): number {
    const roll = this.random();
    const lead = this.random();
    if (roll < SOON_SHARE || this.nowMs - this.lastSoonListedAt >= SOON_AT_LEAST_EVERY_MS) {
      this.lastSoonListedAt = this.nowMs;
      const [least, most] = SOON_LEAD_MINUTES;
      const minutes = least + Math.floor(lead * (most - least + 1));
      return (Math.ceil(this.nowMs / 60_000) + minutes) * 60_000;
    }
    return onFive(this.nowMs + LATER_MIN_MS + Math.floor(lead * (LATER_MAX_MS - LATER_MIN_MS)));
  }

  private createMarket(event: SimEvent, plan: MarketPlan, index: number): SimMarket {
    const line = mainLine(event, plan);
    const ways = outcomesOf(plan.type).length;
    const books = SPORTSBOOK_KEYS.map((book): SimBook => {
      const roll = this.random();
      const step = event.league === 'nba' || event.league === 'ncaab' || event.league === 'nfl' ? 1 : 0.5;
      const lineOffset =
        line === null || event.league === 'mlb' || event.league === 'nhl' || roll < 0.8
          ? 0
          : roll < 0.9
            ? step
            : -step;
      return {
        book,
        lineOffset,
        bias: Array.from({ length: ways }, () => gaussian(this.random) * 0.024),
        nextQuoteAt: this.nowMs,
        suspendedUntil: 0,
        suspendedSent: false,
        linksSent: false,
        error: null,
      };
    });
    return { index, plan, line, books, closed: false };
  }

  private quote(event: SimEvent, market: SimMarket, book: SimBook): PriceMessage[] {
    const line = market.line === null ? null : market.line + book.lineOffset;
    const fair = fairProbabilities(event, MODELS[event.league], market.plan, line);
    const odds = bookOdds(fair, book.bias, PROFILES[book.book], event.live);
    if (book.error) {
      const { outcome, factor } = book.error;
      const decimal = americanToDecimal(odds[outcome]! as AmericanOdds) * factor;
      odds[outcome] = bookAmerican(decimal, PROFILES[book.book].roundToFive);
    }
    const outcomes = outcomesOf(market.plan.type);
    const sendLinks = !book.linksSent;
    book.linksSent = true;
    return outcomes.map((outcome, index) => {
      const message: PriceMessage = {
        kind: 'price',
        sourceEventId: event.sourceEventId,
        book: book.book,
        market: market.plan.type,
        period: market.plan.period,
        point: line === null ? null : market.plan.type === 'spread' && outcome === 'away' ? -line : line,
        outcome,
        american: odds[index]!,
      };
      if (sendLinks) {
        message.links = simulatedLinks(book.book);
      }
      return message;
    });
  }

  private eventMessage(event: SimEvent): SourceMessage {
    const message: SourceMessage = {
      kind: 'event',
      sourceEventId: event.sourceEventId,
      league: event.league,
      home: { name: event.home[0], abbreviation: event.home[1] },
      away: { name: event.away[0], abbreviation: event.away[1] },
      startsAt: event.startsAt,
      live: event.live,
    };
    if (event.props) message.players = event.props.roster;
    return message;
  }

  /** Whether the last `followScore` saw the score change. */
  private lastScored = false;

  /** A live fixture's score to `now` (score-model.ts): its fair model follows it; a changed score is a message. */
  private followScore(event: SimEvent, now: number): SourceMessage[] {
    const { state, message } = this.scores.follow(event, now);
    event.margin = state.margin;
    event.total = state.total;
    this.lastScored = state.scored;
    return message ? [message] : [];
  }

  /** Every fixture and every book's first quote. */
  initial(): SourceMessage[] {
    const opening = this.events.length === 0;
    while (this.events.length < this.eventCount) this.events.push(this.createEvent(true));
    if (opening) this.spreadLiveEnds();
    const out: SourceMessage[] = [];
    for (const event of this.events) {
      out.push(this.eventMessage(event));
      if (event.live) out.push(...this.followScore(event, this.nowMs));
      for (const market of event.markets) {
        // A live game's period market whose period is already played is not on the board.
        if (this.periodOver(event, market, this.nowMs)) {
          market.closed = true;
          continue;
        }
        for (const book of market.books) {
          out.push(...this.quote(event, market, book));
          book.nextQuoteAt = this.nowMs + this.quoteGap(book, event);
        }
      }
      if (this.props && event.props) out.push(...this.props.initial(event, event.props, this.nowMs));
    }
    return out;
  }

  /**
   * The opening board's live games end one after another over the next INITIAL_ENDS_SPAN_MS (the k-th of n within
   * the k-th n-th of it), as on an evening's board, so ends (and the new fixtures they bring) come every few minutes
   * from the first. Each keeps its kick-off on the five minutes; its length is the sport's, give or take that rounding.
   */
  private spreadLiveEnds(): void {
    const live = this.events.filter((event) => event.live);
    const first = 30_000;
    const slot = (INITIAL_ENDS_SPAN_MS - first) / Math.max(live.length, 1);
    live.forEach((event, k) => {
      const endsAt = this.nowMs + first + Math.floor((k + this.random()) * slot);
      event.startsAt = onFive(endsAt - MODELS[event.league].durationMinutes * 60_000);
      event.endsAt = endsAt;
    });
    for (const event of live) this.untangle(event);
  }

  /**
   * Two fixtures of the same home and away teams starting within the engine's merge tolerance are one event to the
   * engine (two sources of one game), which would put two fair models behind its prices: such a fixture is hung the
   * other way round, or given another pair of teams (only then are more numbers drawn, so a board without a clash is
   * the same as before).
   */
  private untangle(event: SimEvent): void {
    const clashes = (home: string, away: string) =>
      this.events.some(
        (other) =>
          other !== event &&
          other.league === event.league &&
          other.home[0] === home &&
          other.away[0] === away &&
          Math.abs(other.startsAt - event.startsAt) <= DEFAULT_MERGE_TOLERANCE_MS,
      );
    if (!clashes(event.home[0], event.away[0])) return;
    if (!clashes(event.away[0], event.home[0])) [event.home, event.away] = [event.away, event.home];
    else
      while (clashes(event.home[0], event.away[0]) || event.home[0] === event.away[0]) {
        event.home = this.pick(TEAMS[event.league]);
        event.away = this.pick(TEAMS[event.league]);
      }
    event.slug = slug(`${event.away[0]} ${event.home[0]}`);
    // The props' rosters follow the teams (the prop simulator draws from its own generator).
    if (event.props) event.props = this.props!.create(event);
  }

  /** Whether the market is a period market whose period is over at `now` (by the game clock model, PERIOD_ENDS). */
  private periodOver(event: SimEvent, market: SimMarket, now: number): boolean {
    return market.plan.period !== 'full' && now >= periodEndsAt(event, market.plan.period);
  }

  /** The period is over: every book suspends the market (at its last price), and none quotes it again. */
  private closePeriod(event: SimEvent, market: SimMarket, out: SourceMessage[]): void {
    market.closed = true;
    for (const book of market.books)
      for (const message of this.quote(event, market, book)) out.push({ ...message, suspended: true });
  }

  private quoteGap(book: SimBook, event: SimEvent): number {
    const mean = PROFILES[book.book].lagSeconds * 1000 * (event.live ? 0.35 : 1);
    // Exponential gaps, capped so a price is re-confirmed well inside the engine's age limits (60 s / 10 s).
    return Math.min(-Math.log(1 - this.random()) * mean, event.live ? 6_000 : 40_000);
  }

  /** Advances the clock one step and returns what the books sent during it. */
  step(): SourceMessage[] {
    this.nowMs += this.stepMs;
    const now = this.nowMs;
    const out: SourceMessage[] = [];
    const seconds = this.stepMs / 1000;
    for (let index = 0; index < this.events.length; index += 1) {
      let event = this.events[index]!;
      if (now >= event.endsAt) {
        if (event.live) out.push(this.scores.finish(event, now));
        out.push({ kind: 'end', sourceEventId: event.sourceEventId });
        event = this.createEvent(false);
        this.events[index] = event;
        out.push(this.eventMessage(event));
        for (const market of event.markets)
          for (const book of market.books) book.nextQuoteAt = now + this.random() * 2_000;
        if (this.props && event.props) this.props.schedule(event.props, now, 2_000);
        continue;
      }
      const model = MODELS[event.league];
      if (this.props && !event.props && this.propsPosted(event, now)) {
        // The books post the fixture's props: its roster first (the engine matches props against it), then the
        // books' first quotes within two seconds.
        event.props = this.props.create(event);
        out.push(this.eventMessage(event));
        this.props.schedule(event.props, now, 2_000);
      }
      if (!event.live && now >= event.startsAt) {
        event.live = true;
        out.push(this.eventMessage(event));
        for (const market of event.markets)
          for (const book of market.books) book.nextQuoteAt = now + this.random() * 1_500;
        if (this.props && event.props) out.push(...this.props.kickOff(event, event.props, now));
      }
      // The fair model drifts before the game; in play it is the score model's (the score so far and what is left
      // expected), and books suspend after a score.
      let scored = false;
      if (event.live) {
        const before = out.length;
        out.push(...this.followScore(event, now));
        scored = out.length > before && this.lastScored;
      } else {
        event.margin += gaussian(this.random) * model.marginScale * 0.0015 * Math.sqrt(seconds);
        event.total += gaussian(this.random) * model.totalScale * 0.0015 * Math.sqrt(seconds);
      }
      if (scored) {
        for (const market of event.markets) {
          if (market.closed) continue;
          for (const book of market.books) {
            if (this.random() < SCORE_SUSPEND_SHARE) {
              book.suspendedUntil = now + 2_000 + this.random() * 7_000;
              book.suspendedSent = false;
            } else book.nextQuoteAt = Math.min(book.nextQuoteAt, now + SCORE_REQUOTE_MS * this.random());
          }
        }
      }
      for (const market of event.markets) {
        if (market.closed) continue;
        if (this.periodOver(event, market, now)) {
          this.closePeriod(event, market, out);
          continue;
        }
        for (const book of market.books) {
          for (let k = 0; k < book.bias.length; k += 1) {
            book.bias[k] = book.bias[k]! * 0.998 + gaussian(this.random) * 0.0015;
          }
          if (!event.live && this.random() < 0.00004) {
            book.suspendedUntil = now + 5_000 + this.random() * 25_000;
            book.suspendedSent = false;
          }
          if (book.suspendedUntil > now) {
            if (!book.suspendedSent) {
              book.suspendedSent = true;
              for (const message of this.quote(event, market, book))
                out.push({ ...message, suspended: true });
            }
            continue;
          }
          if (now >= book.nextQuoteAt || book.suspendedSent) {
            book.suspendedSent = false;
            // Now and then a book hangs a wrong number (a typo, a line meant for another market), corrected at its
            // next quote, which comes sooner than usual: the rare arb the feed flags `suspect`.
            book.error =
              this.random() < BAD_PRICE_PER_QUOTE
                ? {
                    outcome: Math.floor(this.random() * market.books[0]!.bias.length),
                    factor: 1.2 + this.random() * 0.2,
                  }
                : null;
            out.push(...this.quote(event, market, book));
            book.nextQuoteAt = now + this.quoteGap(book, event) * (book.error ? 0.5 : 1);
          }
        }
      }
      if (this.props && event.props) out.push(...this.props.step(event, event.props, now, scored));
    }
    return out;
  }
}

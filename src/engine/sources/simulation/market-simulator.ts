import { outcomesOf } from '#domain/markets.ts';
import { americanToDecimal, type AmericanOdds } from '#domain/odds.ts';
import { gaussian, seededRandom } from '#domain/random.ts';
import { SPORTSBOOK_KEYS, type SportsbookKey } from '#domain/sportsbooks.ts';
import { slug } from '../../events.ts';
import type { PriceMessage, SourceMessage } from '../../messages.ts';
import { simulatedLinks } from '../links.ts';
import { FixtureCalendar, type CalendarFixture } from './calendar.ts';
import { MODELS, PROFILES, periodEndsAt, plansFor, type MarketPlan } from './models.ts';
import { bookAmerican, bookOdds, fairProbabilities, mainLine, type LivePart } from './pricing.ts';
import { PropSimulator, type FixtureProps, type PropFixture } from './prop-simulator.ts';
import { ScoreModel } from './score-model.ts';

// The market simulator (the default source, and the public demo's data; always labelled "simulator" in the feed).
// A fair model per event (expected home margin and total, random-walking; faster and with scoring jumps once live)
// is quoted by fifteen books, each with its own margin (2–6 %), bias, line choice, rounding and update lag. Arbs
// appear where one book lags a move or leans against the others, and vanish when it catches up or suspends.
// Deterministic for a seed: the k-th step emits the same messages whatever the wall clock says.
//
// Fixtures (decision 221): the board lists the calendar's fixtures (calendar.ts: each league's real slots, days and
// seasons, the same for a seed whatever the clock) in start order, the games in play and the next ones, `events` of
// them; a game that ends makes room for the next fixture of the calendar.
//
// Time (decision 222): a step goes from the simulator's time to the instant it is asked for (`advanceTo`), however
// far: a game goes live in the first step at or after its start, and a late step catches up at once.

/** The longest game: the calendar is read from this far back, for the games in play. */
const LONGEST_GAME_MS = Math.max(...Object.values(MODELS).map((model) => model.durationMinutes)) * 60_000;
/** The calendar is read a week at a time, and no further than this ahead (past it the board stays as it is). */
const CALENDAR_WINDOW_MS = 7 * 86_400_000;
const CALENDAR_REACH_MS = 120 * 86_400_000;
/**
 * On a score, each book suspends each open market of the game (the full game's and the first parts') with this chance,
 * for 2–9 s (as in-play books do on a goal, touchdown or run), then re-prices it; the others re-price it within
 * SCORE_REQUOTE_MS, their last price standing meanwhile (decision 162: what makes a live arb). A standing price the
 * score moved SCORE_PULL_MOVE or more (one outcome's implied probability, at the book's own odds) is pulled: the book
 * suspends that market as the others do (decision 293; left standing, such prices made most of the suspect arbs).
 */
const SCORE_SUSPEND_SHARE = 0.85;
const SCORE_SUSPEND_MS = 2_000;
const SCORE_SUSPEND_SPREAD_MS = 7_000;
const SCORE_REQUOTE_MS = 2_500;
export const SCORE_PULL_MOVE = 0.04;
/**
 * A book re-prices a market (publishes new odds) only when one outcome's implied probability moved at least this much
 * from its last published odds; otherwise its quote re-confirms those (decision 293). Real books move a price in steps,
 * not by a point at every look; the simulator's books re-priced at every quote, each a change the server stores.
 */
export const PUBLISH_MOVE = 0.005;
/**
 * Chance that a book's quote is a wrong price (its payout on one outcome 20–40 % too long): about one every ten minutes
 * on the default board (~1,000 game-line quotes a second), each standing for one quote gap (half the usual one).
 */
const BAD_PRICE_PER_QUOTE = 1.5e-6;

export interface SimulatorOptions {
  seed: number;
  /** How many fixtures are in play at once. */
  events?: number;
  /** Start time (unix ms); `step()` advances the simulator's clock `stepMs`, `advanceTo` to a given instant. */
  startMs: number;
  stepMs?: number;
  /** Player props (decision 122); default true. Off, the run is exactly the game lines it would have with them. */
  props?: boolean;
  /** How long before a fixture's start its props are posted (default PROPS_POSTED_MS; Infinity: from its listing). */
  propsPostedMs?: number;
}

/**
 * The book's lean per outcome drifts each step (mean-reverting; `keep` and `noise` scale with the step's length). A
 * function of its own, small and called millions of times a step, so that it is optimised at once: inside the long
 * `step` it ran unoptimised, each product a new heap number (issue 59: most of the simulator's allocations). The same
 * draws in the same order.
 */
function driftBias(bias: number[], random: () => number, keep: number, noise: number): void {
  for (let k = 0; k < bias.length; k += 1) bias[k] = bias[k]! * keep + gaussian(random) * noise;
}

interface SimBook {
  book: SportsbookKey;
  /** The book's line offset from the market's main line (most books agree; some hang a different number). */
  lineOffset: number;
  bias: number[];
  nextQuoteAt: number;
  suspendedUntil: number;
  suspendedSent: boolean;
  linksSent: boolean;
  /** The odds the book last published (`outcomesOf` order) and their implied probabilities; null before its first. */
  published: number[] | null;
  publishedImplied: number[] | null;
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
  /** In play: the first part's score so far and time left, its live prices' model (decision 288). */
  part?: LivePart;
  /** The fixture's rosters and player props (null when the simulator runs without props). */
  props: FixtureProps | null;
}

/**
 * Books post a fixture's player props this long before its start (decision 122), as real books post them on the day
 * of the game rather than when the fixture is listed. The simulator lists fixtures days ahead; props on all
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
  private readonly calendar: FixtureCalendar;
  /** The calendar's fixtures not yet listed, in start order, read up to `readUntil`. */
  private queue: CalendarFixture[] = [];
  private queueAt = 0;
  private readUntil: number;
  private nowMs: number;
  private nextFixture = 1;

  constructor(options: SimulatorOptions) {
    this.random = seededRandom(options.seed);
    this.props = options.props === false ? null : new PropSimulator(options.seed);
    this.scores = new ScoreModel(options.seed);
    this.propsPostedMs = options.propsPostedMs ?? PROPS_POSTED_MS;
    this.stepMs = options.stepMs ?? 250;
    this.eventCount = options.events ?? 110;
    this.nowMs = options.startMs;
    this.calendar = new FixtureCalendar(options.seed);
    this.readUntil = options.startMs - LONGEST_GAME_MS;
  }

  get now(): number {
    return this.nowMs;
  }

  /** The calendar's next fixture still to be played or in play at the simulator's time (null: none in reach). */
  private nextCalendarFixture(): CalendarFixture | null {
    for (;;) {
      while (this.queueAt < this.queue.length) {
        const fixture = this.queue[this.queueAt++]!;
        if (fixture.startsAt + MODELS[fixture.league].durationMinutes * 60_000 > this.nowMs) return fixture;
      }
      if (this.readUntil >= this.nowMs + CALENDAR_REACH_MS) return null;
      const from = Math.max(this.readUntil, this.nowMs - LONGEST_GAME_MS);
      this.readUntil = from + CALENDAR_WINDOW_MS;
      this.queue = this.calendar.between(from, this.readUntil);
      this.queueAt = 0;
    }
  }

  private createEvent(fixture: CalendarFixture): SimEvent {
    const { league, home, away, startsAt } = fixture;
    const model = MODELS[league];
    const id = this.nextFixture++;
    const margin = (this.random() - 0.4) * model.marginScale * 2;
    const total = model.total * (0.9 + this.random() * 0.2);
    const event: SimEvent = {
      fixture: id,
      sourceEventId: `sim-${id}`,
      league,
      home,
      away,
      startsAt,
      endsAt: startsAt + model.durationMinutes * 60_000,
      live: startsAt <= this.nowMs,
      margin,
      total,
      markets: [],
      slug: slug(`${away[0]} ${home[0]}`),
      props: null,
    };
    event.markets = plansFor(league).map((plan, index) => this.createMarket(event, plan, index));
    event.props = this.props && this.propsPosted(event, this.nowMs) ? this.props.create(event) : null;
    return event;
  }

  /** Whether the books have hung props on the fixture by `now`: from PROPS_POSTED_MS before its start, and in play. */
  private propsPosted(event: SimEvent, now: number): boolean {
    return event.startsAt - now <= this.propsPostedMs;
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
        published: null,
        publishedImplied: null,
        error: null,
      };
    });
    return { index, plan, line, books, closed: false };
  }

  /**
   * Pushes the book's prices of the market onto `out` (with `suspended: true` last when it suspends): no array per
   * quote, nor a copy per suspended price (issue 59: the simulator's allocations per update). A suspension sends the
   * book's last published odds, suspended (the price is pulled as it stood). A quote re-prices the market; the new
   * odds are published when one outcome's implied probability moved PUBLISH_MOVE or more from the last published ones
   * (or `fresh`: a reopening, a wrong price and the quote after it), else the last ones are sent again.
   */
  private quote(
    event: SimEvent,
    market: SimMarket,
    book: SimBook,
    out: SourceMessage[],
    suspended = false,
    fresh = false,
  ): void {
    const line = market.line === null ? null : market.line + book.lineOffset;
    let odds = suspended ? book.published : null;
    if (!odds) {
      const fair = fairProbabilities(event, MODELS[event.league], market.plan, line);
      odds = bookOdds(fair, book.bias, PROFILES[book.book], event.live);
      if (book.error) {
        const { outcome, factor } = book.error;
        const decimal = americanToDecimal(odds[outcome]! as AmericanOdds) * factor;
        odds[outcome] = bookAmerican(decimal, PROFILES[book.book].roundToFive);
      }
      odds = this.publish(book, odds, fresh || book.error !== null);
    }
    const outcomes = outcomesOf(market.plan.type);
    const sendLinks = !book.linksSent;
    book.linksSent = true;
    for (let index = 0; index < outcomes.length; index += 1) {
      const outcome = outcomes[index]!;
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
      if (suspended) message.suspended = true;
      out.push(message);
    }
  }

  /**
   * The odds the book sends: `odds` when they are `fresh`, its first, or one outcome's implied probability moved
   * PUBLISH_MOVE or more from its last published odds (then they are its published odds); else those last ones.
   */
  private publish(book: SimBook, odds: number[], fresh: boolean): number[] {
    const last = book.publishedImplied;
    // The implied probabilities are kept only when published: a quote that moved too little allocates nothing here.
    if (!fresh && last && book.published) {
      let moved = false;
      for (let index = 0; index < odds.length; index += 1)
        if (
          Math.abs(1 / americanToDecimal(odds[index]! as AmericanOdds) - last[index]!) >=
          PUBLISH_MOVE - 1e-12
        ) {
          moved = true;
          break;
        }
      if (!moved) return book.published;
    }
    book.published = odds;
    book.publishedImplied = odds.map((american) => 1 / americanToDecimal(american as AmericanOdds));
    return odds;
  }

  /** How far the book's own price of the market is now from its last published one (the largest outcome's move). */
  private movedBy(event: SimEvent, market: SimMarket, book: SimBook): number {
    const last = book.publishedImplied;
    if (!last) return Infinity;
    const line = market.line === null ? null : market.line + book.lineOffset;
    const fair = fairProbabilities(event, MODELS[event.league], market.plan, line);
    const odds = bookOdds(fair, book.bias, PROFILES[book.book], event.live);
    let moved = 0;
    for (let index = 0; index < odds.length; index += 1)
      moved = Math.max(moved, Math.abs(1 / americanToDecimal(odds[index]! as AmericanOdds) - last[index]!));
    return moved;
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
    event.part = state.part;
    this.lastScored = state.scored;
    return message ? [message] : [];
  }

  /** Every fixture and every book's first quote. */
  initial(): SourceMessage[] {
    while (this.events.length < this.eventCount) {
      const fixture = this.nextCalendarFixture();
      if (!fixture) break;
      this.events.push(this.createEvent(fixture));
    }
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
          this.quote(event, market, book, out);
          book.nextQuoteAt = this.nowMs + this.quoteGap(book, event);
        }
      }
      if (this.props && event.props) out.push(...this.props.initial(event, event.props, this.nowMs));
    }
    return out;
  }

  /** Whether the market is a period market whose period is over at `now` (by the game clock model, PERIOD_ENDS). */
  private periodOver(event: SimEvent, market: SimMarket, now: number): boolean {
    return market.plan.period !== 'full' && now >= periodEndsAt(event, market.plan.period);
  }

  /** The period is over: every book suspends the market (at its last price), and none quotes it again. */
  private closePeriod(event: SimEvent, market: SimMarket, out: SourceMessage[]): void {
    market.closed = true;
    for (const book of market.books) this.quote(event, market, book, out, true);
  }

  private quoteGap(book: SimBook, event: SimEvent): number {
    const mean = PROFILES[book.book].lagSeconds * 1000 * (event.live ? 0.35 : 1);
    // Exponential gaps, capped so a price is re-confirmed well inside the engine's age limits (60 s / 10 s).
    return Math.min(-Math.log(1 - this.random()) * mean, event.live ? 6_000 : 40_000);
  }

  /** Advances the clock one step (`stepMs`) and returns what the books sent during it. */
  step(): SourceMessage[] {
    return this.advanceTo(this.nowMs + this.stepMs);
  }

  /**
   * Advances the clock to `ms` in one step, however far that is (decision 222), and returns what the books sent during
   * it: games whose start has passed go live, games over end (each making room for the calendar's next fixture), the
   * fair models drift by the time elapsed, and each book due quotes once. An instant before the simulator's time is a
   * step of no length.
   */
  advanceTo(ms: number): SourceMessage[] {
    const elapsed = Math.max(0, ms - this.nowMs);
    this.nowMs += elapsed;
    const now = this.nowMs;
    const out: SourceMessage[] = [];
    const seconds = elapsed / 1000;
    /** The step's length in `stepMs`: per-step chances and walks scale with it (1 for a `step()`). */
    const beats = elapsed / this.stepMs;
    const biasKeep = 0.998 ** beats;
    const biasNoise = 0.0015 * Math.sqrt(beats);
    const suspendChance = 0.00004 * beats;
    for (let index = 0; index < this.events.length; index += 1) {
      let event = this.events[index]!;
      if (now >= event.endsAt) {
        if (event.live) {
          const final = this.scores.finish(event, now);
          // The box score of the players priced on, with the final (decision 261).
          if (this.props && event.props) final.players = this.props.boxScore(event, event.props);
          out.push(final);
        }
        out.push({ kind: 'end', sourceEventId: event.sourceEventId });
        const fixture = this.nextCalendarFixture();
        if (!fixture) {
          this.events.splice(index, 1);
          index -= 1;
          continue;
        }
        event = this.createEvent(fixture);
        this.events[index] = event;
        out.push(this.eventMessage(event));
        for (const market of event.markets) {
          // Listed in play after a long step: a period already played is not on the board.
          if (this.periodOver(event, market, now)) market.closed = true;
          for (const book of market.books) book.nextQuoteAt = now + this.random() * 2_000;
        }
        if (this.props && event.props) {
          if (event.live) out.push(...this.props.kickOff(event, event.props, now));
          else this.props.schedule(event.props, now, 2_000);
        }
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
        // At kick-off each book takes its pre-game prices down and reopens the market in play within 1.5 s (decision
        // 293): a pre-game price left standing into play stood against the others' live ones.
        for (const market of event.markets)
          for (const book of market.books) {
            book.suspendedUntil = now + this.random() * 1_500;
            book.suspendedSent = false;
            book.nextQuoteAt = book.suspendedUntil;
          }
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
            if (this.random() < SCORE_SUSPEND_SHARE || this.movedBy(event, market, book) >= SCORE_PULL_MOVE) {
              book.suspendedUntil = now + SCORE_SUSPEND_MS + this.random() * SCORE_SUSPEND_SPREAD_MS;
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
          driftBias(book.bias, this.random, biasKeep, biasNoise);
          if (!event.live && this.random() < suspendChance) {
            book.suspendedUntil = now + 5_000 + this.random() * 25_000;
            book.suspendedSent = false;
          }
          if (book.suspendedUntil > now) {
            if (!book.suspendedSent) {
              book.suspendedSent = true;
              this.quote(event, market, book, out, true);
            }
            continue;
          }
          if (now >= book.nextQuoteAt || book.suspendedSent) {
            const reopens = book.suspendedSent;
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
            this.quote(event, market, book, out, false, reopens);
            book.nextQuoteAt = now + this.quoteGap(book, event) * (book.error ? 0.5 : 1);
          }
        }
      }
      if (this.props && event.props) out.push(...this.props.step(event, event.props, now, scored));
    }
    return out;
  }
}

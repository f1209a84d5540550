import { LEAGUES, outcomesOf, type LeagueKey, type MarketType, type Period } from '#domain/markets.ts';
import { seededRandom } from '#domain/random.ts';
import { SPORTSBOOK_KEYS, type SportsbookKey } from '#domain/sportsbooks.ts';
import { slug } from '../events.ts';
import type { PriceMessage, SourceMessage } from '../messages.ts';
import { simulatedLinks } from './links.ts';
import { TEAMS } from './teams.ts';
import type { OddsSource, SourceContext } from './types.ts';

// The market simulator (the default source, and the public demo's data; always labelled "simulator" in the feed).
// A fair model per event (expected home margin and total, random-walking; faster and with scoring jumps once live)
// is quoted by fifteen books, each with its own margin (2–6 %), bias, line choice, rounding and update lag. Arbs
// appear where one book lags a move or leans against the others, and vanish when it catches up or suspends.
// Deterministic for a seed: the k-th step emits the same messages whatever the wall clock says.

export interface SimulatorOptions {
  seed: number;
  /** How many fixtures are in play at once. */
  events?: number;
  /** Virtual start time (unix ms); the simulator's clock advances `stepMs` per step. */
  startMs: number;
  stepMs?: number;
}

interface BookProfile {
  margin: number;
  /** Mean seconds between re-quotes pre-match (live: a third of it). */
  lagSeconds: number;
  roundToFive: boolean;
}

// Sharp, low-margin books quote tighter and faster; recreational books wider and slower.
const PROFILES: Readonly<Record<SportsbookKey, BookProfile>> = {
  circa: { margin: 0.021, lagSeconds: 4, roundToFive: false },
  betonline: { margin: 0.026, lagSeconds: 5, roundToFive: false },
  bodog: { margin: 0.038, lagSeconds: 9, roundToFive: true },
  fanduel: { margin: 0.042, lagSeconds: 5, roundToFive: false },
  draftkings: { margin: 0.044, lagSeconds: 5, roundToFive: false },
  betmgm: { margin: 0.049, lagSeconds: 8, roundToFive: true },
  caesars: { margin: 0.048, lagSeconds: 8, roundToFive: true },
  espn: { margin: 0.046, lagSeconds: 7, roundToFive: false },
  fanatics: { margin: 0.043, lagSeconds: 6, roundToFive: false },
  hardrock: { margin: 0.05, lagSeconds: 9, roundToFive: true },
  hardrock_in: { margin: 0.054, lagSeconds: 11, roundToFive: true },
  ballybet: { margin: 0.058, lagSeconds: 12, roundToFive: true },
  betparx: { margin: 0.056, lagSeconds: 12, roundToFive: true },
  betrivers: { margin: 0.05, lagSeconds: 9, roundToFive: true },
  fliff: { margin: 0.06, lagSeconds: 10, roundToFive: false },
};

interface SportModel {
  /** Logistic scale of the final margin and total (points, runs, goals). */
  marginScale: number;
  totalScale: number;
  /** Typical expected total and home advantage. */
  total: number;
  durationMinutes: number;
  /** Chance per live second of a score that jumps the model. */
  scoresPerSecond: number;
}

const MODELS: Readonly<Record<LeagueKey, SportModel>> = {
  nba: { marginScale: 7, totalScale: 9, total: 226, durationMinutes: 150, scoresPerSecond: 0.02 },
  ncaab: { marginScale: 6.5, totalScale: 8, total: 143, durationMinutes: 125, scoresPerSecond: 0.02 },
  nfl: { marginScale: 7.5, totalScale: 8, total: 45, durationMinutes: 195, scoresPerSecond: 0.004 },
  mlb: { marginScale: 2.3, totalScale: 2.4, total: 8.5, durationMinutes: 170, scoresPerSecond: 0.003 },
  nhl: { marginScale: 1.5, totalScale: 1.4, total: 6, durationMinutes: 150, scoresPerSecond: 0.002 },
  epl: { marginScale: 1.1, totalScale: 1.0, total: 2.7, durationMinutes: 115, scoresPerSecond: 0.0012 },
  mls: { marginScale: 1.1, totalScale: 1.0, total: 3, durationMinutes: 115, scoresPerSecond: 0.0012 },
};

const LEAGUE_WEIGHTS: readonly (readonly [LeagueKey, number])[] = [
  ['nba', 22],
  ['ncaab', 20],
  ['nfl', 10],
  ['mlb', 10],
  ['nhl', 14],
  ['epl', 14],
  ['mls', 10],
];

interface MarketPlan {
  type: MarketType;
  period: Period;
}

function plansFor(league: LeagueKey): MarketPlan[] {
  if (LEAGUES[league].hasDraws)
    return [
      { type: '1x2', period: 'full' },
      { type: 'total', period: 'full' },
      { type: 'spread', period: 'full' },
    ];
  const base: MarketPlan[] = [
    { type: 'moneyline', period: 'full' },
    { type: 'spread', period: 'full' },
    { type: 'total', period: 'full' },
  ];
  if (league === 'nba' || league === 'ncaab' || league === 'nfl')
    base.push({ type: 'spread', period: 'h1' }, { type: 'total', period: 'h1' });
  return base;
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
}

interface SimMarket {
  index: number;
  plan: MarketPlan;
  /** Main line: the home spread or the total; null for moneyline and 1X2. */
  line: number | null;
  books: SimBook[];
}

interface SimEvent {
  fixture: number;
  sourceEventId: string;
  league: LeagueKey;
  home: readonly [string, string];
  away: readonly [string, string];
  startsAt: number;
  endsAt: number;
  live: boolean;
  margin: number;
  total: number;
  markets: SimMarket[];
  slug: string;
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

function halfLine(value: number): number {
  return Math.floor(value) + 0.5;
}

export class MarketSimulator {
  private readonly random: () => number;
  private readonly stepMs: number;
  private readonly eventCount: number;
  private readonly events: SimEvent[] = [];
  private nowMs: number;
  private nextFixture = 1;

  constructor(options: SimulatorOptions) {
    this.random = seededRandom(options.seed);
    this.stepMs = options.stepMs ?? 250;
    this.eventCount = options.events ?? 110;
    this.nowMs = options.startMs;
  }

  get now(): number {
    return this.nowMs;
  }

  private gauss(): number {
    const u = 1 - this.random();
    const v = this.random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private pickLeague(): LeagueKey {
    const total = LEAGUE_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.random() * total;
    for (const [league, weight] of LEAGUE_WEIGHTS) {
      roll -= weight;
      if (roll < 0) return league;
    }
    return 'nba';
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
    if (initial && this.random() < 0.35) startsAt = this.nowMs - Math.floor(this.random() * duration * 0.9);
    else if (initial) startsAt = this.nowMs + 120_000 + Math.floor(this.random() * 12 * 3_600_000);
    else startsAt = this.nowMs + 60_000 + Math.floor(this.random() * 6 * 3_600_000);
    startsAt = Math.round(startsAt / 300_000) * 300_000; // fixtures start on the five minutes
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
    };
    event.markets = plansFor(league).map((plan, index) => this.createMarket(event, plan, index));
    return event;
  }

  private createMarket(event: SimEvent, plan: MarketPlan, index: number): SimMarket {
    const half = plan.period === 'h1' ? 0.5 : 1;
    let line: number | null = null;
    if (plan.type === 'total') line = halfLine(event.total * half);
    if (plan.type === 'spread') {
      if (event.league === 'mlb' || event.league === 'nhl') line = event.margin > 0 ? -1.5 : 1.5;
      else line = halfLine(-event.margin * half);
    }
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
        bias: Array.from({ length: ways }, () => this.gauss() * 0.024),
        nextQuoteAt: this.nowMs,
        suspendedUntil: 0,
        suspendedSent: false,
        linksSent: false,
      };
    });
    return { index, plan, line, books };
  }

  /** Fair probabilities of the market's outcomes (in `outcomesOf` order) at a given line. */
  private fair(event: SimEvent, plan: MarketPlan, line: number | null): number[] {
    const model = MODELS[event.league];
    const half = plan.period === 'h1' ? 0.5 : 1;
    const marginScale = model.marginScale * Math.sqrt(half);
    const margin = event.margin * half;
    switch (plan.type) {
      case 'moneyline': {
        const home = logistic(margin / marginScale);
        return [1 - home, home];
      }
      case 'spread': {
        const home = logistic((margin + (line ?? 0)) / marginScale);
        return [1 - home, home];
      }
      case 'total': {
        const over = logistic((event.total * half - (line ?? 0)) / (model.totalScale * Math.sqrt(half)));
        return [over, 1 - over];
      }
      case '1x2': {
        const x = margin / marginScale;
        const draw = 0.28 * Math.exp(-x * x * 0.35);
        const home = (1 - draw) * logistic(x * 1.6);
        return [home, draw, 1 - draw - home];
      }
    }
  }

  private quote(event: SimEvent, market: SimMarket, book: SimBook): PriceMessage[] {
    const line = market.line === null ? null : market.line + book.lineOffset;
    const fair = this.fair(event, market.plan, line);
    const profile = PROFILES[book.book];
    const margin = profile.margin + (event.live ? 0.01 : 0);
    const weighted = fair.map((p, index) => Math.max(p, 0.004) * Math.exp(book.bias[index]!));
    const sum = weighted.reduce((a, b) => a + b, 0);
    const outcomes = outcomesOf(market.plan.type);
    const sendLinks = !book.linksSent;
    book.linksSent = true;
    return outcomes.map((outcome, index) => {
      const implied = Math.min(0.985, (weighted[index]! / sum) * (1 + margin));
      const american = toAmerican(1 / implied, profile.roundToFive);
      const message: PriceMessage = {
        kind: 'price',
        sourceEventId: event.sourceEventId,
        book: book.book,
        market: market.plan.type,
        period: market.plan.period,
        point: line === null ? null : market.plan.type === 'spread' && outcome === 'away' ? -line : line,
        outcome,
        american,
      };
      if (sendLinks) {
        message.links = simulatedLinks(book.book, {
          league: event.league,
          fixture: event.fixture,
          market: market.index * 10 + (book.lineOffset > 0 ? 1 : book.lineOffset < 0 ? 2 : 0),
          marketType: market.plan.type,
          outcome,
          eventSlug: event.slug,
        });
      }
      return message;
    });
  }

  private eventMessage(event: SimEvent): SourceMessage {
    return {
      kind: 'event',
      sourceEventId: event.sourceEventId,
      league: event.league,
      home: { name: event.home[0], abbreviation: event.home[1] },
      away: { name: event.away[0], abbreviation: event.away[1] },
      startsAt: event.startsAt,
      live: event.live,
    };
  }

  /** Every fixture and every book's first quote. */
  initial(): SourceMessage[] {
    while (this.events.length < this.eventCount) this.events.push(this.createEvent(true));
    const out: SourceMessage[] = [];
    for (const event of this.events) {
      out.push(this.eventMessage(event));
      for (const market of event.markets) {
        for (const book of market.books) {
          out.push(...this.quote(event, market, book));
          book.nextQuoteAt = this.nowMs + this.quoteGap(book, event);
        }
      }
    }
    return out;
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
        out.push({ kind: 'end', sourceEventId: event.sourceEventId });
        event = this.createEvent(false);
        this.events[index] = event;
        out.push(this.eventMessage(event));
        for (const market of event.markets)
          for (const book of market.books) book.nextQuoteAt = now + this.random() * 2_000;
        continue;
      }
      const model = MODELS[event.league];
      if (!event.live && now >= event.startsAt) {
        event.live = true;
        out.push(this.eventMessage(event));
        for (const market of event.markets)
          for (const book of market.books) book.nextQuoteAt = now + this.random() * 1_500;
      }
      // The fair model drifts; live games drift faster and jump on scores, and books suspend after a score.
      const drift = event.live ? 0.012 : 0.0015;
      event.margin += this.gauss() * model.marginScale * drift * Math.sqrt(seconds);
      event.total += this.gauss() * model.totalScale * drift * Math.sqrt(seconds);
      if (event.live && this.random() < model.scoresPerSecond * seconds) {
        event.margin += (this.random() < 0.5 ? -1 : 1) * model.marginScale * (0.15 + this.random() * 0.25);
        event.total += model.totalScale * 0.1 * this.random();
        for (const market of event.markets) {
          for (const book of market.books) {
            if (this.random() < 0.45) {
              book.suspendedUntil = now + 2_000 + this.random() * 7_000;
              book.suspendedSent = false;
            }
          }
        }
      }
      for (const market of event.markets) {
        for (const book of market.books) {
          for (let k = 0; k < book.bias.length; k += 1) {
            book.bias[k] = book.bias[k]! * 0.998 + this.gauss() * 0.0015;
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
            out.push(...this.quote(event, market, book));
            book.nextQuoteAt = now + this.quoteGap(book, event);
          }
        }
      }
    }
    return out;
  }
}

/** Decimal → American as a book would quote it (integers; some books only in fives beyond ±150). */
export function toAmerican(decimal: number, roundToFive: boolean): number {
  let american = decimal >= 2 ? (decimal - 1) * 100 : -100 / (decimal - 1);
  const step = roundToFive && Math.abs(american) > 150 ? 5 : 1;
  american = Math.round(american / step) * step;
  if (american > -100 && american < 100) american = american >= 0 ? 100 : -100;
  return american;
}

/** The simulator as an engine source: steps on a timer (unref'd), stamping prices with the wall clock. */
export function simulatorSource(
  seed: number,
  options: { events?: number; stepMs?: number } = {},
): OddsSource {
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    name: 'simulator',
    start(context: SourceContext) {
      const sim = new MarketSimulator({
        seed,
        startMs: context.now(),
        events: options.events,
        stepMs: options.stepMs,
      });
      for (const message of sim.initial()) context.ingest(message);
      context.ready();
      timer = setInterval(() => {
        for (const message of sim.step()) context.ingest(message);
      }, options.stepMs ?? 250);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

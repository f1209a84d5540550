import { findPlayer, unknownPlayerDetail } from '#domain/grading.ts';
import { specOutcomeLabel } from '#domain/market-labels.ts';
import { floorTo } from '#domain/arbitrage.ts';
import { referenceFair, type MarketFair } from '#domain/history.ts';
import {
  LEAGUES,
  isGameMarketType,
  marketKey,
  type OddsEvent,
  type OutcomeKey,
  type Period,
  type PriceLinks,
} from '#domain/markets.ts';
import { formatAmericanAtMost, roundTo } from '#domain/odds.ts';
import {
  bookSgpDecimal,
  calibrateSgp,
  priceSgp,
  sgpConflicts,
  type SgpCalibration,
  type SgpMarginSchedule,
  type SgpModelLeg,
} from '#domain/sgp.ts';
import { hasScoreDistribution } from '#domain/sgp-scores.ts';
import type { GoalsMarket } from '#domain/soccer-goals.ts';
import type { SgpBookPrice, SgpLeg, SgpLegResult, SgpResponse } from '#domain/schemas/api/sgp.ts';
import type { SportsbookKey } from '#domain/sportsbooks.ts';
import type { SgpBooks } from '#engine/sources/types.ts';
import {
  BOOK_COUNT,
  bookSlot,
  priceAt,
  pricesOf,
  type EventState,
  type MarketState,
  type OddsStore,
  type StoredPrice,
} from '#engine/store.ts';
import { HttpProblem } from '../http/problem.ts';
import { fairDto, type FairChoice } from '../history-api/history-reads.ts';

// Same-game-parlay pricing on the live board (issue 16, decision 129): the legs of a request resolved to the store's
// markets, each leg's fair probability from the books' current prices (from the request's reference and
// de-vig method, as CLV's: decision 164), the joint probability from the models of src/domain/sgp.ts (the correlation model, decision
// 127; soccer's goals grid, decision 166; the other leagues' score distributions for full-game and first-part legs, decisions 287 and 296), and each book's
// parlay price: its own margin for that many legs applied to the joint, never a price that the same book's singles
// could arbitrage. Every refusal here happens before a credit is spent.

/**
 * How recently a price must have been received to count as offered now (decision 129): a polled source re-confirms
 * prices every poll, so the receipt time, not the book's change time, tells whether the book still offers it.
 */
export const SGP_PRICE_MAX_AGE_MS = { preMatch: 10 * 60_000, live: 60_000 } as const;

interface ResolvedLeg {
  market: MarketState;
  outcome: OutcomeKey;
  outcomeIndex: number;
  name: string;
  line: number | null;
  model: SgpModelLeg;
  fair: number;
  /** The leg's whole market, de-vigged: reference, method, books and inputs. */
  fairMarket: MarketFair;
}

function problem(
  status: number,
  code: string,
  title: string,
  detail: string,
  extras: Record<string, unknown> = {},
) {
  return new HttpProblem(status, code, title, detail, extras);
}

const invalidLeg = (index: number, detail: string) =>
  problem(422, 'sgp-invalid-leg', 'Invalid leg', `Leg ${index + 1}: ${detail}`, { legs: [index] });

function isOffered(price: StoredPrice, event: OddsEvent, now: number): boolean {
  const maxAge = event.live ? SGP_PRICE_MAX_AGE_MS.live : SGP_PRICE_MAX_AGE_MS.preMatch;
  return !price.suspended && now - price.receivedAt <= maxAge;
}

/** The market a leg names: by key (the event part optional), or by game-line type, line and period. */
function findMarket(store: OddsStore, eventState: EventState, leg: SgpLeg, index: number): MarketState {
  const eventId = eventState.event.id;
  if (leg.market.includes('|')) {
    if (leg.period !== undefined)
      throw invalidLeg(index, 'give `period` only with a market type, not a key.');
    const key = leg.market.startsWith(`${eventId}|`) ? leg.market : `${eventId}|${leg.market}`;
    const market = eventState.markets.get(key);
    if (market) return market;
    const other = store.market(leg.market);
    if (other && other.eventId !== eventId)
      throw problem(
        422,
        'sgp-conflicting-legs',
        'Legs that cannot be combined',
        `Leg ${index + 1} is of another event (${other.eventId}); a same-game parlay has legs of one event.`,
        { legs: [index] },
      );
    const named = playerOfKey(eventState, key, index);
    if (named !== undefined) return named;
    throw invalidLeg(index, `no current market ${JSON.stringify(leg.market.slice(0, 300))} in this event.`);
  }
  if (!isGameMarketType(leg.market))
    throw invalidLeg(
      index,
      `unknown market ${JSON.stringify(leg.market.slice(0, 50))}: give a market key, or moneyline, spread, total or 1x2.`,
    );
  const needsLine = leg.market === 'spread' || leg.market === 'total';
  if (needsLine && leg.line === undefined) throw invalidLeg(index, `a ${leg.market} needs its \`line\`.`);
  if (!needsLine && leg.line !== undefined) throw invalidLeg(index, `a ${leg.market} has no line.`);
  const period: Period = leg.period ?? 'full';
  const key = marketKey(eventId, { type: leg.market, period, point: needsLine ? leg.line! : null });
  const market = eventState.markets.get(key);
  if (!market) throw invalidLeg(index, `this event has no current ${key.slice(eventId.length + 1)} market.`);
  return market;
}

/**
 * A prop key the event has no market for (`<event>|prop|<stat>|<period>|<player>|<point>`): whom its player part names
 * among the players the event has props of, as POST /v1/grade finds a leg's player (`findPlayer`: the id, else a name
 * however it is written, decision 297). A player the event does not have, or two it has under that name: 422
 * `sgp-unknown-player`, saying so in `detail` with the players it may mean in `near_players` (`unknownPlayerDetail`,
 * the same words and players as the grade's `unknown_player`; decision 305). A name that finds one player: his market
 * of that stat, period and line, when the event has it. Undefined when the key is no prop key or names a player the
 * event has (the caller answers that the market is not current).
 */
function playerOfKey(eventState: EventState, key: string, index: number): MarketState | undefined {
  const eventId = eventState.event.id;
  const parts = key.slice(eventId.length + 1).split('|');
  if (parts.length !== 5 || parts[0] !== 'prop') return undefined;
  let player: string;
  try {
    player = decodeURIComponent(parts[3]!);
  } catch {
    player = parts[3]!;
  }
  // The players the event has props of now (id → name), as the grade looks among the players priced in the history.
  const players = new Map<string, string>();
  for (const market of eventState.markets.values())
    if (market.player && !players.has(market.player.id)) players.set(market.player.id, market.player.name);
  if (players.has(player)) return undefined;
  const found = findPlayer(player, players);
  if (found === undefined) {
    const unknown = unknownPlayerDetail(player.slice(0, 100), players, 'props');
    throw problem(422, 'sgp-unknown-player', 'Unknown player', `Leg ${index + 1}: ${unknown.detail}`, {
      legs: [index],
      near_players: unknown.near,
    });
  }
  parts[3] = encodeURIComponent(found);
  return eventState.markets.get(`${eventId}|${parts.join('|')}`);
}

/** The condition a side puts on the model's variable, and the line as the book shows that side. */
function modelSide(
  event: OddsEvent,
  market: MarketState,
  outcome: OutcomeKey,
): { model: Omit<SgpModelLeg, 'probability'>; line: number | null } {
  const spec = market.spec;
  const period = spec.period;
  if (spec.type === 'prop') {
    const team = market.player?.team;
    const side =
      team === 'home' || team === event.home.id
        ? 'home'
        : team === 'away' || team === event.away.id
          ? 'away'
          : null;
    return {
      model: {
        variable: { kind: 'player', playerId: spec.playerId, team: side, stat: spec.stat, period },
        side: outcome === 'over' || outcome === 'yes' ? 'high' : 'low',
        line: spec.point,
      },
      line: spec.point,
    };
  }
  switch (spec.type) {
    case 'moneyline':
    case '1x2':
      if (outcome === 'draw')
        return { model: { variable: { kind: 'draw', period }, side: 'high', line: null }, line: null };
      return {
        model: { variable: { kind: 'margin', period }, side: outcome === 'home' ? 'high' : 'low', line: 0 },
        line: null,
      };
    case 'spread': {
      // Home −3.5 wins when the margin is above 3.5; away +3.5 when it is below 3.5.
      const home = spec.point!;
      return {
        model: {
          variable: { kind: 'margin', period },
          side: outcome === 'home' ? 'high' : 'low',
          line: -home,
        },
        line: outcome === 'home' ? home : -home,
      };
    }
    case 'total':
      return {
        model: {
          variable: { kind: 'total', period },
          side: outcome === 'over' ? 'high' : 'low',
          line: spec.point,
        },
        line: spec.point,
      };
  }
}

/**
 * The leg's fair probability: the prices offered now of every side, from the reference and by the method of `choice`
 * (referenceFair: the consensus, the median implied probability per side across the books offering every side, when
 * the reference cannot give it).
 */
function legFair(
  event: OddsEvent,
  market: MarketState,
  outcomeIndex: number,
  now: number,
  choice: FairChoice,
): { probability: number; market: MarketFair } | null {
  const byBook = new Map<SportsbookKey, (number | undefined)[]>();
  market.outcomes.forEach((_, index) => {
    for (const price of pricesOf(market, index)) {
      if (!isOffered(price, event, now)) continue;
      let row = byBook.get(price.book);
      if (!row) byBook.set(price.book, (row = market.outcomes.map(() => undefined)));
      row[index] = price.decimal;
    }
  });
  const fair = referenceFair(
    [...byBook].map(([book, decimals]) => ({ book, decimals })),
    choice,
  );
  return fair ? { probability: fair.probabilities[outcomeIndex]!, market: fair } : null;
}

export function resolveLegs(
  store: OddsStore,
  eventState: EventState,
  legs: readonly SgpLeg[],
  now: number,
  choice: FairChoice,
): ResolvedLeg[] {
  const event = eventState.event;
  const resolved = legs.map((leg, index): ResolvedLeg => {
    const market = findMarket(store, eventState, leg, index);
    const outcomeIndex = market.outcomes.indexOf(leg.outcome);
    if (outcomeIndex < 0)
      throw invalidLeg(
        index,
        `${leg.outcome} is not a side of ${market.key} (${market.outcomes.join(', ')}).`,
      );
    const side = modelSide(event, market, leg.outcome);
    if (
      leg.market.includes('|') &&
      leg.line !== undefined &&
      leg.line !== side.line &&
      leg.line !== market.spec.point
    )
      throw invalidLeg(index, `line ${leg.line} is not this market's line (${side.line ?? 'none'}).`);
    const fair = legFair(event, market, outcomeIndex, now, choice);
    if (!fair || !(fair.probability > 0))
      throw problem(
        422,
        'sgp-leg-not-offered',
        'Leg not offered',
        fair
          ? `Leg ${index + 1}: its fair probability is 0 by the ${choice.method} method (its price is below its share of the margin), so it has no fair price.`
          : `Leg ${index + 1}: no book offers both sides of ${market.key} now, so it has no fair price.`,
        { legs: [index] },
      );
    return {
      market,
      outcome: leg.outcome,
      outcomeIndex,
      name: specOutcomeLabel(event, market.spec, leg.outcome, market.player),
      line: side.line,
      model: { ...side.model, probability: fair.probability },
      fair: fair.probability,
      fairMarket: fair.market,
    };
  });
  for (let i = 0; i < resolved.length; i += 1) {
    for (let j = i + 1; j < resolved.length; j += 1) {
      if (resolved[i]!.market === resolved[j]!.market && resolved[i]!.outcome === resolved[j]!.outcome)
        throw problem(
          422,
          'sgp-conflicting-legs',
          'Legs that cannot be combined',
          `Legs ${i + 1} and ${j + 1} are the same selection (${resolved[i]!.name}).`,
          { legs: [i, j] },
        );
    }
  }
  const conflicts = sgpConflicts(resolved.map((leg) => leg.model));
  if (conflicts.length > 0) {
    const { legs: pair, reason } = conflicts[0]!;
    throw problem(
      422,
      'sgp-conflicting-legs',
      'Legs that cannot be combined',
      `Legs ${pair[0] + 1} and ${pair[1] + 1} cannot both win (${resolved[pair[0]]!.name}; ${resolved[pair[1]]!.name}): ${reason}.`,
      { legs: pair, conflicts: conflicts.map((conflict) => conflict.legs) },
    );
  }
  return resolved;
}

/**
 * The event's calibration, cached per reference and method while its fair moneyline stays within 0.5 % (the route
 * keeps one per app).
 */
export class CalibrationCache {
  private readonly entries = new Map<
    string,
    { homeWin: number; goalsKey: string; calibration: SgpCalibration }
  >();

  get(eventState: EventState, now: number, choice: FairChoice): SgpCalibration {
    const event = eventState.event;
    const homeWin = homeWinProbability(eventState, now, choice);
    // Soccer: the goals model's inputs; a fit is refreshed whenever they change at all (it takes well under a
    // millisecond), so the fitted 1X2 and total are always the current fair ones.
    const goals = LEAGUES[event.league].sport === 'soccer' ? goalsMarketOf(eventState, now, choice) : null;
    // NFL, NBA, NCAAB, NHL, MLB: the fair total nearest even, which centres the score distributions' total when a
    // parlay has no total leg (decision 287).
    const scoresTotal = hasScoreDistribution(event.league) ? scoresTotalOf(eventState, now, choice) : null;
    const goalsKey = goals ? JSON.stringify(goals) : scoresTotal ? JSON.stringify(scoresTotal) : '';
    // One entry per event, reference and method: requests asking for different ones do not evict each other's.
    const key = `${event.id}\u0000${choice.reference}\u0000${choice.method}`;
    const cached = this.entries.get(key);
    if (cached && Math.abs(cached.homeWin - homeWin) < 0.005 && cached.goalsKey === goalsKey)
      return cached.calibration;
    if (this.entries.size > 5_000) this.entries.clear();
    const calibration = calibrateSgp(event.league, homeWin, goals, scoresTotal);
    this.entries.set(key, { homeWin, goalsKey, calibration });
    return calibration;
  }
}

/**
 * What a soccer match's goals model is fitted to (decision 166): the fair full-game 1X2 and the fair over of the
 * full-game total whose line is nearest 2.5 (the lower line on a tie), or no total when none is priced; null without
 * a priced 1X2. A whole or quarter line is fitted with its push or half results (`fitGoals`, decision 264).
 */
export function goalsMarketOf(eventState: EventState, now: number, choice: FairChoice): GoalsMarket | null {
  const event = eventState.event;
  const result = eventState.markets.get(marketKey(event.id, { type: '1x2', period: 'full', point: null }));
  if (!result) return null;
  const fair = legFair(event, result, 0, now, choice);
  if (!fair) return null;
  const byOutcome = (outcome: OutcomeKey) => fair.market.probabilities[result.outcomes.indexOf(outcome)]!;
  const [home, draw, away] = [byOutcome('home'), byOutcome('draw'), byOutcome('away')];
  if (![home, draw, away].every((p) => p > 0 && p < 1)) return null;
  let total: GoalsMarket['total'] = null;
  for (const market of eventState.markets.values()) {
    const spec = market.spec;
    if (spec.type !== 'total' || spec.period !== 'full' || spec.point === null) continue;
    if (!Number.isInteger(spec.point * 4) || spec.point <= 0) continue;
    if (total && Math.abs(spec.point - 2.5) > Math.abs(total.line - 2.5)) continue;
    if (total && Math.abs(spec.point - 2.5) === Math.abs(total.line - 2.5) && spec.point > total.line)
      continue;
    const over = legFair(event, market, market.outcomes.indexOf('over'), now, choice);
    if (over && over.probability > 0 && over.probability < 1)
      total = { line: spec.point, over: over.probability };
  }
  return { home, draw, away, total };
}

/**
 * The full-game total a league's score distributions are centred on when a parlay has no total leg (decision 287):
 * the fair over of the total line in half points whose fair over is nearest 0.5 (the main line; the lower line on a
 * tie), or null when none is priced.
 */
export function scoresTotalOf(
  eventState: EventState,
  now: number,
  choice: FairChoice,
): { line: number; over: number } | null {
  const event = eventState.event;
  let best: { line: number; over: number } | null = null;
  for (const market of eventState.markets.values()) {
    const spec = market.spec;
    if (spec.type !== 'total' || spec.period !== 'full' || spec.point === null) continue;
    if (!Number.isInteger(spec.point * 2) || spec.point <= 0) continue;
    const over = legFair(event, market, market.outcomes.indexOf('over'), now, choice);
    if (!over || !(over.probability > 0 && over.probability < 1)) continue;
    const distance = Math.abs(over.probability - 0.5);
    const bestDistance = best ? Math.abs(best.over - 0.5) : Number.POSITIVE_INFINITY;
    if (distance < bestDistance || (distance === bestDistance && best && spec.point < best.line))
      best = { line: spec.point, over: over.probability };
  }
  return best;
}

/** The fair probability that the home team wins the game (a 1X2's draw left out); 0.5 when nobody prices it. */
function homeWinProbability(eventState: EventState, now: number, choice: FairChoice): number {
  const event = eventState.event;
  const type = LEAGUES[event.league].hasDraws ? '1x2' : 'moneyline';
  const market = eventState.markets.get(marketKey(event.id, { type, period: 'full', point: null }));
  if (!market) return 0.5;
  const home = legFair(event, market, market.outcomes.indexOf('home'), now, choice);
  const away = legFair(event, market, market.outcomes.indexOf('away'), now, choice);
  return home && away ? home.probability / (home.probability + away.probability) : 0.5;
}

/** Probabilities to 6 significant digits: a 10-leg parlay's can be far below 10⁻⁶. */
const significant = (value: number) => Number(value.toPrecision(6));
/** Computed prices are shown in the bettor's disfavour (docs/decisions/160): American text rounded down. */
const american = formatAmericanAtMost;
/** A computed decimal price to 4 places, rounded down: never better than the exact one. */
const decimal4 = (decimal: number) => floorTo(decimal, 4);

/** The book's parlay price, or null when it does not offer every leg now. */
function bookPrice(
  book: SportsbookKey,
  schedule: SgpMarginSchedule,
  legs: readonly ResolvedLeg[],
  joint: number,
  naive: number,
  event: OddsEvent,
  now: number,
): SgpBookPrice | null {
  const legDecimals: number[] = [];
  const oppositeDecimals: (number | undefined)[] = [];
  const links: PriceLinks[] = [];
  for (const leg of legs) {
    const price = priceAt(leg.market, leg.outcomeIndex * BOOK_COUNT + bookSlot(book));
    if (!price || !isOffered(price, event, now)) return null;
    legDecimals.push(price.decimal);
    links.push(price.links);
    // The other side of the leg at this book (both others of a 1X2: the bet that covers the leg losing).
    let implied = 0;
    let complete = true;
    leg.market.outcomes.forEach((_, index) => {
      if (index === leg.outcomeIndex) return;
      const other = priceAt(leg.market, index * BOOK_COUNT + bookSlot(book));
      if (other && isOffered(other, event, now)) implied += 1 / other.decimal;
      else complete = false;
    });
    oppositeDecimals.push(complete && implied > 0 ? 1 / implied : undefined);
  }
  const decimal = bookSgpDecimal(joint, legs.length, schedule, { legDecimals, oppositeDecimals }, naive);
  return {
    book,
    price: american(decimal),
    decimal_odds: decimal,
    margin_pct: roundTo((1 / joint / decimal - 1) * 100, 2),
    legs: links.map((link) => ({ desktop: link.desktop, mobile: link.mobile })),
  };
}

/** Prices resolved legs: the model's joint probability, the naive product, and each book's parlay price. */
export function priceParlay(
  calibration: SgpCalibration,
  eventState: EventState,
  legs: readonly ResolvedLeg[],
  sgp: SgpBooks | undefined,
  books: ReadonlySet<SportsbookKey> | undefined,
  sourceName: string,
  now: number,
): Omit<SgpResponse, 'credits' | 'reference' | 'devig'> {
  const event = eventState.event;
  const { probability: joint, model } = priceSgp(
    calibration,
    legs.map((leg) => leg.model),
  );
  const naive = legs.reduce((product, leg) => product * leg.fair, 1);
  const prices: SgpBookPrice[] = [];
  if (sgp) {
    for (const [book, schedule] of sgp.books) {
      if (books && !books.has(book)) continue;
      const price = bookPrice(book, schedule, legs, joint, naive, event, now);
      if (price) prices.push(price);
    }
    prices.sort((a, b) => b.decimal_odds - a.decimal_odds || (a.book < b.book ? -1 : 1));
  }
  const note = !sgp
    ? `The ${sourceName} source carries no same-game-parlay prices: only the fair price is given.`
    : prices.length === 0
      ? 'No book offers every leg of this parlay now.'
      : null;
  const legResults: SgpLegResult[] = legs.map((leg) => ({
    market: leg.market.key,
    outcome: leg.outcome,
    name: leg.name,
    line: leg.line,
    fair_probability: significant(leg.fair),
    fair_decimal_odds: decimal4(1 / leg.fair),
    books: leg.fairMarket.books.length,
    fair: fairDto(leg.fairMarket, leg.market.outcomes),
  }));
  return {
    event_id: event.id,
    legs: legResults,
    fair: {
      probability: significant(joint),
      decimal_odds: decimal4(1 / joint),
      price: american(1 / joint),
      model,
    },
    naive: { probability: significant(naive), decimal_odds: decimal4(1 / naive) },
    correlation_ratio: roundTo(joint / naive, 4),
    prices,
    prices_note: note,
  };
}

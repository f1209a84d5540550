import type { LeagueKey, Period } from '#domain/markets.ts';
import { isPropStatKey, oddsApiMarketKey, PROP_CATALOGUE, type PropStatKey } from '#domain/props.ts';
import { MAX_ROSTER } from '../ingest.ts';
import type { PriceMessage } from '../messages.ts';
import {
  BOOKMAKER_KEYS,
  eventMessageOf,
  fillLink,
  type ApiBookmaker,
  type ApiMarket,
  type ApiOutcome,
} from './the-odds-api.ts';

// Player props from The Odds API (issue 15, decision 123): its event-odds endpoint
// (`GET /v4/sports/{sport}/events/{eventId}/odds?markets=player_points,…`) answers one event object whose prop
// outcomes name the player in `description` ("Over"/"Under" with a `point`, or "Yes"/"No", sometimes "Yes" alone).
// This module maps that answer onto engine messages and holds the prop poller's budget: which events are due, and how
// many credits the last 24 hours spent. The polling itself lives in the source (the-odds-api.ts).

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

type StatPeriod = { stat: PropStatKey; period: Period };

/** The Odds API market key → the stat and period, per league: only what the league's catalogue offers. */
const MARKET_KEYS = new Map<LeagueKey, ReadonlyMap<string, StatPeriod>>();
for (const league of Object.keys(PROP_CATALOGUE) as LeagueKey[]) {
  const keys = new Map<string, StatPeriod>();
  for (const def of PROP_CATALOGUE[league])
    for (const period of def.periods) keys.set(oddsApiMarketKey(def.key, period), { stat: def.key, period });
  MARKET_KEYS.set(league, keys);
}

/** The prop market keys asked for in one league (the catalogue's stats, each in each period it offers). */
export function propMarketKeys(league: LeagueKey): string[] {
  return [...(MARKET_KEYS.get(league)?.keys() ?? [])];
}

/** The stat and period of an Odds API market key in a league; undefined when the league's catalogue lacks it. */
export function parsePropMarketKey(league: LeagueKey, key: string): StatPeriod | undefined {
  const found = MARKET_KEYS.get(league)?.get(key);
  return found && isPropStatKey(found.stat) ? found : undefined;
}

/**
 * A player's id from the name The Odds API gives him (`description`): `toa:` and the name in lower case, accents
 * stripped, apostrophes and periods removed, every other run of non-alphanumerics as one hyphen. The same spelling
 * always gives the same id, across polls and across bookmakers (the API spells a player one way for all of them).
 * Deliberately lighter than the matcher's normalisation: generational suffixes are kept ("Gary Payton II" is not
 * "Gary Payton"), so two players are never merged into one id; a book spelling a name differently gets another id,
 * and its props then pair with nobody's (a lost prop, never a wrong-player arb).
 */
export function toaPlayerId(description: string): string {
  const core = description
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’‘`´.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
  return `toa:${core || 'x'}`;
}

const PROP_OUTCOMES: Readonly<Record<string, string>> = {
  Over: 'over',
  Under: 'under',
  Yes: 'yes',
  No: 'no',
};

function playerName(description: unknown): string | null {
  if (typeof description !== 'string') return null;
  const name = description.trim();
  return name === '' ? null : name;
}

/**
 * Maps one event-odds answer onto engine messages: the event with its roster (every distinct player named by a mapped
 * bookmaker's mapped prop market, team unknown: the API gives none), then one prop price per outcome. A market key
 * the league's catalogue lacks is passed on as a price of that market, so the engine counts it (`unknown_market`),
 * as the game-line mapping does. `players` is the roster's size; `markets` the distinct market keys answered.
 */
export function mapEventPropsResponse(
  league: LeagueKey,
  body: unknown,
  now: number,
): { messages: unknown[]; players: number; markets: number } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { messages: [{ kind: 'malformed-response' }], players: 0, markets: 0 };
  const raw = body as Record<string, unknown>;
  const event = eventMessageOf(league, raw, now);
  const { sourceEventId } = event;
  const roster = new Map<string, { id: string; name: string }>();
  const prices: unknown[] = [];
  const answered = new Set<string>();
  const bookmakers = Array.isArray(raw.bookmakers) ? (raw.bookmakers as ApiBookmaker[]) : [];
  for (const bookmaker of bookmakers) {
    const book = typeof bookmaker?.key === 'string' ? BOOKMAKER_KEYS[bookmaker.key] : undefined;
    if (!book || !Array.isArray(bookmaker.markets)) continue;
    for (const market of bookmaker.markets as ApiMarket[]) {
      const key = typeof market?.key === 'string' ? market.key : String(market?.key);
      answered.add(key);
      const prop = parsePropMarketKey(league, key);
      if (!prop) {
        prices.push({ kind: 'price', sourceEventId, book, market: key, outcome: '' });
        continue;
      }
      const outcomes = Array.isArray(market.outcomes) ? (market.outcomes as ApiOutcome[]) : [];
      const updated = market.last_update ?? bookmaker.last_update;
      for (const outcome of outcomes) {
        const name = playerName(outcome?.description);
        const id = name === null ? null : toaPlayerId(name);
        if (name !== null && id !== null && !roster.has(id)) roster.set(id, { id, name });
        const link = fillLink(book, outcome?.link ?? market.link ?? bookmaker.link);
        const side = typeof outcome?.name === 'string' ? PROP_OUTCOMES[outcome.name] : undefined;
        const message: PriceMessage = {
          kind: 'price',
          sourceEventId,
          book,
          market: 'prop',
          stat: prop.stat,
          period: prop.period,
          // No team: the API names none. Without a name the engine refuses the price (malformed) and counts it.
          player: id === null ? { name: '' } : { id, name: name! },
          point: typeof outcome?.point === 'number' ? outcome.point : null,
          outcome: side ?? String(outcome?.name),
          american: outcome?.price as number,
          links: { desktop: link, mobile: link },
        };
        if (typeof updated === 'string' || typeof updated === 'number') message.updatedAt = updated;
        prices.push(message);
      }
    }
  }
  const players = [...roster.values()];
  const messages: unknown[] = [];
  // A roster longer than one event message may carry goes in several (the engine's roster only grows).
  if (players.length === 0) messages.push(event);
  for (let start = 0; start < players.length; start += MAX_ROSTER)
    messages.push({ ...event, players: players.slice(start, start + MAX_ROSTER) });
  messages.push(...prices);
  return { messages, players: players.length, markets: answered.size };
}

/** An event the prop poller may ask for: from the league's last game-line answer. */
export interface PropCandidate {
  league: LeagueKey;
  /** The Odds API's event id (checked: it goes into a URL path). */
  id: string;
  startsAt: number;
}

const EVENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The events of a league's game-line answer that props could be asked for (a usable id and start time). */
export function propCandidates(league: LeagueKey, body: unknown): PropCandidate[] {
  if (!Array.isArray(body)) return [];
  const out: PropCandidate[] = [];
  for (const raw of body as Record<string, unknown>[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const startsAt = typeof raw.commence_time === 'string' ? Date.parse(raw.commence_time) : Number.NaN;
    if (typeof raw.id !== 'string' || !EVENT_ID.test(raw.id) || !Number.isFinite(startsAt)) continue;
    out.push({ league, id: raw.id, startsAt });
  }
  return out;
}

/**
 * How often an event's props are polled, by how soon it starts (decision 123): every minute in its last hour (the
 * API's own prop update interval: faster only repeats it), every 5 minutes from 6 hours out, every 30 minutes from
 * the window's edge; every 5 minutes while live (the engine's live age limit, ARB_MAX_AGE_LIVE_S, makes a minute-old
 * live prop unusable for arbs anyway). Outside the window: never.
 */
export const PROP_CADENCE = {
  lastHourMs: MINUTE_MS,
  sixHoursMs: 5 * MINUTE_MS,
  windowMs: 30 * MINUTE_MS,
  liveMs: 5 * MINUTE_MS,
} as const;

/**
 * The share of the 24-hour budget each tier may draw on (decision 123): a call is made only while what the last 24
 * hours spent, plus the call's highest cost, stays within `share × budget`. The tiers far from the start stop first,
 * so the polls a day ahead can never eat what the last hour and live play need.
 */
export const PROP_BUDGET_SHARE = { lastHour: 1, live: 1, sixHours: 0.6, window: 0.3 } as const;

export interface PropCadence {
  everyMs: number;
  /** Priority within a cycle, lower first: the last hour, live, within 6 hours, the rest of the window. */
  rank: number;
  /** The share of the budget this tier may draw on. */
  share: number;
}

/** How often an event's props are polled now, its priority and budget share; null when it is not polled. */
export function propCadence(startsAt: number, now: number, windowMs: number): PropCadence | null {
  const until = startsAt - now;
  if (until <= 0) return { everyMs: PROP_CADENCE.liveMs, rank: 1, share: PROP_BUDGET_SHARE.live };
  if (until > windowMs) return null;
  if (until <= HOUR_MS)
    return { everyMs: PROP_CADENCE.lastHourMs, rank: 0, share: PROP_BUDGET_SHARE.lastHour };
  if (until <= 6 * HOUR_MS)
    return { everyMs: PROP_CADENCE.sixHoursMs, rank: 2, share: PROP_BUDGET_SHARE.sixHours };
  return { everyMs: PROP_CADENCE.windowMs, rank: 3, share: PROP_BUDGET_SHARE.window };
}

/** One prop call as the budget counts it. */
export interface PropCall {
  at: number;
  league: LeagueKey;
  eventId: string;
  /** Credits the call cost: `x-requests-last` when the API sends it, else markets answered × regions. */
  cost: number;
}

const DAY_MS = 24 * HOUR_MS;

/** The credits prop calls spent over the last 24 hours (a rolling window: no midnight reset mid-slate). */
export class PropLedger {
  private calls: PropCall[] = [];

  record(call: PropCall): void {
    this.calls.push(call);
  }

  /** The calls of the last 24 hours, oldest first. */
  recent(now: number): readonly PropCall[] {
    const from = now - DAY_MS;
    if (this.calls.length > 0 && this.calls[0]!.at <= from)
      this.calls = this.calls.filter((c) => c.at > from);
    return this.calls;
  }

  spent(now: number): number {
    let total = 0;
    for (const call of this.recent(now)) total += call.cost;
    return total;
  }
}

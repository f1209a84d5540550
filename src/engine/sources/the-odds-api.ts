import type { LeagueKey } from '#domain/markets.ts';
import { SPORTSBOOKS, type SportsbookKey } from '#domain/sportsbooks.ts';
import { DEFAULT_MAX_PAYLOAD_BYTES, parsePayload, timerDelay } from '../ingest.ts';
import type { PriceMessage, ScoreMessage } from '../messages.ts';
import { abbreviationFor } from './teams.ts';
import {
  mapEventPropsResponse,
  propCadence,
  propCandidates,
  PropLedger,
  propMarketKeys,
  type PropCadence,
  type PropCandidate,
} from './the-odds-api-props.ts';
import type { OddsSource, SourceContext } from './types.ts';

// ODDS_SOURCE=the-odds-api: polls The Odds API v4 (`GET /v4/sports/{sport}/odds`, regions us,us2, markets
// h2h,spreads,totals, American odds, includeLinks=true) for each covered league, maps bookmakers onto the catalogue,
// honours `x-requests-remaining` and 429s, and backs off exponentially on failures. Bodies are capped before
// parsing. See docs/decisions/043-the-odds-api-source.md.
// Player props (decision 123): after the game lines, the events starting within `propsWindowMs` (and live ones) are
// polled one by one on the event-odds endpoint for the league's prop markets, nearer the start more often, at most
// `propsMaxEvents` a cycle, within `propsBudget` credits per 24 hours, and never once `x-requests-remaining` is below
// `propsReserve` (the game lines keep what is left).
// Scores (decision 262): after the game lines, each league with a game started and not yet final is polled on the
// scores endpoint (`GET /v4/sports/{sport}/scores?daysFrom=3`, 2 credits a call) at most every `scoresIntervalMs`
// (the low-quota interval once fewer than `lowQuota` credits are left): a game in play gets a live `score` message
// when its score changes, a completed one its final. The endpoint gives each team's total and nothing else, so those
// messages say `periodScores: false` (period bets stay ungraded). A started game that leaves the odds answer before
// its final is kept (its `end` held) until the scores endpoint completes it, at most `finalWaitMs`.

export const SPORT_KEYS: Readonly<Record<LeagueKey, string>> = {
  nba: 'basketball_nba',
  ncaab: 'basketball_ncaab',
  nfl: 'americanfootball_nfl',
  mlb: 'baseball_mlb',
  nhl: 'icehockey_nhl',
  epl: 'soccer_epl',
  mls: 'soccer_usa_mls',
};

/** The Odds API bookmaker key → catalogue key. Bookmakers outside the catalogue are skipped (not counted as bad). */
export const BOOKMAKER_KEYS: Readonly<Record<string, SportsbookKey>> = {
  fanduel: 'fanduel',
  draftkings: 'draftkings',
  betmgm: 'betmgm',
  williamhill_us: 'caesars',
  caesars: 'caesars',
  betrivers: 'betrivers',
  bovada: 'bodog',
  betonlineag: 'betonline',
  espnbet: 'espn',
  fanatics: 'fanatics',
  fliff: 'fliff',
  hardrockbet: 'hardrock',
  ballybet: 'ballybet',
  betparx: 'betparx',
  circasports: 'circa',
};

export interface TheOddsApiOptions {
  apiKey: string;
  baseUrl?: string;
  /** Seconds between polls of all leagues while the quota lasts. */
  intervalMs?: number;
  /** Poll no faster than this once fewer than `lowQuota` requests remain. */
  lowQuotaIntervalMs?: number;
  lowQuota?: number;
  maxBackoffMs?: number;
  maxBytes?: number;
  timeoutMs?: number;
  leagues?: readonly LeagueKey[];
  /** Credits the prop calls may spend over any 24 hours (ODDS_API_PROPS_BUDGET); 0 turns props off. */
  propsBudget?: number;
  /** Props are polled only while fewer than this many credits are left unspent (ODDS_API_PROPS_RESERVE). */
  propsReserve?: number;
  /** Props are polled for events starting within this window, and for live ones (ODDS_API_PROPS_WINDOW_H). */
  propsWindowMs?: number;
  /** At most this many prop calls a cycle (ODDS_API_PROPS_MAX_EVENTS). */
  propsMaxEvents?: number;
  /** Least time between two scores calls of a league (ODDS_API_SCORES_INTERVAL_S); 0 turns scores off. */
  scoresIntervalMs?: number;
  /** How long a started game gone from the odds answer waits for its final before it is ended without one. */
  finalWaitMs?: number;
}

/** The scores endpoint's documented shape (every field unchecked). */
export interface ApiScore {
  id?: unknown;
  sport_key?: unknown;
  commence_time?: unknown;
  completed?: unknown;
  home_team?: unknown;
  away_team?: unknown;
  scores?: unknown;
  last_update?: unknown;
}

/** A team's points in a scores answer (`[{name, score}]`, the score as text); null when missing or not a count. */
function pointsOf(scores: unknown, team: unknown): number | null {
  if (!Array.isArray(scores)) return null;
  const entry = (scores as { name?: unknown; score?: unknown }[]).find((s) => s?.name === team);
  const text = typeof entry?.score === 'number' ? String(entry.score) : entry?.score;
  return typeof text === 'string' && /^\d{1,3}$/.test(text) ? Number(text) : null;
}

/**
 * The engine's score messages of a scores answer, for the games in `wanted` (by source event id): a completed game's
 * final, a started one's live score; a game without scores yet (not started) or not wanted gives none.
 */
export function mapScoresResponse(body: unknown, wanted: ReadonlySet<string>): ScoreMessage[] {
  if (!Array.isArray(body)) return [];
  const out: ScoreMessage[] = [];
  for (const raw of body as ApiScore[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const sourceEventId = `toa-${String(raw.id)}`;
    if (!wanted.has(sourceEventId)) continue;
    const home = pointsOf(raw.scores, raw.home_team);
    const away = pointsOf(raw.scores, raw.away_team);
    if (home === null || away === null) continue;
    const message: ScoreMessage = {
      kind: 'score',
      sourceEventId,
      status: raw.completed === true ? 'final' : 'live',
      home,
      away,
      clock: null,
      periodScores: false,
    };
    if (typeof raw.last_update === 'string') message.updatedAt = raw.last_update;
    out.push(message);
  }
  return out;
}

/** Regions asked for: each one multiplies a call's cost (game lines: markets × regions; props: markets answered × regions). */
export const REGIONS = ['us', 'us2'] as const;

/** The documented shapes of its answers, every field unchecked (the props' event-odds answer shares them). */
export interface ApiOutcome {
  name?: unknown;
  /** Player props: the player's name. */
  description?: unknown;
  price?: unknown;
  point?: unknown;
  link?: unknown;
}
export interface ApiMarket {
  key?: unknown;
  last_update?: unknown;
  link?: unknown;
  outcomes?: unknown;
}
export interface ApiBookmaker {
  key?: unknown;
  last_update?: unknown;
  link?: unknown;
  markets?: unknown;
}
export interface ApiEvent {
  id?: unknown;
  commence_time?: unknown;
  home_team?: unknown;
  away_team?: unknown;
  bookmakers?: unknown;
}

const MARKETS: Readonly<Record<string, 'moneyline' | 'spread' | 'total'>> = {
  h2h: 'moneyline',
  spreads: 'spread',
  totals: 'total',
};

/** Fills the placeholders we can fill (`{state}` → the book's default state); the engine refuses what remains. */
export function fillLink(book: SportsbookKey, link: unknown): string | null {
  if (typeof link !== 'string' || link === '') return null;
  const state = SPORTSBOOKS[book].defaultState;
  return state ? link.replace(/\{state\}/g, state) : link;
}

/** The engine's event message for one event of an answer (the game-line list, or one event's props). */
export function eventMessageOf(league: LeagueKey, raw: ApiEvent, now: number) {
  const home = typeof raw.home_team === 'string' ? raw.home_team : '';
  const away = typeof raw.away_team === 'string' ? raw.away_team : '';
  const startsAt = typeof raw.commence_time === 'string' ? Date.parse(raw.commence_time) : Number.NaN;
  return {
    kind: 'event' as const,
    sourceEventId: `toa-${String(raw.id)}`,
    league,
    home: { name: home, abbreviation: abbreviationFor(home) },
    away: { name: away, abbreviation: abbreviationFor(away) },
    startsAt: raw.commence_time,
    live: Number.isFinite(startsAt) && startsAt <= now,
  };
}

/** Maps one league's response onto engine messages (events, prices). Events absent from it are returned as ended. */
export function mapOddsResponse(
  league: LeagueKey,
  body: unknown,
  now: number,
): { messages: unknown[]; ids: string[] } {
  const messages: unknown[] = [];
  const ids: string[] = [];
  if (!Array.isArray(body)) return { messages: [{ kind: 'malformed-response' }], ids };
  const draws = league === 'epl' || league === 'mls';
  for (const raw of body as ApiEvent[]) {
    if (typeof raw !== 'object' || raw === null) {
      messages.push(raw);
      continue;
    }
    const event = eventMessageOf(league, raw, now);
    const { sourceEventId } = event;
    const home = event.home.name;
    const away = event.away.name;
    ids.push(sourceEventId);
    messages.push(event);
    if (!Array.isArray(raw.bookmakers)) continue;
    for (const bookmaker of raw.bookmakers as ApiBookmaker[]) {
      const book = typeof bookmaker?.key === 'string' ? BOOKMAKER_KEYS[bookmaker.key] : undefined;
      if (!book || !Array.isArray(bookmaker.markets)) continue;
      for (const market of bookmaker.markets as ApiMarket[]) {
        const type = typeof market?.key === 'string' ? MARKETS[market.key] : undefined;
        const outcomes = Array.isArray(market?.outcomes) ? (market.outcomes as ApiOutcome[]) : [];
        if (!type) {
          messages.push({ kind: 'price', sourceEventId, book, market: String(market?.key), outcome: '' });
          continue;
        }
        const threeWay = type === 'moneyline' && (draws || outcomes.some((o) => o?.name === 'Draw'));
        const updated = market.last_update ?? bookmaker.last_update;
        for (const outcome of outcomes) {
          const name = outcome?.name;
          const key =
            name === home
              ? 'home'
              : name === away
                ? 'away'
                : name === 'Draw'
                  ? 'draw'
                  : name === 'Over'
                    ? 'over'
                    : name === 'Under'
                      ? 'under'
                      : String(name);
          const link = fillLink(book, outcome?.link ?? market.link ?? bookmaker.link);
          const message: PriceMessage = {
            kind: 'price',
            sourceEventId,
            book,
            market: threeWay ? '1x2' : type,
            point: typeof outcome?.point === 'number' ? outcome.point : null,
            outcome: key,
            american: outcome?.price as number,
            links: { desktop: link, mobile: link },
          };
          // Passed on as sent (ISO text, or a number): the engine checks it like every time (decision 045).
          if (typeof updated === 'string' || typeof updated === 'number') message.updatedAt = updated;
          messages.push(message);
        }
      }
    }
  }
  return { messages, ids };
}

/** Reads a body up to `maxBytes`; null when it is larger (the rest is not read). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** An answer's body read (at most `maxBytes`, the rest not read) and parsed: its value, or why it was dropped. */
async function readPayload(response: Response, maxBytes: number): Promise<ReturnType<typeof parsePayload>> {
  const bytes = await readCapped(response, maxBytes).catch(() => null);
  return bytes === null ? { ok: false, reason: 'payload_too_large' } : parsePayload(bytes, maxBytes);
}

/** A 429's Retry-After in milliseconds; 0 when it names no positive number of seconds. */
function retryAfter(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

export class TheOddsApiSource implements OddsSource {
  readonly name = 'the-odds-api' as const;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private abort = new AbortController();
  private failures = 0;
  private readonly known = new Map<LeagueKey, Set<string>>();
  private readonly options: Required<TheOddsApiOptions>;
  /** Last `x-requests-remaining` seen (null until the first answer). */
  remaining: number | null = null;
  /** The events whose props may be polled, per league (from its last game-line answer). */
  private readonly propEvents = new Map<LeagueKey, PropCandidate[]>();
  /** When each event's props were last asked for. */
  private readonly propPolledAt = new Map<string, number>();
  private propsPausedUntil = 0;
  /** Every prop call of the last 24 hours and its cost. */
  readonly propLedger = new PropLedger();
  /** Started games of each league awaiting their final: source id → start (unix ms). */
  private readonly started = new Map<LeagueKey, Map<string, number>>();
  /** Started games gone from the odds answer, their `end` held until their final: source id → when it was held. */
  private readonly held = new Map<string, number>();
  /** When each league's scores were last asked for. */
  private readonly scoresPolledAt = new Map<LeagueKey, number>();
  /** The last score sent per game (its text), so a message goes out only on a change. */
  private readonly scoreSent = new Map<string, string>();
  private scoresPausedUntil = 0;

  constructor(options: TheOddsApiOptions) {
    this.options = {
      baseUrl: 'https://api.the-odds-api.com',
      intervalMs: 30_000,
      lowQuotaIntervalMs: 300_000,
      lowQuota: 50,
      maxBackoffMs: 300_000,
      maxBytes: DEFAULT_MAX_PAYLOAD_BYTES,
      timeoutMs: 15_000,
      leagues: Object.keys(SPORT_KEYS) as LeagueKey[],
      propsBudget: 10_000,
      propsReserve: 10_000,
      propsWindowMs: 24 * 3_600_000,
      propsMaxEvents: 8,
      scoresIntervalMs: 60_000,
      finalWaitMs: 6 * 3_600_000,
      ...options,
    };
  }

  /** One GET of the API, given up on stop or after `timeoutMs`; notes the `x-requests-remaining` it answers with. */
  private async get(url: string): Promise<Response> {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.options.timeoutMs)]),
    });
    const remaining = Number(response.headers.get('x-requests-remaining'));
    if (response.headers.has('x-requests-remaining') && Number.isFinite(remaining))
      this.remaining = remaining;
    return response;
  }

  url(league: LeagueKey): string {
    const url = new URL(`/v4/sports/${SPORT_KEYS[league]}/odds`, this.options.baseUrl);
    url.searchParams.set('apiKey', this.options.apiKey);
    url.searchParams.set('regions', REGIONS.join(','));
    url.searchParams.set('markets', 'h2h,spreads,totals');
    url.searchParams.set('oddsFormat', 'american');
    url.searchParams.set('dateFormat', 'iso');
    url.searchParams.set('includeLinks', 'true');
    return url.toString();
  }

  /** Polls every league once; returns the delay before the next cycle (backoff, quota and 429 aware). */
  async pollOnce(context: SourceContext, afterLines?: () => void): Promise<number> {
    let retryAfterMs = 0;
    let failed = false;
    for (const league of this.options.leagues) {
      if (this.stopped) return this.options.intervalMs;
      if (this.remaining !== null && this.remaining <= 0) break;
      let response: Response;
      try {
        response = await this.get(this.url(league));
      } catch (error) {
        if (this.stopped) return this.options.intervalMs;
        failed = true;
        context.log.warn(
          { league, err: error instanceof Error ? error.message : String(error) },
          'odds api unreachable',
        );
        break;
      }
      if (response.status === 429) {
        retryAfterMs = retryAfter(response);
        failed = true;
        await response.body?.cancel();
        context.log.warn({ league, retryAfterMs }, 'odds api rate limited (429)');
        break;
      }
      if (!response.ok) {
        failed = true;
        await response.body?.cancel();
        context.log.warn({ league, status: response.status }, 'odds api error');
        if (response.status === 401) break;
        continue;
      }
      const parsed = await readPayload(response, this.options.maxBytes);
      if (!parsed.ok) {
        context.drop(parsed.reason);
        continue;
      }
      const now = context.now();
      const { messages, ids } = mapOddsResponse(league, parsed.value, now);
      for (const message of messages) context.ingest(message);
      const current = new Set(ids);
      const started = this.startedOf(league);
      for (const message of messages) {
        const event = message as {
          kind?: unknown;
          sourceEventId?: string;
          live?: boolean;
          startsAt?: unknown;
        };
        const id = event.sourceEventId;
        // A game in play, once: its final (when sent) ends the wait for it.
        if (event.kind === 'event' && event.live && id && !started.has(id) && !this.finalSent(id))
          started.set(id, Date.parse(String(event.startsAt)));
      }
      for (const id of this.known.get(league) ?? []) {
        if (current.has(id)) continue;
        // A started game gone from the odds: its end waits for its final (scores on).
        if (this.options.scoresIntervalMs > 0 && started.has(id)) this.held.set(id, now);
        else this.end(context, league, id);
      }
      this.known.set(league, current);
      this.propEvents.set(league, propCandidates(league, parsed.value));
    }
    // The first cycle's readiness need not wait for the props (up to propsMaxEvents calls, one after another).
    afterLines?.();
    if (!failed && !this.stopped) await this.pollScores(context);
    if (!failed && !this.stopped) await this.pollProps(context);
    if (failed) {
      this.failures += 1;
      const backoff = Math.min(this.options.intervalMs * 2 ** (this.failures - 1), this.options.maxBackoffMs);
      return Math.max(backoff, retryAfterMs);
    }
    this.failures = 0;
    if (this.remaining !== null && this.remaining <= 0) return this.options.maxBackoffMs;
    if (this.remaining !== null && this.remaining < this.options.lowQuota)
      return this.options.lowQuotaIntervalMs;
    return this.options.intervalMs;
  }

  private startedOf(league: LeagueKey): Map<string, number> {
    let started = this.started.get(league);
    if (!started) this.started.set(league, (started = new Map()));
    return started;
  }

  private finalSent(id: string): boolean {
    return this.scoreSent.get(id)?.startsWith('final|') === true;
  }

  /** The game is over for this source: its `end`, and nothing more is awaited of it. */
  private end(context: SourceContext, league: LeagueKey, id: string): void {
    context.ingest({ kind: 'end', sourceEventId: id });
    this.started.get(league)?.delete(id);
    this.held.delete(id);
    this.scoreSent.delete(id);
  }

  /** The scores URL of a league: the last three days' games and the live ones (2 credits). */
  scoresUrl(league: LeagueKey): string {
    const url = new URL(`/v4/sports/${SPORT_KEYS[league]}/scores`, this.options.baseUrl);
    url.searchParams.set('apiKey', this.options.apiKey);
    url.searchParams.set('daysFrom', '3');
    url.searchParams.set('dateFormat', 'iso');
    return url.toString();
  }

  /**
   * One cycle of scores calls (decision 262): each league with a started game awaiting its final, once its interval
   * (the low-quota one when credits run low) has passed since its last call. Live scores go out when they change,
   * finals once; a held game whose final came is ended, one held longer than `finalWaitMs` is ended without it. A 429
   * pauses scores (Retry-After, else two intervals); another failure leaves them for the next cycle.
   */
  async pollScores(context: SourceContext): Promise<void> {
    const { scoresIntervalMs, finalWaitMs, lowQuota, lowQuotaIntervalMs } = this.options;
    if (scoresIntervalMs <= 0) return;
    const now = context.now();
    for (const [id, since] of this.held) {
      if (now - since < finalWaitMs) continue;
      const league = [...this.started].find(([, ids]) => ids.has(id))?.[0];
      context.log.info({ event: id }, 'odds api game ended without a final score');
      if (league) this.end(context, league, id);
      else this.held.delete(id);
    }
    if (now < this.scoresPausedUntil) return;
    const every =
      this.remaining !== null && this.remaining < lowQuota ? lowQuotaIntervalMs : scoresIntervalMs;
    for (const league of this.options.leagues) {
      const started = this.started.get(league);
      if (this.stopped || !started || started.size === 0) continue;
      if (this.remaining !== null && this.remaining <= 0) return;
      const last = this.scoresPolledAt.get(league);
      if (last !== undefined && now - last < every) continue;
      this.scoresPolledAt.set(league, now);
      let response: Response;
      try {
        response = await this.get(this.scoresUrl(league));
      } catch (error) {
        if (this.stopped) return;
        context.log.warn(
          { league, err: error instanceof Error ? error.message : String(error) },
          'odds api scores unreachable',
        );
        return;
      }
      if (response.status === 429) {
        this.scoresPausedUntil = now + (retryAfter(response) || scoresIntervalMs * 2);
        await response.body?.cancel();
        context.log.warn({ league }, 'odds api scores rate limited (429)');
        return;
      }
      if (!response.ok) {
        await response.body?.cancel();
        context.log.warn({ league, status: response.status }, 'odds api scores error');
        continue;
      }
      const parsed = await readPayload(response, this.options.maxBytes);
      if (!parsed.ok) {
        context.drop(parsed.reason);
        continue;
      }
      for (const message of mapScoresResponse(parsed.value, new Set(started.keys()))) {
        const text = `${message.status}|${message.home}-${message.away}`;
        if (this.scoreSent.get(message.sourceEventId) === text) continue;
        this.scoreSent.set(message.sourceEventId, text);
        context.ingest(message);
        if (message.status !== 'final') continue;
        // Final: nothing more is awaited; a game already gone from the odds ends now.
        started.delete(message.sourceEventId);
        if (this.held.has(message.sourceEventId)) this.end(context, league, message.sourceEventId);
      }
    }
  }

  /** The event-odds URL of one event's props (the league's catalogue keys, American odds, links). */
  propsUrl(league: LeagueKey, eventId: string): string {
    const url = new URL(
      `/v4/sports/${SPORT_KEYS[league]}/events/${encodeURIComponent(eventId)}/odds`,
      this.options.baseUrl,
    );
    url.searchParams.set('apiKey', this.options.apiKey);
    url.searchParams.set('regions', REGIONS.join(','));
    url.searchParams.set('markets', propMarketKeys(league).join(','));
    url.searchParams.set('oddsFormat', 'american');
    url.searchParams.set('dateFormat', 'iso');
    url.searchParams.set('includeLinks', 'true');
    return url.toString();
  }

  /** The events whose props are due now, most urgent first (last hour, live, within 6 hours, the rest). */
  propsDue(now: number): { candidate: PropCandidate; cadence: PropCadence }[] {
    const due: { candidate: PropCandidate; cadence: PropCadence }[] = [];
    const current = new Set<string>();
    for (const league of this.options.leagues) {
      for (const candidate of this.propEvents.get(league) ?? []) {
        current.add(candidate.id);
        const cadence = propCadence(candidate.startsAt, now, this.options.propsWindowMs);
        if (!cadence) continue;
        const last = this.propPolledAt.get(candidate.id);
        if (last !== undefined && now - last < cadence.everyMs) continue;
        due.push({ candidate, cadence });
      }
    }
    for (const id of this.propPolledAt.keys()) if (!current.has(id)) this.propPolledAt.delete(id);
    due.sort((a, b) => a.cadence.rank - b.cadence.rank || a.candidate.startsAt - b.candidate.startsAt);
    return due;
  }

  /**
   * One cycle of prop calls (decision 123): the due events, at most `propsMaxEvents`, each only while the reserve holds
   * and its highest possible cost (markets asked × regions) fits what the last 24 hours left of its tier's share of the
   * budget. A 429 pauses props (Retry-After, else two intervals); other failures skip the event until its next turn.
   */
  async pollProps(context: SourceContext): Promise<void> {
    const { propsBudget, propsReserve, propsMaxEvents } = this.options;
    const now = context.now();
    if (propsBudget <= 0 || now < this.propsPausedUntil) return;
    let calls = 0;
    let overBudget = 0;
    for (const { candidate, cadence } of this.propsDue(now)) {
      if (this.stopped || calls >= propsMaxEvents) break;
      if (this.remaining !== null && this.remaining < propsReserve) {
        context.log.info(
          { remaining: this.remaining, reserve: propsReserve },
          'odds api props paused: quota reserve',
        );
        break;
      }
      const { league, id } = candidate;
      const maxCost = propMarketKeys(league).length * REGIONS.length;
      if (this.propLedger.spent(now) + maxCost > propsBudget * cadence.share) {
        overBudget += 1;
        continue;
      }
      calls += 1;
      this.propPolledAt.set(id, now);
      let response: Response;
      try {
        response = await this.get(this.propsUrl(league, id));
      } catch (error) {
        if (this.stopped) return;
        context.log.warn(
          { league, event: id, err: error instanceof Error ? error.message : String(error) },
          'odds api props unreachable',
        );
        return;
      }
      const last = Number(response.headers.get('x-requests-last'));
      const billed =
        response.headers.has('x-requests-last') && Number.isFinite(last) && last >= 0 ? last : null;
      if (response.status === 429) {
        const pauseMs = retryAfter(response) || this.options.intervalMs * 2;
        this.propsPausedUntil = now + pauseMs;
        this.propLedger.record({ at: now, league, eventId: id, cost: billed ?? 0 });
        await response.body?.cancel();
        context.log.warn({ league, event: id, pauseMs }, 'odds api props rate limited (429)');
        return;
      }
      if (!response.ok) {
        this.propLedger.record({ at: now, league, eventId: id, cost: billed ?? 0 });
        await response.body?.cancel();
        context.log.warn({ league, event: id, status: response.status }, 'odds api props error');
        if (response.status === 401) return;
        continue;
      }
      const parsed = await readPayload(response, this.options.maxBytes);
      if (!parsed.ok) {
        this.propLedger.record({ at: now, league, eventId: id, cost: billed ?? maxCost });
        context.drop(parsed.reason);
        continue;
      }
      const { messages, markets } = mapEventPropsResponse(league, parsed.value, context.now());
      this.propLedger.record({ at: now, league, eventId: id, cost: billed ?? markets * REGIONS.length });
      for (const message of messages) context.ingest(message);
    }
    if (overBudget > 0)
      context.log.info(
        { skipped: overBudget, spent: this.propLedger.spent(now), budget: propsBudget },
        'odds api props skipped: 24-hour budget',
      );
  }

  start(context: SourceContext): void {
    this.stopped = false;
    this.abort = new AbortController();
    let signalled = false;
    const cycle = async (first: boolean) => {
      let delay: number;
      try {
        delay = await this.pollOnce(context, () => {
          if (first && !signalled) {
            signalled = true;
            context.ready();
          }
        });
      } catch (error) {
        context.log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'odds api poll failed',
        );
        delay = this.options.intervalMs;
      }
      if (first && !signalled) context.ready();
      if (this.stopped) return;
      // The delay may come from the API (Retry-After): clamped to what a Node timer honours (decision 048).
      this.timer = setTimeout(() => void cycle(false), timerDelay(delay));
      this.timer.unref?.();
    };
    void cycle(true);
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

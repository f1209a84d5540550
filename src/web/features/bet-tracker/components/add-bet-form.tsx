import { useId, useRef, useState, type FormEvent } from 'react';
import {
  americanText,
  betId,
  legNeedsLine,
  legOutcomes,
  MAX_PARLAY_LEGS,
  parseOddsInput,
  parseTrackedBet,
  type BetProp,
  type LegMarket,
  type ParlayLeg,
  type TrackedBet,
} from '#domain/bet-tracker.ts';
import {
  formatPoint,
  LEAGUES,
  PERIOD_LABELS,
  PERIODS,
  type LeagueKey,
  type OutcomeKey,
  type Period,
} from '#domain/markets.ts';
import type { OddsFormat } from '#domain/odds-format.ts';
import { PROP_CATALOGUE, propOutcomeLabel, type PropStatKey } from '#domain/props.ts';
import { SPORTSBOOK_KEYS, SPORTSBOOKS } from '#domain/sportsbooks.ts';
import { parseStake } from '#domain/wagers.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';
import { Button } from '#web/ui/button.tsx';

// A bet typed by hand (issue 57; props and parlays, decision 282): a single on a game line or a player prop (player,
// stat, line, over/under or yes/no), or a parlay of 2 to 12 such legs at one price. League, teams and the game's date
// find its game in the results (the team names as the results spell them: the fields suggest them; a prop's player by
// his name), the price in the bettor's odds format, the stake in dollars.

const MARKETS = [
  { value: 'moneyline', label: 'Moneyline' },
  { value: 'spread', label: 'Spread' },
  { value: 'total', label: 'Total' },
  { value: '1x2', label: '1X2 (with a draw)' },
  { value: 'prop', label: 'Player prop' },
] as const satisfies readonly { value: LegMarket; label: string }[];

const OUTCOME_NAMES: Record<OutcomeKey, string> = {
  home: 'Home team',
  away: 'Away team',
  draw: 'Draw',
  over: 'Over',
  under: 'Under',
  yes: 'Yes',
  no: 'No',
};

export const FORMAT_HINTS: Record<OddsFormat, string> = {
  american: 'American, e.g. -110 or +150',
  decimal: 'decimal, e.g. 1.91',
  fractional: 'fractional, e.g. 10/11',
  probability: 'implied probability, e.g. 52.4%',
};

const field =
  'h-10 w-full min-w-0 rounded-md border border-slate-600 bg-slate-950 px-2 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-300';
const label = 'flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-300';

function selectionText(
  market: LegMarket,
  outcome: OutcomeKey,
  home: string,
  away: string,
  line: number | null,
  prop: BetProp | undefined,
  period: Period,
) {
  if (prop)
    return propOutcomeLabel(
      { name: prop.player },
      { type: 'prop', stat: prop.stat, period, playerId: prop.player, point: line },
      outcome as 'over' | 'under' | 'yes' | 'no',
    );
  if (outcome === 'over' || outcome === 'under') return `${outcome === 'over' ? 'Over' : 'Under'} ${line}`;
  if (outcome === 'draw') return 'Draw';
  const team = outcome === 'home' ? home : away;
  return market === 'spread' && line !== null ? `${team} ${formatPoint(line)}` : team;
}

type Get = (name: string) => string;

/** The leg the fields describe, or why not (in words). */
function readLeg(get: Get, format: OddsFormat, legPrice: boolean): ParlayLeg | string {
  const league = get('league') as LeagueKey;
  const home = get('home');
  const away = get('away');
  const market = get('market') as LegMarket;
  const outcome = get('outcome') as OutcomeKey;
  const period = get('period') as Period;
  const date = get('date');
  if (!LEAGUES[league]) return 'Choose the league.';
  if (!home || !away) return 'Type both teams.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return 'Choose the game’s date.';
  let prop: BetProp | undefined;
  if (market === 'prop') {
    const player = get('player');
    const stat = get('stat') as PropStatKey;
    if (!player) return 'Type the player’s name as the results spell it.';
    if (!PROP_CATALOGUE[league].some((def) => def.key === stat)) return 'Choose the stat.';
    prop = { stat, player, player_id: null };
  }
  const needsLine = legNeedsLine(market, prop);
  const lineText = get('line');
  const line = needsLine ? Number(lineText) : null;
  if (needsLine && (lineText === '' || !Number.isFinite(line) || !Number.isInteger((line ?? 0) * 4)))
    return 'Type the line of the side you bet, in steps of 0.25 (e.g. -3.5, 44.5).';
  if (!legOutcomes(market, prop).includes(outcome)) return 'Choose the side.';
  let decimal: number | null = null;
  if (legPrice && get('leg_price') !== '') {
    decimal = parseOddsInput(get('leg_price'), format);
    if (decimal === null) return `Type the leg’s own price as ${FORMAT_HINTS[format]}, or leave it empty.`;
  }
  return {
    sport: LEAGUES[league].sport,
    league,
    event_id: null,
    home,
    away,
    // Noon UTC of the game's date: a game that day in any time zone starts within a day of it.
    starts_at: `${date}T12:00:00.000Z`,
    market,
    period,
    line,
    outcome,
    selection: selectionText(market, outcome, home, away, line, prop, period),
    ...(prop ? { prop } : {}),
    decimal_odds: decimal,
    result: null,
  };
}

export function AddBetForm({
  format,
  teams,
  players,
  onAdd,
}: {
  format: OddsFormat;
  /** Team names of the recent results, suggested in the team fields. */
  teams: readonly string[];
  /** Player names of the recent box scores, suggested in the player field. */
  players: readonly string[];
  onAdd: (bet: TrackedBet) => void;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const [mode, setMode] = useState<'single' | 'parlay'>('single');
  const [league, setLeague] = useState<LeagueKey>('nba');
  const [market, setMarket] = useState<LegMarket>('moneyline');
  const [stat, setStat] = useState<PropStatKey>(PROP_CATALOGUE.nba[0]!.key);
  const [legs, setLegs] = useState<ParlayLeg[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const stats = PROP_CATALOGUE[league];
  const statDef = stats.find((def) => def.key === stat) ?? stats[0]!;
  const prop: BetProp | undefined =
    market === 'prop' ? { stat: statDef.key, player: '-', player_id: null } : undefined;
  const needsLine = legNeedsLine(market, prop);
  const periods: readonly Period[] = market === 'prop' ? statDef.periods : PERIODS;
  const parlay = mode === 'parlay';

  function values(): Get {
    const data = new FormData(form.current!);
    return (name: string) => String(data.get(name) ?? '').trim();
  }

  function addLeg() {
    setAdded(null);
    if (legs.length >= MAX_PARLAY_LEGS) return setError(`A parlay has at most ${MAX_PARLAY_LEGS} legs.`);
    const leg = readLeg(values(), format, true);
    if (typeof leg === 'string') return setError(leg);
    setError(null);
    setLegs([...legs, leg]);
    setAdded(`Leg ${legs.length + 1} added: ${leg.selection}, ${leg.away} @ ${leg.home}.`);
    for (const name of ['away', 'home', 'line', 'player', 'leg_price']) {
      const input = form.current!.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = '';
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const get = values();
    setAdded(null);
    let base: Omit<TrackedBet, 'id'>;
    const decimal = parseOddsInput(get('price'), format);
    const stake = parseStake(get('stake'));
    const placedAt = new Date().toISOString();
    if (parlay) {
      if (legs.length < 2) return setError('Add at least two legs (“Add leg”), then the parlay.');
      if (decimal === null) return setError(`Type the parlay’s price as ${FORMAT_HINTS[format]}.`);
      if (stake === null || stake <= 0) return setError('Type the stake in dollars, more than $0.');
      const sports = new Set(legs.map((leg) => leg.sport));
      base = {
        group: null,
        kind: 'parlay',
        placed_at: placedAt,
        sport: sports.size === 1 ? legs[0]!.sport : 'mixed',
        league: new Set(legs.map((leg) => leg.league)).size === 1 ? legs[0]!.league : '',
        event_id: null,
        home: '',
        away: '',
        starts_at: null,
        market: 'parlay',
        period: 'full',
        line: null,
        outcome: null,
        selection: `${legs.length}-leg parlay`,
        book: get('book'),
        decimal_odds: decimal,
        american_odds: americanText(decimal),
        stake,
        legs,
        settlement: null,
      };
    } else {
      const leg = readLeg(get, format, false);
      if (typeof leg === 'string') return setError(leg);
      if (decimal === null) return setError(`Type the price as ${FORMAT_HINTS[format]}.`);
      if (stake === null || stake <= 0) return setError('Type the stake in dollars, more than $0.');
      const { decimal_odds: _none, result: _open, ...single } = leg;
      base = {
        ...single,
        group: null,
        kind: 'manual',
        placed_at: placedAt,
        book: get('book'),
        decimal_odds: decimal,
        american_odds: americanText(decimal),
        stake,
        settlement: null,
      };
    }
    const bet = parseTrackedBet({ id: betId(base), ...base });
    if (!bet) return setError('This bet cannot be tracked: check every field.');
    setError(null);
    onAdd(bet);
    setAdded(
      parlay
        ? `Added: ${bet.selection} at ${bet.american_odds}.`
        : `Added: ${bet.selection}, ${bet.away} @ ${bet.home}.`,
    );
    form.current!.reset();
    setLegs([]);
    setMarket('moneyline');
    setLeague('nba');
  }

  return (
    <form ref={form} onSubmit={submit} aria-describedby={`${id}-help`} noValidate>
      <p id={`${id}-help`} className="text-sm text-slate-400">
        It grades itself when a final of that league with these teams (spelled as in the results), within a
        day of that date, is in the results (a prop: with the player as the box score names him); otherwise
        settle it by hand in the list.
      </p>
      <fieldset disabled={!hydrated} className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-200">
        <legend className="sr-only">Bet type</legend>
        {(['single', 'parlay'] as const).map((value) => (
          <label key={value} className="inline-flex items-center gap-2">
            <input
              type="radio"
              name="mode"
              value={value}
              checked={mode === value}
              onChange={() => {
                setMode(value);
                setError(null);
                setAdded(null);
              }}
              className="size-4 accent-emerald-400"
            />
            {value === 'single' ? 'Single bet' : 'Parlay (2 or more legs, one price)'}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={!hydrated} className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <legend className="sr-only">{parlay ? 'The next leg' : 'The bet'}</legend>
        <div className={label}>
          <label htmlFor={`${id}-league`}>League</label>
          <select
            id={`${id}-league`}
            name="league"
            className={field}
            value={league}
            onChange={(event) => {
              const next = event.target.value as LeagueKey;
              setLeague(next);
              setStat(PROP_CATALOGUE[next][0]!.key);
            }}
          >
            {Object.values(LEAGUES).map((one) => (
              <option key={one.key} value={one.key}>
                {one.name}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${id}-date`}>Game date</label>
          <input id={`${id}-date`} name="date" type="date" className={field} required />
        </div>
        <div className={label}>
          <label htmlFor={`${id}-away`}>Away team</label>
          <input
            id={`${id}-away`}
            name="away"
            className={field}
            list={`${id}-teams`}
            autoComplete="off"
            required
          />
        </div>
        <div className={label}>
          <label htmlFor={`${id}-home`}>Home team</label>
          <input
            id={`${id}-home`}
            name="home"
            className={field}
            list={`${id}-teams`}
            autoComplete="off"
            required
          />
        </div>
        <datalist id={`${id}-teams`}>
          {teams.map((team) => (
            <option key={team} value={team} />
          ))}
        </datalist>
        <div className={label}>
          <label htmlFor={`${id}-market`}>Market</label>
          <select
            id={`${id}-market`}
            name="market"
            className={field}
            value={market}
            onChange={(event) => setMarket(event.target.value as LegMarket)}
          >
            {MARKETS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        {market === 'prop' ? (
          <>
            <div className={label}>
              <label htmlFor={`${id}-player`}>Player</label>
              <input
                id={`${id}-player`}
                name="player"
                className={field}
                list={`${id}-players`}
                autoComplete="off"
                required
              />
              <datalist id={`${id}-players`}>
                {players.map((player) => (
                  <option key={player} value={player} />
                ))}
              </datalist>
            </div>
            <div className={label}>
              <label htmlFor={`${id}-stat`}>Stat</label>
              <select
                id={`${id}-stat`}
                name="stat"
                className={field}
                value={statDef.key}
                onChange={(event) => setStat(event.target.value as PropStatKey)}
              >
                {stats.map((def) => (
                  <option key={def.key} value={def.key}>
                    {def.label}
                  </option>
                ))}
              </select>
            </div>
          </>
        ) : null}
        <div className={label}>
          <label htmlFor={`${id}-period`}>Period</label>
          <select
            id={`${id}-period`}
            name="period"
            className={field}
            defaultValue="full"
            key={periods.join()}
          >
            {periods.map((period) => (
              <option key={period} value={period}>
                {PERIOD_LABELS[period] || 'Full game'}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${id}-outcome`}>Side</label>
          <select id={`${id}-outcome`} name="outcome" className={field} key={`${market}-${statDef.kind}`}>
            {legOutcomes(market, prop).map((outcome) => (
              <option key={outcome} value={outcome}>
                {OUTCOME_NAMES[outcome]}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${id}-line`}>
            {needsLine ? 'Line of your side' : 'Line (none for this market)'}
          </label>
          <input
            id={`${id}-line`}
            name="line"
            type="number"
            step={0.25}
            inputMode="decimal"
            className={field}
            disabled={!needsLine}
            required={needsLine}
          />
        </div>
        {parlay ? (
          <>
            <div className={label}>
              <label htmlFor={`${id}-leg-price`}>Leg price (optional)</label>
              <input
                id={`${id}-leg-price`}
                name="leg_price"
                className={field}
                inputMode="text"
                autoComplete="off"
                aria-describedby={`${id}-leg-price-help`}
              />
            </div>
            <div className="col-span-2 flex items-end sm:col-span-1">
              <Button type="button" variant="secondary" className="w-full" onClick={addLeg}>
                Add leg
              </Button>
            </div>
            <p id={`${id}-leg-price-help`} className="col-span-2 text-xs text-slate-400 sm:col-span-4">
              A leg’s own price reprices the parlay when that leg pushes or is void (the books’ rule); a
              pushed or void leg typed without one makes the whole parlay void.
            </p>
          </>
        ) : null}
      </fieldset>
      {parlay ? (
        <div className="mt-3">
          <h3 className="text-sm font-semibold text-white">Legs ({legs.length})</h3>
          {legs.length === 0 ? (
            <p className="mt-1 text-sm text-slate-400">No legs yet: fill in a leg above and press Add leg.</p>
          ) : (
            <ol className="mt-1 space-y-1 text-sm text-slate-200" aria-label="Parlay legs">
              {legs.map((leg, index) => (
                <li key={index} className="flex flex-wrap items-center gap-2">
                  <span className="min-w-0 break-words">
                    {index + 1}. {leg.selection}, {leg.away} @ {leg.home}
                    {leg.decimal_odds !== null ? ` (${americanText(leg.decimal_odds)})` : ''}
                  </span>
                  <button
                    type="button"
                    onClick={() => setLegs(legs.filter((_, k) => k !== index))}
                    className="h-8 rounded-md border border-slate-700 bg-slate-900 px-2.5 text-xs text-slate-200 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300"
                  >
                    Remove<span className="sr-only"> leg {index + 1}</span>
                  </button>
                </li>
              ))}
            </ol>
          )}
        </div>
      ) : null}
      <fieldset disabled={!hydrated} className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <legend className="sr-only">{parlay ? 'The parlay' : 'Price and stake'}</legend>
        <div className={label}>
          <label htmlFor={`${id}-book`}>Sportsbook</label>
          <select id={`${id}-book`} name="book" className={field} defaultValue={SPORTSBOOK_KEYS[0]}>
            {SPORTSBOOK_KEYS.map((key) => (
              <option key={key} value={key}>
                {SPORTSBOOKS[key].displayName}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${id}-price`}>
            {parlay ? 'Parlay price' : 'Price'} ({FORMAT_HINTS[format]})
          </label>
          <input
            id={`${id}-price`}
            name="price"
            className={field}
            inputMode="text"
            autoComplete="off"
            required
          />
        </div>
        <div className={label}>
          <label htmlFor={`${id}-stake`}>Stake ($)</label>
          <input
            id={`${id}-stake`}
            name="stake"
            type="number"
            min={0.01}
            step={0.01}
            inputMode="decimal"
            className={field}
            required
          />
        </div>
        <div className="flex items-end">
          <Button type="submit" className="w-full">
            {parlay ? 'Add parlay' : 'Add bet'}
          </Button>
        </div>
      </fieldset>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-amber-200">
          {error}
        </p>
      ) : null}
      {added ? (
        <p role="status" className="mt-2 text-sm text-emerald-300">
          {added}
        </p>
      ) : null}
    </form>
  );
}

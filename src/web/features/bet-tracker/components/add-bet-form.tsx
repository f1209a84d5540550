import { useId, useState, type FormEvent } from 'react';
import {
  americanText,
  betId,
  parseOddsInput,
  TrackedBetSchema,
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
import { SPORTSBOOK_KEYS, SPORTSBOOKS } from '#domain/sportsbooks.ts';
import { parseStake } from '#domain/wagers.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';
import { Button } from '#web/ui/button.tsx';

// A bet typed by hand (issue 57): league, teams, market, period, line, side, book, price in the bettor's odds format,
// stake and the game's date. It grades itself when a final of that league with those teams, within a day of that
// date, is in the results (the team names as the results spell them: the fields suggest them).

const MARKETS = [
  { value: 'moneyline', label: 'Moneyline' },
  { value: 'spread', label: 'Spread' },
  { value: 'total', label: 'Total' },
  { value: '1x2', label: '1X2 (with a draw)' },
] as const;
type Market = (typeof MARKETS)[number]['value'];

const OUTCOMES: Record<Market, readonly { value: OutcomeKey; label: string }[]> = {
  moneyline: [
    { value: 'home', label: 'Home team' },
    { value: 'away', label: 'Away team' },
  ],
  spread: [
    { value: 'home', label: 'Home team' },
    { value: 'away', label: 'Away team' },
  ],
  total: [
    { value: 'over', label: 'Over' },
    { value: 'under', label: 'Under' },
  ],
  '1x2': [
    { value: 'home', label: 'Home team' },
    { value: 'draw', label: 'Draw' },
    { value: 'away', label: 'Away team' },
  ],
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

function selectionText(market: Market, outcome: OutcomeKey, home: string, away: string, line: number | null) {
  if (outcome === 'over' || outcome === 'under') return `${outcome === 'over' ? 'Over' : 'Under'} ${line}`;
  if (outcome === 'draw') return 'Draw';
  const team = outcome === 'home' ? home : away;
  return market === 'spread' && line !== null ? `${team} ${formatPoint(line)}` : team;
}

export function AddBetForm({
  format,
  teams,
  onAdd,
}: {
  format: OddsFormat;
  /** Team names of the recent results, suggested in the team fields. */
  teams: readonly string[];
  onAdd: (bet: TrackedBet) => void;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const [market, setMarket] = useState<Market>('moneyline');
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const needsLine = market === 'spread' || market === 'total';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const get = (name: string) => String(data.get(name) ?? '').trim();
    const league = get('league') as LeagueKey;
    const home = get('home');
    const away = get('away');
    const outcome = get('outcome') as OutcomeKey;
    const period = get('period') as Period;
    const lineText = get('line');
    const line = needsLine ? Number(lineText) : null;
    const decimal = parseOddsInput(get('price'), format);
    const stake = parseStake(get('stake'));
    const date = get('date');
    setAdded(null);
    if (!LEAGUES[league]) return setError('Choose the league.');
    if (!home || !away) return setError('Type both teams.');
    if (needsLine && (lineText === '' || !Number.isFinite(line) || !Number.isInteger((line ?? 0) * 4)))
      return setError('Type the line of the side you bet, in steps of 0.25 (e.g. -3.5, 44.5).');
    if (decimal === null) return setError(`Type the price as ${FORMAT_HINTS[format]}.`);
    if (stake === null || stake <= 0) return setError('Type the stake in dollars, more than $0.');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return setError('Choose the game’s date.');
    const base: Omit<TrackedBet, 'id'> = {
      group: null,
      kind: 'manual',
      placed_at: new Date().toISOString(),
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
      selection: selectionText(market, outcome, home, away, line),
      book: get('book'),
      decimal_odds: decimal,
      american_odds: americanText(decimal),
      stake,
      settlement: null,
    };
    const parsed = TrackedBetSchema.safeParse({ id: betId(base), ...base });
    if (!parsed.success) return setError('This bet cannot be tracked: check every field.');
    setError(null);
    onAdd(parsed.data);
    setAdded(`Added: ${parsed.data.selection}, ${away} @ ${home}.`);
    form.reset();
    setMarket('moneyline');
  }

  return (
    <form onSubmit={submit} aria-describedby={`${id}-help`} noValidate>
      <p id={`${id}-help`} className="text-sm text-slate-400">
        It grades itself when a final of that league with these teams (spelled as in the results), within a
        day of that date, is in the results; otherwise settle it by hand in the list.
      </p>
      <fieldset disabled={!hydrated} className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <legend className="sr-only">The bet</legend>
        <div className={label}>
          <label htmlFor={`${id}-league`}>League</label>
          <select id={`${id}-league`} name="league" className={field} defaultValue="nba">
            {Object.values(LEAGUES).map((league) => (
              <option key={league.key} value={league.key}>
                {league.name}
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
            onChange={(event) => setMarket(event.target.value as Market)}
          >
            {MARKETS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${id}-period`}>Period</label>
          <select id={`${id}-period`} name="period" className={field} defaultValue="full">
            {PERIODS.map((period) => (
              <option key={period} value={period}>
                {PERIOD_LABELS[period] || 'Full game'}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${id}-outcome`}>Side</label>
          <select id={`${id}-outcome`} name="outcome" className={field} key={market}>
            {OUTCOMES[market].map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
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
          <label htmlFor={`${id}-price`}>Price ({FORMAT_HINTS[format]})</label>
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
            Add bet
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

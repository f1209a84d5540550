import { useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import {
  americanText,
  awaitsClose,
  BET_KIND_LABELS,
  betsFromFile,
  betsToCsv,
  betIssues,
  betsToJson,
  closesWanted,
  legClvPct,
  settleByHand,
  settleFromResults,
  summarize,
  TrackerFileError,
  type Breakdown,
  type ParlayLeg,
  type Totals,
  type TrackedBet,
} from '#domain/bet-tracker.ts';
import type { ClosingMarket } from '#domain/closing.ts';
import type { GradeResult } from '#domain/grading.ts';
import { PERIOD_LABELS } from '#domain/markets.ts';
import { formatOdds, type OddsFormat } from '#domain/odds-format.ts';
import { RESULTS_WINDOW_DAYS } from '#domain/plans.ts';
import type { ResultsFeed } from '#domain/schemas/results-feed.ts';
import { SITE } from '#domain/site.ts';
import { bookName } from '#web/components/finder.tsx';
import { ToolKeyBox } from '#web/components/tool-key-box.tsx';
import { formatDollars, signedDollars } from '#web/lib/finder-view.ts';
import { useStoredKey } from '#web/lib/key-store.ts';
import { KeyedFeedError } from '#web/lib/keyed-fetch.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';
import { cn } from '#web/lib/cn.ts';
import { Button } from '#web/ui/button.tsx';
import { gradeWithKey } from '../api/grade.ts';
import { fetchCloses, fetchResults } from '../api/results.ts';
import { trackedBets, useTrackedBets } from '#web/lib/tracked-bets.ts';
import { AddBetForm } from './add-bet-form.tsx';
import { ProfitChart } from './profit-chart.tsx';

// The bet tracker page (issue 57, decision 257): bets tracked from the finder rows or typed by hand, kept in this
// browser (localStorage) only. Open bets are graded in the browser against the public results (GET /tools/results.json,
// checked on load, every RESULTS_EVERY_MS while a bet is open, and on demand) with the rules of src/domain/grading.ts;
// with a key, POST /v1/grade grades them too, with CLV against the close. The summary, chart and files are the
// domain's (src/domain/bet-tracker.ts).

const RESULTS_EVERY_MS = 60_000;

const RESULT_NAMES: Record<GradeResult, string> = {
  won: 'Won',
  lost: 'Lost',
  push: 'Push',
  void: 'Void',
  half_won: 'Half won',
  half_lost: 'Half lost',
};
const SETTLED_BY_NAMES = { results: 'by the results', api: 'by the API', hand: 'by you' } as const;
const MARKET_NAMES: Record<TrackedBet['market'], string> = {
  moneyline: 'Moneyline',
  spread: 'Spread',
  total: 'Total',
  '1x2': '1X2',
  prop: 'Player prop',
  parlay: 'Parlay',
};

const pct = (value: number | null) => (value === null ? '—' : `${value > 0 ? '+' : ''}${value.toFixed(2)}%`);

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

interface ResultsState {
  feed: ResultsFeed | null;
  checkedAt: number | null;
  error: string | null;
  checking: boolean;
}

/**
 * Reads the public results and settles every open bet they decide: on load, and every RESULTS_EVERY_MS while a bet is
 * open or a parlay lost early waits on its other games' close (decision 297).
 */
function useResultsGrading(openCount: number, bets: readonly TrackedBet[]) {
  const [state, setState] = useState<ResultsState>({
    feed: null,
    checkedAt: null,
    error: null,
    checking: false,
  });
  /** The finals' closes read so far, by event id (a final's close does not change). */
  const closes = useRef(new Map<string, ClosingMarket[]>());
  const check = useCallback(async () => {
    setState((old) => ({ ...old, checking: true }));
    try {
      const feed = await fetchResults();
      // The closes of the finals the open bets are on, and of the games started that a parlay lost early waits on
      // (decision 310), then every bet those decide, with its CLV (decision 289). A started game's close is used for
      // this check only: asked again next time, until its final's is read and kept.
      const wanted = closesWanted(trackedBets.get(), feed.games, closes.current, feed.generated_at * 1000);
      const finals = new Set(feed.games.map((game) => game.event_id));
      const started = new Map<string, ClosingMarket[]>();
      if (wanted.length > 0)
        for (const [id, markets] of await fetchCloses(wanted))
          (finals.has(id) ? closes.current : started).set(id, markets);
      const bets = trackedBets.get();
      const next = settleFromResults(
        bets,
        feed.games,
        started.size > 0 ? new Map([...started, ...closes.current]) : closes.current,
      );
      if (next !== bets) trackedBets.set(next);
      setState({ feed, checkedAt: Date.now(), error: null, checking: false });
    } catch (error) {
      setState((old) => ({
        ...old,
        checking: false,
        error: error instanceof Error ? error.message : 'The results could not be read.',
      }));
    }
  }, []);
  const hydrated = useHydrated();
  useEffect(() => {
    if (!hydrated) return;
    void check();
  }, [hydrated, check]);
  useEffect(() => {
    if (!hydrated) return;
    // The results' own time (the server's clock), as the list below judges it.
    const at = state.feed?.generated_at ?? Date.now();
    if (openCount === 0 && !bets.some((bet) => awaitsClose(bet, at))) return;
    const timer = setInterval(() => void check(), RESULTS_EVERY_MS);
    return () => clearInterval(timer);
  }, [hydrated, openCount, bets, state.feed, check]);
  return { ...state, check };
}

export function BetTracker({ format }: { format: OddsFormat }) {
  const titleId = useId();
  const bets = useTrackedBets();
  const hydrated = useHydrated();
  const summary = useMemo(() => summarize(bets), [bets]);
  const results = useResultsGrading(summary.totals.open, bets);
  const apiKey = useStoredKey();
  const [keyError, setKeyError] = useState<KeyedFeedError | undefined>(undefined);
  const [gradeNote, setGradeNote] = useState<string | null>(null);
  const [grading, setGrading] = useState(false);
  const [fileNote, setFileNote] = useState<{ text: string; error: boolean } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const teams = useMemo(
    () => [...new Set(results.feed?.games.flatMap((game) => [game.home_team, game.away_team]) ?? [])].sort(),
    [results.feed],
  );
  const players = useMemo(
    () =>
      [
        ...new Set(
          results.feed?.games.flatMap((game) =>
            (game.players ?? []).flatMap((player) => (player.name ? [player.name] : [])),
          ) ?? [],
        ),
      ].sort(),
    [results.feed],
  );

  async function gradeThroughApi() {
    if (!apiKey) return;
    setGrading(true);
    setGradeNote(null);
    try {
      const answer = await gradeWithKey(trackedBets.get(), apiKey);
      // Bets changed meanwhile (a settle, a delete) keep their change: only the graded ones are replaced.
      const graded = new Map(answer.bets.map((bet) => [bet.id, bet]));
      trackedBets.set(
        trackedBets
          .get()
          .map((bet) => (bet.settlement?.settled_by === 'hand' ? bet : (graded.get(bet.id) ?? bet))),
      );
      setKeyError(undefined);
      setGradeNote(
        answer.sent === 0
          ? 'No bet to send: bets typed by hand (and parlays with a leg typed by hand) have no event id, and bets you settled stay as you settled them.'
          : `The API graded ${answer.graded} of ${answer.sent} ${answer.sent === 1 ? 'bet' : 'bets'}; the others are not final yet.`,
      );
    } catch (error) {
      if (error instanceof KeyedFeedError) setKeyError(error);
      else setGradeNote('The API could not be reached.');
    } finally {
      setGrading(false);
    }
  }

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      if (file.size > 5_000_000) throw new TrackerFileError('The file is larger than 5 MB.');
      const incoming = betsFromFile(await file.text());
      const merged = trackedBets.add(incoming);
      setFileNote({
        text: `Imported ${merged.added} ${merged.added === 1 ? 'bet' : 'bets'} from ${file.name}${merged.skipped > 0 ? `; ${merged.skipped} already tracked, not added again` : ''}.`,
        error: false,
      });
      if (merged.added > 0) void results.check();
    } catch (error) {
      setFileNote({
        text: `Nothing imported from ${file.name}: ${error instanceof TrackerFileError ? error.message : 'the file could not be read.'}`,
        error: true,
      });
    }
  }

  const stamp = new Date().toISOString().slice(0, 10);
  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-6 sm:py-8" aria-labelledby={titleId}>
      <h1 id={titleId} className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
        Bet tracker
      </h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-400">
        Track a bet from an arbitrage, positive-EV or middle row, game line or player prop (its{' '}
        <strong>Track</strong> button), or type one in: a single or a parlay. Your bets stay in this browser
        only: nothing is sent to {SITE.brand} unless you grade them with your API key. Open bets grade
        themselves when their games end, from the final scores of the last {RESULTS_WINDOW_DAYS} days, with
        their closing-line value (CLV): your price against the fair closing price, the bookmakers’ margin
        taken out, as the API measures it. A bet whose market or line was not priced before the start shows
        “no close”.
      </p>
      <ToolKeyBox
        apiKey={apiKey}
        plan="grade your bets through the API (payout, profit and CLV against the closing line) with the button below."
        reading="your plan"
        error={keyError}
        free={
          <span key="free">
            Without a key bets are graded here from the public results and closing lines, with the same
            result, payout and CLV the API gives.{' '}
          </span>
        }
      />

      <SummaryCards totals={summary.totals} />

      <div className="mt-4 grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ProfitChart curve={summary.curve} />
        <div className="rounded-lg border border-slate-800 bg-slate-900/60 p-3 text-sm text-slate-300">
          <h2 className="font-semibold text-white">Results</h2>
          <p className="mt-1" role="status">
            {results.error
              ? results.error
              : results.checkedAt === null
                ? 'Reading the final scores…'
                : `Checked at ${new Date(results.checkedAt).toLocaleTimeString('en-US')}: ${results.feed?.games.length ?? 0} finished games of the last ${RESULTS_WINDOW_DAYS} days.`}
          </p>
          {results.feed?.source === 'simulator' ? (
            <p className="mt-1 text-xs text-amber-200">
              Demo: these games and scores come from the simulator, not real games.
            </p>
          ) : null}
          <div className="mt-3 flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void results.check()}
              disabled={!hydrated || results.checking}
            >
              Check results now
            </Button>
            {apiKey ? (
              <Button
                size="sm"
                onClick={() => void gradeThroughApi()}
                disabled={!hydrated || grading || bets.length === 0}
              >
                {grading ? 'Grading…' : 'Grade with your API key'}
              </Button>
            ) : null}
          </div>
          {gradeNote ? (
            <p role="status" className="mt-2 text-xs text-slate-300">
              {gradeNote}
            </p>
          ) : null}
        </div>
      </div>

      <div className="mt-4 grid gap-4 md:grid-cols-3">
        <BreakdownTable
          title="By sport"
          rows={summary.bySport}
          name={(key) => key.charAt(0).toUpperCase() + key.slice(1)}
        />
        <BreakdownTable title="By sportsbook" rows={summary.byBook} name={bookName} />
        <BreakdownTable
          title="By kind"
          rows={summary.byKind}
          name={(key) => BET_KIND_LABELS[key as keyof typeof BET_KIND_LABELS] ?? key}
        />
      </div>

      <details className="mt-6 rounded-lg border border-slate-800 bg-slate-900/60 p-3">
        <summary className="cursor-pointer text-sm font-semibold text-white">Add a bet by hand</summary>
        <div className="mt-2">
          <AddBetForm
            format={format}
            teams={teams}
            players={players}
            onAdd={(bet) => {
              trackedBets.add([bet]);
              void results.check();
            }}
          />
        </div>
      </details>

      <div className="mt-6 flex flex-wrap items-center gap-2">
        <h2 className="mr-auto text-lg font-semibold text-white">
          Your bets <span className="text-sm font-normal text-slate-400">({bets.length})</span>
        </h2>
        <Button
          variant="secondary"
          size="sm"
          disabled={!hydrated || bets.length === 0}
          onClick={() => download(`sharpline-bets-${stamp}.csv`, 'text/csv', betsToCsv(bets))}
        >
          Export CSV
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!hydrated || bets.length === 0}
          onClick={() => download(`sharpline-bets-${stamp}.json`, 'application/json', betsToJson(bets))}
        >
          Export JSON
        </Button>
        <Button variant="secondary" size="sm" disabled={!hydrated} onClick={() => fileInput.current?.click()}>
          Import CSV or JSON
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".csv,.json,text/csv,application/json"
          className="sr-only"
          tabIndex={-1}
          aria-label="Import a CSV or JSON file of bets"
          data-testid="import-file"
          onChange={(event) => void importFile(event)}
        />
      </div>
      {fileNote ? (
        <p
          role={fileNote.error ? 'alert' : 'status'}
          className={cn('mt-2 text-sm', fileNote.error ? 'text-amber-200' : 'text-emerald-300')}
        >
          {fileNote.text}
        </p>
      ) : null}
      <BetList
        bets={bets}
        format={format}
        games={results.feed?.games ?? []}
        resultsAt={results.feed?.generated_at ?? 0}
      />
    </section>
  );
}

function SummaryCards({ totals }: { totals: Totals }) {
  const cards = [
    {
      label: 'Profit',
      value: signedDollars(totals.profit),
      tone: totals.profit > 0 ? 'text-emerald-300' : totals.profit < 0 ? 'text-red-300' : 'text-white',
      note: `on ${formatDollars(totals.staked)} settled`,
    },
    { label: 'ROI', value: pct(totals.roiPct), tone: 'text-white', note: 'profit ÷ settled stakes' },
    {
      label: 'Average CLV',
      value: pct(totals.avgClvPct),
      tone: 'text-white',
      note:
        totals.clvBets > 0
          ? `of ${totals.clvBets} ${totals.clvBets === 1 ? 'bet' : 'bets'} with a close`
          : 'known once a bet with a close is graded',
    },
    {
      label: 'Bets',
      value: `${totals.settled} settled`,
      tone: 'text-white',
      note: `${totals.open} open · ${totals.won} won · ${totals.lost} lost · ${totals.returned} push or void`,
    },
  ];
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="summary">
      {cards.map((card) => (
        <div key={card.label} className="rounded-lg border border-slate-800 bg-slate-900/60 px-3 py-2">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-400">{card.label}</dt>
          <dd className={cn('font-mono text-xl font-semibold tabular-nums', card.tone)}>{card.value}</dd>
          <dd className="text-xs text-slate-400">{card.note}</dd>
        </div>
      ))}
    </dl>
  );
}

function BreakdownTable({
  title,
  rows,
  name,
}: {
  title: string;
  rows: readonly Breakdown[];
  name: (key: string) => string;
}) {
  return (
    <div className="rounded-lg border border-slate-800 bg-slate-900/60 p-3">
      <table className="w-full text-sm">
        <caption className="mb-1 text-left font-semibold text-white">{title}</caption>
        <thead>
          <tr className="text-xs text-slate-400">
            <th scope="col" className="py-1 text-left font-medium">
              {title.replace(/^By /, '').replace(/^./, (c) => c.toUpperCase())}
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Bets
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Profit
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              ROI
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="py-2 text-slate-400">
                No bets yet.
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.key} className="border-t border-slate-800">
                <th scope="row" className="py-1 text-left font-normal text-slate-200">
                  {name(row.key)}
                </th>
                <td className="py-1 text-right font-mono tabular-nums text-slate-300">{row.totals.bets}</td>
                <td
                  className={cn(
                    'py-1 text-right font-mono tabular-nums',
                    row.totals.profit > 0
                      ? 'text-emerald-300'
                      : row.totals.profit < 0
                        ? 'text-red-300'
                        : 'text-slate-300',
                  )}
                >
                  {signedDollars(row.totals.profit)}
                </td>
                <td className="py-1 text-right font-mono tabular-nums text-slate-300">
                  {pct(row.totals.roiPct)}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

function marketText(bet: Pick<TrackedBet, 'period' | 'market'>): string {
  const period = PERIOD_LABELS[bet.period];
  return `${period ? `${period} ` : ''}${MARKET_NAMES[bet.market]}`;
}

const LEG_RESULT_TONES: Record<GradeResult, string> = {
  won: 'text-emerald-300',
  half_won: 'text-emerald-300',
  lost: 'text-red-300',
  half_lost: 'text-red-300',
  push: 'text-slate-300',
  void: 'text-slate-300',
};

/**
 * A parlay leg's close once its game is final: its fair closing probability, and its own CLV when the leg has its own
 * price (decision 297: POST /v1/grade's leg `clv_pct`); "no close" when the close has no price for it.
 */
function LegClose({ leg }: { leg: ParlayLeg }) {
  if (leg.closing_probability === undefined) return null;
  if (leg.closing_probability === null) return <span data-testid="leg-close"> · no close</span>;
  const clv = legClvPct(leg);
  return (
    <span data-testid="leg-close">
      {' · '}close {(leg.closing_probability * 100).toFixed(1)}%
      {clv !== null ? <span className="text-slate-300"> · CLV {pct(clv)}</span> : null}
    </span>
  );
}

/** A parlay's legs, each with its game, its result once graded, and its close. */
function ParlayLegs({ bet, format }: { bet: TrackedBet; format: OddsFormat }) {
  return (
    <ol className="mt-1 space-y-0.5 text-xs text-slate-400" aria-label={`Legs of ${bet.selection}`}>
      {(bet.legs ?? []).map((leg, index) => (
        <li key={index} className="break-words">
          <span className="text-slate-200">{leg.selection}</span> · {leg.away} @ {leg.home} ·{' '}
          {marketText(leg)}
          {leg.decimal_odds !== null
            ? ` · ${formatOdds({ decimal: leg.decimal_odds, american: americanText(leg.decimal_odds) }, format)}`
            : ''}
          {' · '}
          <span className={leg.result ? LEG_RESULT_TONES[leg.result] : 'text-slate-300'}>
            {leg.result ? RESULT_NAMES[leg.result] : 'Open'}
          </span>
          <LegClose leg={leg} />
        </li>
      ))}
    </ol>
  );
}

function BetList({
  bets,
  format,
  games,
  resultsAt,
}: {
  bets: readonly TrackedBet[];
  format: OddsFormat;
  games: ResultsFeed['games'];
  /** When the results read last were made (ms, the server's clock): a parlay lost early waits on its other games. */
  resultsAt: number;
}) {
  if (bets.length === 0)
    return (
      <p className="mt-3 rounded-lg border border-dashed border-slate-700 px-4 py-8 text-center text-sm text-slate-400">
        No bets tracked yet. Press <strong>Track</strong> on a row of the arbitrage, positive-EV or middles
        finder, type a bet in above, or import a file you exported.
      </p>
    );
  const newestFirst = [...bets].reverse();
  return (
    <ul className="mt-3 space-y-2" aria-label="Tracked bets, newest first">
      {newestFirst.map((bet) => (
        <BetItem key={bet.id} bet={bet} format={format} games={games} resultsAt={resultsAt} />
      ))}
    </ul>
  );
}

function BetItem({
  bet,
  format,
  games,
  resultsAt,
}: {
  bet: TrackedBet;
  format: OddsFormat;
  games: ResultsFeed['games'];
  resultsAt: number;
}) {
  const s = bet.settlement;
  const issues = useMemo(() => betIssues(bet, games), [bet, games]);
  const event = bet.legs ? `${bet.legs.length} legs` : `${bet.away} @ ${bet.home}`;
  const remove = () => trackedBets.set(trackedBets.get().filter((other) => other.id !== bet.id));
  const settle = (result: GradeResult) =>
    trackedBets.set(
      trackedBets
        .get()
        .map((other) =>
          other.id === bet.id ? settleByHand(other, result, new Date().toISOString()) : other,
        ),
    );
  return (
    <li
      data-bet={bet.id}
      className="grid grid-cols-2 gap-x-3 gap-y-1 rounded-lg border border-slate-800 bg-slate-900/60 px-3 py-2 text-sm sm:grid-cols-[minmax(0,2.2fr)_minmax(0,1.2fr)_5rem_5.5rem_minmax(0,1.3fr)_10.5rem] sm:items-center"
    >
      <div className="col-span-2 min-w-0 sm:col-span-1">
        <p className="break-words font-medium text-slate-100">{bet.selection}</p>
        {bet.legs ? (
          <ParlayLegs bet={bet} format={format} />
        ) : (
          <p className="break-words text-xs text-slate-400">
            {event} · {marketText(bet)}
            {bet.starts_at
              ? ` · ${new Date(bet.starts_at).toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}`
              : ''}
          </p>
        )}
      </div>
      <p className="min-w-0 text-xs text-slate-300">
        <span className="block break-words">{bookName(bet.book)}</span>
        <span className="text-slate-400">
          {BET_KIND_LABELS[bet.kind]}
          {bet.group ? ' leg' : ''}
        </span>
      </p>
      <p className="text-right font-mono tabular-nums text-slate-100 sm:text-right">
        <span className="sr-only">Price </span>
        {formatOdds({ decimal: bet.decimal_odds, american: bet.american_odds }, format)}
      </p>
      <p className="font-mono tabular-nums text-slate-300 sm:text-right">
        <span className="text-xs text-slate-400">Stake </span>
        {formatDollars(bet.stake)}
      </p>
      <div className="text-right sm:text-left" data-testid="bet-status">
        {s ? (
          <>
            <span
              className={cn(
                'font-semibold',
                s.profit > 0 ? 'text-emerald-300' : s.profit < 0 ? 'text-red-300' : 'text-slate-200',
              )}
            >
              {RESULT_NAMES[s.result]} {signedDollars(s.profit)}
            </span>
            <span className="block text-xs text-slate-400">{SETTLED_BY_NAMES[s.settled_by]}</span>
            {s.clv_pct !== null ? (
              <span className="block text-xs text-slate-300">CLV {pct(s.clv_pct)}</span>
            ) : s.settled_by === 'hand' ? null : awaitsClose(bet, resultsAt) &&
              !bet.legs?.some((leg) => leg.closing_probability === null) ? (
              <span className="block text-xs text-slate-400">CLV once every game has started</span>
            ) : (
              <span className="block text-xs text-slate-400">CLV: no close</span>
            )}
          </>
        ) : (
          <span className="text-slate-300">Open</span>
        )}
      </div>
      <div className="col-span-2 flex flex-wrap items-center justify-end gap-2 sm:col-span-1">
        {s ? null : (
          <select
            aria-label={`Settle ${bet.selection}, ${event}, by hand`}
            className="h-8 rounded-md border border-slate-700 bg-slate-900 px-1.5 text-xs text-slate-100"
            value=""
            onChange={(event) => {
              if (event.target.value) settle(event.target.value as GradeResult);
            }}
          >
            <option value="">Settle…</option>
            {(['won', 'lost', 'push', 'void', 'half_won', 'half_lost'] as const).map((result) => (
              <option key={result} value={result}>
                {RESULT_NAMES[result]}
              </option>
            ))}
          </select>
        )}
        <button
          type="button"
          onClick={remove}
          className="h-8 rounded-md border border-slate-700 bg-slate-900 px-2.5 text-xs text-slate-200 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-300"
        >
          Delete
          <span className="sr-only">
            {' '}
            {bet.selection}, {event}
          </span>
        </button>
      </div>
      {issues.length > 0 ? (
        <div className="col-span-2 text-xs text-amber-200 sm:col-span-6" data-testid="bet-issue">
          {issues.map((issue, index) => (
            <p key={index} className="break-words">
              {issue.message}
            </p>
          ))}
        </div>
      ) : null}
    </li>
  );
}

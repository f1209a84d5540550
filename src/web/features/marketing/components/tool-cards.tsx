import { Link } from 'react-router';
import { ROUTES } from '#domain/site.ts';

// The home page's card per free betting tool (docs/product.md §2): the three finders, the bet tracker and the
// calibration report, each saying what its page does today and linked to it. The cards follow TOOL_LINKS (the header's
// Betting Tools menu, src/domain/site-nav.ts): tool-cards.test.tsx fails when a tool is on the menu without a card.
export const TOOLS = [
  {
    title: 'Arbitrage finder',
    to: ROUTES.arbitrage,
    body: 'Opposite sides at different sportsbooks that together pay whatever happens, with equal-payout stakes for your total and bet links. Refreshed every second with Auto on.',
  },
  {
    title: 'Positive EV finder',
    to: ROUTES.positiveEv,
    body: 'Prices that pay more than the market’s fair odds (the consensus of the books, margin removed), with the expected value and a Kelly stake for your bankroll. An expectation over many bets, never a guaranteed profit.',
  },
  {
    title: 'Middles finder',
    to: ROUTES.middles,
    body: 'Two sides of a spread, total or player prop at two books whose lines leave a gap where both bets win, with the chance of the gap from a score or stat model, the EV, what a miss costs and the stakes for your total. A chance, not a guarantee.',
  },
  {
    title: 'Bet tracker',
    to: ROUTES.betTracker,
    body: 'Bets tracked from a finder’s rows or added by hand, kept in your browser with no account, graded from the final scores, with profit, ROI and closing line value by sport, book and kind. Export and import CSV or JSON.',
  },
  {
    title: 'Calibration report',
    to: ROUTES.calibration,
    body: 'How well our fair odds forecast results: finished games’ closing fair probabilities against what happened, by league and market, and scored against each sportsbook’s own closing prices.',
  },
] as const;

export function ToolCards() {
  return (
    <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
      {TOOLS.map((tool) => (
        <li key={tool.to} className="rounded-xl border border-slate-800 bg-slate-900/60 p-5">
          <h3 className="font-semibold">
            <Link to={tool.to} className="text-emerald-300 underline-offset-4 hover:underline">
              {tool.title}
            </Link>
          </h3>
          <p className="mt-2 text-sm leading-relaxed text-slate-300">{tool.body}</p>
        </li>
      ))}
    </ul>
  );
}

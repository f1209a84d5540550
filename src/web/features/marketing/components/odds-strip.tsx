import { SPORTSBOOKS, type SportsbookKey } from '#domain/sportsbooks.ts';
import { cn } from '#web/lib/cn.ts';

// The decorative strip of sportsbook odds cards (docs/product.md §2). Illustrative prices only, hidden from assistive technology.

interface OddsCard {
  book: SportsbookKey;
  matchup: string;
  market: string;
  /** One price per outcome, in the order the matchup names them: away and home, over and under; a 1X2 market has
   * three (home, draw, away: "1", "X", "2"). */
  prices: readonly string[];
}

const CARDS: readonly OddsCard[] = [
  { book: 'fanduel', matchup: 'BOS @ NYK', market: 'Moneyline', prices: ['+142', '-160'] },
  { book: 'draftkings', matchup: 'KC @ BUF', market: 'Spread 2.5', prices: ['-108', '-112'] },
  { book: 'betmgm', matchup: 'LAD @ SD', market: 'Total 8.5', prices: ['O -105', 'U -115'] },
  { book: 'caesars', matchup: 'EDM @ TOR', market: 'Moneyline', prices: ['+118', '-138'] },
  { book: 'betrivers', matchup: 'DUKE @ UNC', market: 'Spread 4.5', prices: ['-110', '-110'] },
  { book: 'fanatics', matchup: 'ARS v CHE', market: '1X2', prices: ['+125', '+240', '+210'] },
];

export function OddsStrip() {
  return (
    <div aria-hidden="true" className="relative mt-10 overflow-hidden">
      <ul className="flex gap-3 overflow-hidden [mask-image:linear-gradient(to_right,transparent,black_8%,black_92%,transparent)]">
        {CARDS.map((card) => {
          const book = SPORTSBOOKS[card.book];
          return (
            <li
              key={card.book}
              className="w-44 shrink-0 rounded-xl border border-slate-700 bg-slate-900 p-3 text-xs"
            >
              <div className="flex items-center gap-2">
                <span
                  className="inline-flex h-6 w-6 items-center justify-center rounded-md text-xs font-bold"
                  style={{ background: book.background, color: book.text }}
                >
                  {book.letter}
                </span>
                <span className="font-semibold text-slate-100">{book.displayName}</span>
              </div>
              <div className="mt-2 text-slate-300">{card.matchup}</div>
              <div className="text-slate-400">{card.market}</div>
              <div
                data-testid="odds-card-prices"
                className={cn(
                  'mt-2 grid gap-1 font-mono',
                  card.prices.length === 3 ? 'grid-cols-3 text-xs tracking-tight' : 'grid-cols-2 text-sm',
                )}
              >
                {card.prices.map((price, index) => (
                  <span
                    key={index}
                    className={cn(
                      'whitespace-nowrap rounded bg-slate-800 py-1 text-center',
                      card.prices.length === 3 ? 'px-0.5' : 'px-2',
                      index === 0 ? 'text-emerald-200' : 'text-slate-100',
                    )}
                  >
                    {price}
                  </span>
                ))}
              </div>
            </li>
          );
        })}
      </ul>
      {/* The cards name real books and teams: say they are not quotes (the finders have the live board). */}
      <p data-testid="odds-strip-note" className="mt-2 text-xs text-slate-400">
        Example prices, not live odds.
      </p>
    </div>
  );
}

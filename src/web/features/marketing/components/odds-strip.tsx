import { SPORTSBOOKS, type SportsbookKey } from '#domain/sportsbooks.ts';

// The decorative strip of sportsbook odds cards (SPEC §2). Illustrative prices only, hidden from assistive technology.

interface OddsCard {
  book: SportsbookKey;
  matchup: string;
  market: string;
  away: string;
  home: string;
}

const CARDS: readonly OddsCard[] = [
  { book: 'fanduel', matchup: 'BOS @ NYK', market: 'Moneyline', away: '+142', home: '-160' },
  { book: 'draftkings', matchup: 'KC @ BUF', market: 'Spread 2.5', away: '-108', home: '-112' },
  { book: 'betmgm', matchup: 'LAD @ SD', market: 'Total 8.5', away: 'O -105', home: 'U -115' },
  { book: 'caesars', matchup: 'EDM @ TOR', market: 'Moneyline', away: '+118', home: '-138' },
  { book: 'betrivers', matchup: 'DUKE @ UNC', market: 'Spread 4.5', away: '-110', home: '-110' },
  { book: 'fanatics', matchup: 'ARS v CHE', market: '1X2', away: '+210', home: '+125' },
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
              <div className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm">
                <span className="rounded bg-slate-800 px-2 py-1 text-center text-emerald-200">
                  {card.away}
                </span>
                <span className="rounded bg-slate-800 px-2 py-1 text-center text-slate-100">{card.home}</span>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

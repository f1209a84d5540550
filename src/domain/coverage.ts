import { LEAGUES, type League } from './markets.ts';
import { sportsbooks, type Sportsbook, type SportsbookLicence } from './sportsbooks.ts';

// What the site says it covers (issue 56: "every number on the site means what it says"): how many sportsbooks and
// leagues, and which, counted and named from the catalogues (src/domain/sportsbooks.ts, LEAGUES in markets.ts). The
// pages, their meta descriptions, the OpenAPI document, /docs and the README say it in these words and no others;
// coverage.test.ts checks them against the catalogues. A book priced in two markets (Hard Rock and its Indiana book)
// is one sportsbook.

/** The licences in the order the site lists them (docs/product.md §2). */
export const LICENCE_ORDER: readonly SportsbookLicence[] = ['us-licensed', 'sweepstakes', 'offshore'];

/** A licence in words, in a sentence ("US state-licensed"). */
export const LICENCE_WORDS: Readonly<Record<SportsbookLicence, string>> = {
  'us-licensed': 'US state-licensed',
  sweepstakes: 'sweepstakes',
  offshore: 'offshore',
};

export interface LicenceGroup {
  licence: SportsbookLicence;
  /** How many books (not keys) have this licence. */
  count: number;
  /** Each book's name, a book in several markets with them: "Hard Rock (two markets: Hard Rock and Hard Rock Indiana)". */
  names: string[];
}

export interface Coverage {
  /** 14: the books, a book in two markets counted once. */
  bookCount: number;
  /** "14 sportsbooks" */
  books: string;
  /** "14 sportsbooks (11 US state-licensed, 1 sweepstakes, 2 offshore; Hard Rock in two markets)" */
  booksDetail: string;
  /** "US state-licensed, sweepstakes and offshore": the licences there are, for a sentence. */
  licences: string;
  /** The books by licence, in `LICENCE_ORDER`, licences without a book left out. */
  byLicence: LicenceGroup[];
  /** 7 */
  leagueCount: number;
  /** "7 leagues" */
  leagues: string;
  /** "NBA, NCAAB (men's college basketball), NFL, MLB, NHL, Premier League and MLS" */
  leagueNames: string;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** "a, b and c" */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function marketsWord(count: number): string {
  return `${NUMBER_WORDS[count] ?? count} markets`;
}

function bookName({ book, markets }: Sportsbook): string {
  if (markets.length === 1) return book.displayName;
  return `${book.displayName} (${marketsWord(markets.length)}: ${listed(markets.map((market) => market.displayName))})`;
}

function leagueName(league: League): string {
  return league.note ? `${league.name} (${league.note})` : league.name;
}

/** The site's words for what it covers, from the catalogues. */
export function coverage(): Coverage {
  const books = sportsbooks();
  const byLicence = LICENCE_ORDER.map((licence) => {
    const ofLicence = books.filter(({ book }) => book.licence === licence);
    return { licence, count: ofLicence.length, names: ofLicence.map(bookName) };
  }).filter((group) => group.count > 0);
  const split = byLicence.map((group) => `${group.count} ${LICENCE_WORDS[group.licence]}`).join(', ');
  const inMarkets = books
    .filter(({ markets }) => markets.length > 1)
    .map(({ book, markets }) => `${book.displayName} in ${marketsWord(markets.length)}`);
  const leagues = Object.values(LEAGUES) as League[];
  return {
    bookCount: books.length,
    books: plural(books.length, 'sportsbook'),
    booksDetail: `${plural(books.length, 'sportsbook')} (${[split, ...inMarkets].join('; ')})`,
    licences: listed(byLicence.map((group) => LICENCE_WORDS[group.licence])),
    byLicence,
    leagueCount: leagues.length,
    leagues: plural(leagues.length, 'league'),
    leagueNames: listed(leagues.map(leagueName)),
  };
}

import { describe, expect, it } from 'vitest';
import { coverage } from './coverage.ts';
import { LEAGUES } from './markets.ts';
import { chosenBookCount, SPORTSBOOK_KEYS, SPORTSBOOKS, sportsbooks } from './sportsbooks.ts';

// Issue 56: "15 sportsbooks" counted Hard Rock and Hard Rock Indiana as two, and "college" meant NCAAB only. The site's
// words are counted and named from the catalogues; these tests hold them to the catalogues.
describe('coverage', () => {
  const words = coverage();

  it('counts books, not keys: a book priced in two markets is one sportsbook', () => {
    const books = SPORTSBOOK_KEYS.filter((key) => SPORTSBOOKS[key].marketOf === undefined);
    expect(words.bookCount).toBe(books.length);
    expect(words.bookCount).toBe(SPORTSBOOK_KEYS.length - 1); // Hard Rock Indiana is Hard Rock's Indiana market
    expect(words.books).toBe(`${books.length} sportsbooks`);
    expect(words.booksDetail).toBe(
      '14 sportsbooks (11 US state-licensed, 1 sweepstakes, 2 offshore; Hard Rock in two markets)',
    );
  });

  it('counts the finders’ chosen books as the site counts its sportsbooks: all keys are all 14 (decision 298)', () => {
    expect(chosenBookCount(new Set(SPORTSBOOK_KEYS))).toBe(words.bookCount);
    expect(chosenBookCount(new Set())).toBe(0);
    const withoutIndiana = new Set(SPORTSBOOK_KEYS.filter((key) => key !== 'hardrock_in'));
    expect(chosenBookCount(withoutIndiana)).toBe(words.bookCount);
    expect(chosenBookCount(new Set(['hardrock_in']))).toBe(1);
    expect(chosenBookCount(new Set(['hardrock', 'hardrock_in', 'fanduel', 'not-a-book']))).toBe(2);
  });

  it('groups every catalogue key under exactly one book, of the same licence, and a market names no market', () => {
    const keys = sportsbooks().flatMap(({ markets }) => markets.map((market) => market.key));
    expect([...keys].sort()).toEqual([...SPORTSBOOK_KEYS].sort());
    for (const key of SPORTSBOOK_KEYS) {
      const parent = SPORTSBOOKS[key].marketOf;
      if (parent === undefined) continue;
      expect(SPORTSBOOKS[parent].marketOf).toBeUndefined();
      expect(SPORTSBOOKS[parent].licence).toBe(SPORTSBOOKS[key].licence);
    }
  });

  it('splits the books by licence so that the parts add up to the whole and name every book', () => {
    expect(words.byLicence.reduce((sum, group) => sum + group.count, 0)).toBe(words.bookCount);
    for (const group of words.byLicence) {
      const books = sportsbooks().filter(({ book }) => book.licence === group.licence);
      expect(group.count).toBe(books.length);
      expect(group.names).toHaveLength(books.length);
      expect(words.booksDetail).toContain(`${group.count} `);
    }
    const named = words.byLicence.flatMap((group) => group.names).join(' | ');
    for (const key of SPORTSBOOK_KEYS) expect(named).toContain(SPORTSBOOKS[key].displayName);
    expect(words.byLicence.find((group) => group.licence === 'us-licensed')!.names).toContain(
      'Hard Rock (two markets: Hard Rock and Hard Rock Indiana)',
    );
    expect(words.licences).toBe('US state-licensed, sweepstakes and offshore');
  });

  it('names every league, and says what NCAAB is instead of "college"', () => {
    expect(words.leagueCount).toBe(Object.keys(LEAGUES).length);
    expect(words.leagues).toBe(`${Object.keys(LEAGUES).length} leagues`);
    for (const league of Object.values(LEAGUES)) expect(words.leagueNames).toContain(league.name);
    expect(words.leagueNames).toBe(
      "NBA, NCAAB (men's college basketball), NFL, MLB, NHL, Premier League and MLS",
    );
  });
});

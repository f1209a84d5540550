import { describe, expect, it } from 'vitest';
import {
  defaultSelectedSportsbooks,
  parseSelectedSportsbooks,
  parseSportsbookStates,
  stateForBook,
} from './sportsbook-preferences.ts';
import { SPORTSBOOK_KEYS, SPORTSBOOKS } from '#domain/sportsbooks.ts';

describe('parseSelectedSportsbooks', () => {
  it('defaults to every known book', () => {
    expect(parseSelectedSportsbooks(null)).toEqual([...SPORTSBOOK_KEYS]);
    expect(defaultSelectedSportsbooks()).toHaveLength(15);
  });

  it('reads a stored list and drops unknown keys', () => {
    expect(parseSelectedSportsbooks('["fanduel","draftkings","nope"]')).toEqual(['fanduel', 'draftkings']);
    expect(parseSelectedSportsbooks('[]')).toEqual([]);
  });

  it('falls back to the defaults on corrupt or foreign values', () => {
    for (const raw of ['{not json', '"fanduel"', '{"a":1}', '42', 'null', '["x","y"]', '[1,2]']) {
      expect(parseSelectedSportsbooks(raw)).toEqual([...SPORTSBOOK_KEYS]);
    }
  });
});

describe('parseSportsbookStates and stateForBook', () => {
  it('keeps known books with states they list', () => {
    expect(parseSportsbookStates('{"fanduel":"ny","betparx":"mi"}')).toEqual({
      fanduel: 'ny',
      betparx: 'mi',
    });
  });

  it('drops unknown books, unlisted states and books without states', () => {
    expect(parseSportsbookStates('{"fanduel":"zz","nope":"nj","draftkings":"nj","betparx":7}')).toEqual({});
  });

  it('falls back to no choices on corrupt values', () => {
    for (const raw of ['{', '[]', '"nj"', 'null', null]) expect(parseSportsbookStates(raw)).toEqual({});
  });

  it('defaults each book to its alphabetically first state', () => {
    expect(stateForBook(SPORTSBOOKS.betparx, {})).toBe('md');
    expect(stateForBook(SPORTSBOOKS.betmgm, {})).toBe('az');
    expect(stateForBook(SPORTSBOOKS.betparx, { betparx: 'pa' })).toBe('pa');
    expect(stateForBook(SPORTSBOOKS.draftkings, {})).toBeUndefined();
  });
});

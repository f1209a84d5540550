import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchPlayers } from '#tests/support/player-matching.ts';
import {
  indexRoster,
  matchPlayer,
  normalizePlayerName,
  type BookPlayer,
  type EventRoster,
} from './player-matching.ts';
import type { Player } from './props.ts';

describe('normalizePlayerName', () => {
  it.each([
    ['Nikola Jokić', 'nikola jokic'],
    ['Nikola Jokic', 'nikola jokic'],
    ['Luka Dončić', 'luka doncic'],
    ['Kristaps Porziņģis', 'kristaps porzingis'],
    ['Martin Ødegaard', 'martin odegaard'],
    ['Robert Lewandowski', 'robert lewandowski'],
    ['Łukasz Fabiański', 'lukasz fabianski'],
    ['C.J. McCollum', 'cj mccollum'],
    ['CJ McCollum', 'cj mccollum'],
    ['C. J. McCollum', 'cj mccollum'],
    ['C J McCollum', 'cj mccollum'],
    ['T.J. Watt', 'tj watt'],
    ['Tim Hardaway Jr.', 'tim hardaway'],
    ['Tim Hardaway Jr', 'tim hardaway'],
    ['Tim Hardaway, Jr.', 'tim hardaway'],
    ['Marvin Harrison Sr.', 'marvin harrison'],
    ['Gary Payton II', 'gary payton'],
    ['Robert Griffin III', 'robert griffin'],
    ['Kenneth Walker IV', 'kenneth walker'],
    ["Shaquille O'Neal", 'shaquille oneal'],
    ['Shaquille O’Neal', 'shaquille oneal'],
    ["De'Aaron Fox", 'deaaron fox'],
    ['Karl-Anthony Towns', 'karl anthony towns'],
    ['Karl Anthony Towns', 'karl anthony towns'],
    ['Shai Gilgeous-Alexander', 'shai gilgeous alexander'],
    ['Christian McCaffrey', 'christian mccaffrey'],
    ['Christian Mc Caffrey', 'christian mccaffrey'],
    ['Alexis Mac Allister', 'alexis macallister'],
    ['Alexis MacAllister', 'alexis macallister'],
    ['Mac Jones', 'mac jones'],
    ['Odell Beckham I I', 'odell beckham'],
    ['A0 i I', 'a0'],
    ['  LEBRON   JAMES ', 'lebron james'],
    ['...', ''],
    ['', ''],
  ])('%s → %s', (name, normalised) => {
    expect(normalizePlayerName(name)).toBe(normalised);
  });

  it('is idempotent and never leaves punctuation, marks, upper case or doubled spaces', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (name) => {
        const once = normalizePlayerName(name);
        expect(normalizePlayerName(once)).toBe(once);
        expect(once).toBe(once.trim());
        expect(once).not.toMatch(/ {2}|[.'’,\-A-Z]|\p{M}/u);
      }),
    );
  });
});

const LAL = 'lal';
const BOS = 'bos';
const player = (id: string, name: string, team: string): Player => ({ id, name, team });
const roster = (...players: Player[]): EventRoster => ({ players, homeTeamId: LAL, awayTeamId: BOS });
const book = (name: string, team: string | null, id?: string): BookPlayer => ({ id: id ?? null, name, team });

describe('matchPlayer: the hard cases', () => {
  const cases: [string, EventRoster, BookPlayer, string][] = [
    // [case, roster, book player, expected: 'id:<id>' | 'name:<id>' | unmatched reason | ambiguous reason]
    [
      'by id, whatever the name',
      roster(player('p1', 'LeBron James', LAL)),
      book('L. James', BOS, 'p1'),
      'id:p1',
    ],
    [
      'exact name and team id',
      roster(player('p1', 'LeBron James', LAL)),
      book('LeBron James', LAL),
      'name:p1',
    ],
    ["team as 'home'", roster(player('p1', 'LeBron James', LAL)), book('LeBron James', 'home'), 'name:p1'],
    [
      "roster team as 'away'",
      roster(player('p1', 'Jayson Tatum', 'away')),
      book('Jayson Tatum', BOS),
      'name:p1',
    ],
    [
      'no team given: name alone',
      roster(player('p1', 'LeBron James', LAL)),
      book('LeBron James', null),
      'name:p1',
    ],
    [
      'unknown id falls back to name',
      roster(player('p1', 'LeBron James', LAL)),
      book('LeBron James', LAL, 'x9'),
      'name:p1',
    ],
    [
      'accents: Jokić / Jokic',
      roster(player('p1', 'Nikola Jokić', 'den')),
      book('Nikola Jokic', 'den'),
      'name:p1',
    ],
    [
      'accents the other way',
      roster(player('p1', 'Nikola Jokic', 'den')),
      book('Nikola Jokić', 'den'),
      'name:p1',
    ],
    [
      'initials: C.J. / CJ',
      roster(player('p1', 'CJ McCollum', 'nop')),
      book('C.J. McCollum', 'nop'),
      'name:p1',
    ],
    [
      'suffix on one side only',
      roster(player('p1', 'Jaren Jackson Jr.', 'mem')),
      book('Jaren Jackson', 'mem'),
      'name:p1',
    ],
    [
      'hyphenated / spaced',
      roster(player('p1', 'Shai Gilgeous-Alexander', 'okc')),
      book('Shai Gilgeous Alexander', 'okc'),
      'name:p1',
    ],
    [
      'Mc spacing',
      roster(player('p1', 'Christian McCaffrey', 'sf')),
      book('Christian Mc Caffrey', 'sf'),
      'name:p1',
    ],
    [
      'Mac spacing',
      roster(player('p1', 'Alexis Mac Allister', 'liv')),
      book('Alexis MacAllister', 'liv'),
      'name:p1',
    ],
    [
      'two Smiths on one team: never by name',
      roster(player('p1', 'Jalen Smith', 'chi'), player('p2', 'Jaylon Smith', 'chi')),
      book('Jalen Smith', 'chi'),
      'shared_surname',
    ],
    [
      'two Smiths, one per team: still never by name',
      roster(player('p1', 'Jalen Smith', LAL), player('p2', 'Dennis Smith', BOS)),
      book('Dennis Smith', BOS),
      'shared_surname',
    ],
    [
      'two Smiths: the id still matches',
      roster(player('p1', 'Jalen Smith', 'chi'), player('p2', 'Jaylon Smith', 'chi')),
      book('Jalen Smith', 'chi', 'p1'),
      'id:p1',
    ],
    [
      'father and son, both present, book writes Jr.',
      roster(player('p1', 'Tim Hardaway Jr.', LAL), player('p2', 'Tim Hardaway Sr.', LAL)),
      book('Tim Hardaway Jr.', LAL),
      'same_name',
    ],
    [
      'father and son, both present, book writes no suffix',
      roster(player('p1', 'Gary Payton II', LAL), player('p2', 'Gary Payton', LAL)),
      book('Gary Payton', LAL),
      'same_name',
    ],
    [
      'traded: listed under his old team → no match by name',
      roster(player('p1', 'James Harden', 'lac')),
      book('James Harden', 'phi'),
      'team_mismatch',
    ],
    [
      'traded: listed under his old team, but the id matches',
      roster(player('p1', 'James Harden', 'lac')),
      book('James Harden', 'phi', 'p1'),
      'id:p1',
    ],
    ['not in the event', roster(player('p1', 'LeBron James', LAL)), book('Bronny James', LAL), 'not_found'],
    [
      'abbreviated first name is not fuzzy-matched',
      roster(player('p1', 'LeBron James', LAL)),
      book('L. James', LAL),
      'not_found',
    ],
    ['empty name', roster(player('p1', 'LeBron James', LAL)), book(' . ', LAL), 'empty_name'],
    [
      'same surname in the event blocks a player absent from it',
      roster(player('p1', 'Jalen Williams', 'okc'), player('p2', 'Jaylin Williams', 'okc')),
      book('Jalin Williams', 'okc'),
      'not_found',
    ],
  ];

  it.each(cases)('%s', (_label, event, bookPlayer, expected) => {
    const match = matchPlayer(indexRoster(event), bookPlayer);
    const got = match.status === 'matched' ? `${match.by}:${match.player.id}` : match.reason;
    expect(got).toBe(expected);
  });

  it('ambiguous answers name every candidate', () => {
    const match = matchPlayer(
      indexRoster(
        roster(
          player('p1', 'Jalen Smith', 'chi'),
          player('p2', 'Jaylon Smith', 'chi'),
          player('p3', 'Zach LaVine', 'chi'),
        ),
      ),
      book('Jaylon Smith', 'chi'),
    );
    expect(match).toMatchObject({ status: 'ambiguous', reason: 'shared_surname' });
    if (match.status === 'ambiguous') expect(match.candidates.map((p) => p.id).sort()).toEqual(['p1', 'p2']);
  });
});

describe('matchPlayers', () => {
  it('drops and counts what it cannot match', () => {
    const event = roster(
      player('p1', 'LeBron James', LAL),
      player('p2', 'Jayson Tatum', BOS),
      player('p3', 'Jalen Smith', LAL),
      player('p4', 'Dennis Smith', BOS),
    );
    const result = matchPlayers(event, [
      book('Lebron James', 'home'),
      book('Jayson Tatum', BOS),
      book('Jalen Smith', LAL),
      book('Someone Else', LAL),
      book('Jayson Tatum', LAL),
      book('Dennis Smith', BOS, 'p4'),
    ]);
    expect(result.matched.map((m) => `${m.by}:${m.player.id}`)).toEqual(['name:p1', 'name:p2', 'id:p4']);
    expect(result.unmatched.map((u) => u.reason)).toEqual(['not_found', 'team_mismatch']);
    expect(result.ambiguous.map((a) => a.reason)).toEqual(['shared_surname']);
  });

  it('every book player lands in exactly one list, and a name match is never a player sharing a surname', () => {
    const first = fc.constantFrom('Jalen', 'Jaylon', 'Dennis', 'Chris', 'C.J.', 'Nikola');
    const last = fc.constantFrom('Smith', 'Williams', 'Jokić', 'Jokic', 'McCollum', 'Paul', 'Paul Jr.');
    const team = fc.constantFrom(LAL, BOS);
    const name = fc.tuple(first, last).map(([a, b]) => `${a} ${b}`);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, team), { maxLength: 8 }),
        fc.array(fc.tuple(name, fc.option(team, { nil: null })), { maxLength: 8 }),
        (players, books) => {
          const event = roster(...players.map(([n, t], index) => player(`p${index}`, n, t)));
          const bookPlayers = books.map(([n, t]) => book(n, t));
          const result = matchPlayers(event, bookPlayers);
          expect(result.matched.length + result.unmatched.length + result.ambiguous.length).toBe(
            bookPlayers.length,
          );
          for (const match of result.matched) {
            expect(match.by).toBe('name');
            const key = normalizePlayerName(match.book.name);
            expect(normalizePlayerName(match.player.name)).toBe(key);
            const surname = key.split(' ').pop();
            const sharing = event.players.filter(
              (p) => normalizePlayerName(p.name).split(' ').pop() === surname,
            );
            expect(sharing).toEqual([match.player]);
            if (match.book.team !== null) expect(match.player.team).toBe(match.book.team);
          }
        },
      ),
    );
  });
});

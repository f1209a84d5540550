import { describe, expect, it } from 'vitest';
import { Intake } from './ingest.ts';

// The intake alone: what it hands the engine is checked and normalised; what it refuses is counted.

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);

describe('Intake', () => {
  it('hands over an event with trimmed names, derived abbreviations and team ids', () => {
    const intake = new Intake();
    const checked = intake.check(
      {
        kind: 'event',
        sourceEventId: 'e1',
        league: 'nba',
        home: { name: ' Boston Celtics ' },
        away: { name: 'Utah Jazz', abbreviation: 'UTA', id: 'jazz' },
        startsAt: new Date(T0 + 3_600_000).toISOString(),
      },
      T0,
    );
    expect(checked).toEqual({
      kind: 'event',
      sourceEventId: 'e1',
      league: 'nba',
      home: { id: 'boston-celtics', name: 'Boston Celtics', abbreviation: 'BC' },
      away: { id: 'jazz', name: 'Utah Jazz', abbreviation: 'UTA' },
      startsAt: T0 + 3_600_000,
      live: false,
      players: [],
    });
  });

  it('hands over a price keyed by the home line, with both odds forms and the time clamped to now', () => {
    const intake = new Intake();
    const checked = intake.check(
      {
        kind: 'price',
        sourceEventId: 'e1',
        book: 'fanduel',
        market: 'spread',
        point: 3.5,
        outcome: 'away',
        american: '+150',
        updatedAt: T0 + 2_000,
      },
      T0,
    );
    expect(checked).toMatchObject({
      kind: 'price',
      type: 'spread',
      period: 'full',
      point: -3.5,
      outcome: 'away',
      american: 150,
      decimal: 2.5,
      updatedAt: T0,
      links: undefined,
      suspended: false,
    });
  });

  it('counts each refusal under its reason, a refused link without refusing its price', () => {
    const dropped: string[] = [];
    const intake = new Intake({}, (reason) => dropped.push(reason));
    expect(intake.check([], T0)).toBeNull();
    expect(intake.check({ kind: 'end' }, T0)).toBeNull();
    expect(intake.check({ kind: 'price', sourceEventId: 'e1', book: 'nobook' }, T0)).toBeNull();
    const price = intake.check(
      {
        kind: 'price',
        sourceEventId: 'e1',
        book: 'betmgm',
        market: 'moneyline',
        outcome: 'home',
        decimal: 1.9,
        links: { desktop: 'javascript:alert(1)' },
      },
      T0,
    );
    expect(price).toMatchObject({ kind: 'price', links: { desktop: null, mobile: null } });
    expect(intake.parse('<html>', 1024)).toBeNull();
    expect(dropped).toEqual(['malformed', 'unknown_event', 'unknown_book', 'bad_link', 'not_json']);
    expect(intake.dropped).toBe(5);
    expect(intake.drops()).toMatchObject({ malformed: 1, unknown_event: 1, unknown_book: 1, bad_link: 1 });
  });

  it("keeps roster players without a team as team unknown (''), and still leaves out a team that is neither", () => {
    const intake = new Intake();
    const checked = intake.check(
      {
        kind: 'event',
        sourceEventId: 'e1',
        league: 'nba',
        home: { name: 'Oklahoma City Thunder', id: 'okc' },
        away: { name: 'Utah Jazz', id: 'jazz' },
        startsAt: T0 + 3_600_000,
        players: [
          { id: 'toa:jalen-williams', name: 'Jalen Williams' },
          { id: 'toa:jaylin-williams', name: 'Jaylin Williams', team: null },
          { name: 'Lauri Markkanen' },
          { id: 'p-sga', name: 'Shai Gilgeous-Alexander', team: 'okc' },
          { id: 'p-x', name: 'Somebody Else', team: 'lakers' },
          { id: 'p-y', name: 'Another One', team: 7 },
        ],
      },
      T0,
    );
    expect(checked).toMatchObject({
      players: [
        { id: 'toa:jalen-williams', name: 'Jalen Williams', team: '' },
        { id: 'toa:jaylin-williams', name: 'Jaylin Williams', team: '' },
        { id: 'unknown:lauri-markkanen', name: 'Lauri Markkanen', team: '' },
        { id: 'p-sga', name: 'Shai Gilgeous-Alexander', team: 'home' },
      ],
    });
  });

  it('refuses an odds range that could publish a non-finite figure', () => {
    expect(() => new Intake({ minDecimal: 1 })).toThrow(RangeError);
    expect(() => new Intake({ maxDecimal: 2e6 })).toThrow(RangeError);
  });
});

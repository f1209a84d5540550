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

  it('removes control and bidi characters from every name (counted text_cleaned), refusing ids that hold them', () => {
    const intake = new Intake();
    const event = (fields: Record<string, unknown>) => ({
      kind: 'event',
      sourceEventId: 'e1',
      league: 'nba',
      home: { name: 'Boston Celtics' },
      away: { name: 'Utah Jazz' },
      startsAt: T0 + 3_600_000,
      ...fields,
    });
    // The attack report's team name (a NUL the database cannot store), a right-to-left override, a C1 control, a lone
    // surrogate, and an abbreviation made of nothing else (derived again from the name).
    const checked = intake.check(
      event({
        home: { name: 'Utah Jazz\u0000' },
        away: { name: '\u202eBoston\u0085 Celtics\ud800', abbreviation: '\u2066\u0007' },
        players: [
          { id: 'p1', name: 'Lauri\u200f Markkanen\u001b[31m', team: 'home' },
          { id: 'p\u00002', name: 'Keyonte George', team: 'home' },
          { name: '\u0000\u061c', team: 'home' },
        ],
      }),
      T0,
    );
    expect(checked).toMatchObject({
      home: { id: 'utah-jazz', name: 'Utah Jazz', abbreviation: 'UJ' },
      away: { id: 'boston-celtics', name: 'Boston Celtics', abbreviation: 'BC' },
      players: [{ id: 'p1', name: 'Lauri Markkanen[31m', team: 'home' }],
    });
    // Four names cleaned (home, away, the away abbreviation, one player); two roster entries refused.
    expect(intake.drops()).toMatchObject({ text_cleaned: 4, control_characters: 2 });

    // Ids are keys: one holding a control character refuses its message, as does a name with nothing else in it.
    expect(intake.check(event({ sourceEventId: 'e1\u0000' }), T0)).toBeNull();
    expect(intake.check(event({ home: { name: 'Utah Jazz', id: 'uta\u202e' } }), T0)).toBeNull();
    expect(intake.check(event({ home: { name: '\u0000 \u202e' } }), T0)).toBeNull();
    expect(intake.drops()).toMatchObject({ text_cleaned: 4, control_characters: 5 });
  });

  it('removes a link holding control or bidi characters (counted control_characters), keeping its price', () => {
    const intake = new Intake();
    const linked = intake.check(
      {
        kind: 'price',
        sourceEventId: 'e1',
        book: 'fanduel',
        market: 'moneyline',
        outcome: 'home',
        american: -110,
        links: {
          desktop: 'https://az.sportsbook.fanduel.com/addToBetslip?marketId=1\u202e&selectionId=2',
          mobile: 'https://az.sportsbook.fanduel.com/addToBetslip?marketId=1\u0085&selectionId=2',
        },
      },
      T0,
    );
    expect(linked).toMatchObject({ links: { desktop: null, mobile: null } });
    expect(intake.drops()).toMatchObject({ control_characters: 2, bad_link: 0 });
  });

  it('gives prices with the same links one shared links object, and other links their own', () => {
    const intake = new Intake();
    const desktop = 'https://az.sportsbook.fanduel.com/addToBetslip?marketId=1&selectionId=2';
    const mobile = 'https://az.sportsbook.fanduel.com/addToBetslip?marketId=1&selectionId=3';
    // The checked price is reused by the next check: each call's links are read before the next.
    const linksOf = (outcome: string, links: Record<string, string>) => {
      const checked = intake.check(
        {
          kind: 'price',
          sourceEventId: 'e1',
          book: 'fanduel',
          market: 'moneyline',
          outcome,
          american: -110,
          links,
        },
        T0,
      );
      if (checked?.kind !== 'price') throw new Error('refused');
      return checked.links;
    };
    const home = linksOf('home', { desktop, mobile });
    const away = linksOf('away', { desktop, mobile });
    expect(home).toEqual({ desktop, mobile });
    expect(away).toBe(home);
    // Another pair, one side missing, or the two swapped: other objects with what was sent.
    const desktopOnly = linksOf('home', { desktop });
    expect(desktopOnly).toEqual({ desktop, mobile: null });
    expect(desktopOnly).not.toBe(home);
    expect(linksOf('home', { mobile })).toEqual({ desktop: null, mobile });
    // A refused link is not kept: the price holds the pair of what was accepted.
    expect(linksOf('home', { desktop, mobile: 'javascript:alert(1)' })).toBe(desktopOnly);
  });

  it("judges a link by its book, whatever another book's verdict on it, also after its caches were emptied", () => {
    const intake = new Intake();
    const link = 'https://az.sportsbook.fanduel.com/addToBetslip?marketId=1&selectionId=2';
    const linksOf = (book: string, n = 0) => {
      const checked = intake.check(
        {
          kind: 'price',
          sourceEventId: 'e1',
          book,
          market: 'moneyline',
          outcome: 'home',
          american: -110,
          links: { desktop: n === 0 ? link : `${link}&n=${n}`, mobile: link },
        },
        T0,
      );
      if (checked?.kind !== 'price') throw new Error('refused');
      return { ...checked.links };
    };
    const judge = () => [linksOf('fanduel'), linksOf('betmgm')];
    expect(judge()).toEqual([
      { desktop: link, mobile: link },
      { desktop: null, mobile: null },
    ]);
    // More distinct links than the intake keeps verdicts and pairs for (50,000): both caches are emptied on the way.
    for (let n = 1; n <= 50_001; n += 1) linksOf('fanduel', n);
    expect(judge()).toEqual([
      { desktop: link, mobile: link },
      { desktop: null, mobile: null },
    ]);
    expect(intake.drops()).toMatchObject({ bad_link: 4 });
  });

  it('refuses an odds range that could publish a non-finite figure', () => {
    expect(() => new Intake({ minDecimal: 1 })).toThrow(RangeError);
    expect(() => new Intake({ maxDecimal: 2e6 })).toThrow(RangeError);
  });
});

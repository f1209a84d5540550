import { describe, expect, it } from 'vitest';
import {
  NO_LINK_TOOLTIP,
  resolveBetLink,
  rewriteLink,
  showsStateSelector,
  stateHost,
} from './sportsbook-links.ts';
import { isAllowedLink, SPORTSBOOKS } from './sportsbooks.ts';

const { betmgm, betparx, betrivers, fanduel, caesars, bodog, draftkings } = SPORTSBOOKS;

describe('rewriteLink: BetMGM', () => {
  const link = 'https://sports.nj.betmgm.com/en/sports/events/2:7123?options=2:7123-77-88&type=Single';

  it('moves the state host label to the chosen state', () => {
    expect(rewriteLink(betmgm, link, 'pa')).toBe(
      'https://sports.pa.betmgm.com/en/sports/events/2:7123?options=2:7123-77-88&type=Single',
    );
  });

  it('sends Ontario to sports.on.betmgm.ca and back', () => {
    const on = rewriteLink(betmgm, link, 'on');
    expect(on).toBe('https://sports.on.betmgm.ca/en/sports/events/2:7123?options=2:7123-77-88&type=Single');
    expect(rewriteLink(betmgm, on, 'mi')).toContain('https://sports.mi.betmgm.com/');
  });

  it('accepts its state links under the link rules', () => {
    expect(isAllowedLink(betmgm, link, 'desktop')).toBe(true);
    expect(isAllowedLink(betmgm, rewriteLink(betmgm, link, 'on'), 'desktop')).toBe(true);
  });
});

describe('rewriteLink: FanDuel and BetRivers', () => {
  it('FanDuel moves the host label and maps Ontario to .ca', () => {
    const link = 'https://nj.sportsbook.fanduel.com/addToBetslip?marketId=1.23&selectionId=456';
    expect(rewriteLink(fanduel, link, 'ny')).toBe(
      'https://ny.sportsbook.fanduel.com/addToBetslip?marketId=1.23&selectionId=456',
    );
    expect(rewriteLink(fanduel, link, 'on')).toBe(
      'https://on.sportsbook.fanduel.ca/addToBetslip?marketId=1.23&selectionId=456',
    );
  });

  it('BetRivers moves the host label, keeps the fragment and maps Ontario to on.betrivers.ca', () => {
    const link = 'https://pa.betrivers.com/?page=sportsbook#event/1019?coupon=single|3150|';
    expect(rewriteLink(betrivers, link, 'il')).toBe(
      'https://il.betrivers.com/?page=sportsbook#event/1019?coupon=single|3150|',
    );
    expect(rewriteLink(betrivers, link, 'on')).toBe(
      'https://on.betrivers.ca/?page=sportsbook#event/1019?coupon=single|3150|',
    );
  });
});

describe('rewriteLink: betPARX', () => {
  const link = 'https://pa.betparx.com/?page=sportsbook#event/555';

  it('moves the host label to the state', () => {
    expect(rewriteLink(betparx, link, 'nj')).toBe('https://nj.betparx.com/?page=sportsbook#event/555');
  });

  it('sends Michigan to its own domain www.playgunlake.com', () => {
    expect(stateHost(betparx, 'mi')).toBe('www.playgunlake.com');
    expect(rewriteLink(betparx, link, 'mi')).toBe('https://www.playgunlake.com/?page=sportsbook#event/555');
  });
});

describe('rewriteLink: Caesars', () => {
  const link = 'https://sportsbook.caesars.com/us/nj/bet/betslip?selectionIds=abc-123';

  it('rewrites the /us/{state}/ path segment', () => {
    expect(rewriteLink(caesars, link, 'az')).toBe(
      'https://sportsbook.caesars.com/us/az/bet/betslip?selectionIds=abc-123',
    );
  });

  it('uses /ca/on/ for Ontario', () => {
    expect(rewriteLink(caesars, link, 'on')).toBe(
      'https://sportsbook.caesars.com/ca/on/bet/betslip?selectionIds=abc-123',
    );
    expect(rewriteLink(caesars, 'https://sportsbook.caesars.com/ca/on/bet/betslip?x=1', 'co')).toBe(
      'https://sportsbook.caesars.com/us/co/bet/betslip?x=1',
    );
  });
});

describe('rewriteLink: Bovada', () => {
  it('moves bodog links onto www.bovada.lv with the same path', () => {
    expect(rewriteLink(bodog, 'https://www.bodog.eu/sports/basketball/nba/celtics-knicks-202611212330')).toBe(
      'https://www.bovada.lv/sports/basketball/nba/celtics-knicks-202611212330',
    );
  });
});

describe('rewriteLink: what it never does', () => {
  it('never rewrites to a state the book does not list', () => {
    const link = 'https://nj.betparx.com/?page=sportsbook#event/1';
    expect(rewriteLink(betparx, link, 'ny')).toBe(link);
    expect(rewriteLink(betparx, link, 'xx')).toBe(link);
  });

  it('never turns an app link or a foreign link into a web link', () => {
    const app = 'fanduelsportsbook://launch?deepLink=addToBetslip%3FselectionId%3D1';
    expect(rewriteLink(fanduel, app, 'on')).toBe(app);
    const foreign = 'https://nj.evil.example/sportsbook.fanduel.com';
    expect(rewriteLink(fanduel, foreign, 'ny')).toBe(foreign);
    const http = 'http://nj.sportsbook.fanduel.com/addToBetslip';
    expect(rewriteLink(fanduel, http, 'ny')).toBe(http);
  });

  it('leaves books without state rules alone', () => {
    const link = 'https://sportsbook.draftkings.com/event/31?outcomes=0ML1';
    expect(rewriteLink(draftkings, link, 'nj')).toBe(link);
  });

  it('fills a {state} placeholder with the chosen state', () => {
    expect(
      rewriteLink(fanduel, 'https://{state}.sportsbook.fanduel.com/addToBetslip?selectionId=9', 'nj'),
    ).toBe('https://nj.sportsbook.fanduel.com/addToBetslip?selectionId=9');
  });
});

describe('resolveBetLink', () => {
  const links = {
    desktop: 'https://nj.sportsbook.fanduel.com/addToBetslip?marketId=1&selectionId=2',
    mobile: 'fanduelsportsbook://addToBetslip?marketId=1&selectionId=2',
  };

  it('uses the desktop link on desktop, rewritten for the state', () => {
    expect(resolveBetLink(fanduel, links, 'desktop', 'ny')).toEqual({
      href: 'https://ny.sportsbook.fanduel.com/addToBetslip?marketId=1&selectionId=2',
      kind: 'desktop',
    });
  });

  it('uses the mobile app link on mobile', () => {
    expect(resolveBetLink(fanduel, links, 'mobile', 'ny')).toEqual({ href: links.mobile, kind: 'mobile' });
  });

  it('falls back to the desktop link on mobile when there is no usable mobile link', () => {
    expect(resolveBetLink(fanduel, { desktop: links.desktop, mobile: null }, 'mobile', 'nj')?.kind).toBe(
      'desktop',
    );
    expect(
      resolveBetLink(fanduel, { desktop: links.desktop, mobile: 'javascript:alert(1)' }, 'mobile', 'nj')
        ?.kind,
    ).toBe('desktop');
  });

  it('gives null when no link passes the book rules', () => {
    expect(resolveBetLink(fanduel, {}, 'desktop')).toBeNull();
    expect(resolveBetLink(fanduel, { desktop: links.mobile }, 'desktop')).toBeNull();
    expect(resolveBetLink(fanduel, { desktop: 'https://evil.example/x' }, 'desktop')).toBeNull();
    expect(resolveBetLink(draftkings, { desktop: 'data:text/html,hi' }, 'desktop')).toBeNull();
    expect(
      resolveBetLink(
        fanduel,
        { desktop: 'https://nj.sportsbook.fanduel.com/x?amt={wagerAmount}' },
        'desktop',
      ),
    ).toBeNull();
    expect(NO_LINK_TOOLTIP).toBe('No compatible link for this device/state');
  });
});

describe('showsStateSelector', () => {
  const both = { desktop: 'https://nj.sportsbook.fanduel.com/a', mobile: 'fanduelsportsbook://a' };

  it('shows for books with states on desktop', () => {
    expect(showsStateSelector(fanduel, both, 'desktop')).toBe(true);
    expect(showsStateSelector(draftkings, both, 'desktop')).toBe(false);
  });

  it('on mobile shows only when no mobile link exists', () => {
    expect(showsStateSelector(fanduel, both, 'mobile')).toBe(false);
    expect(showsStateSelector(fanduel, { desktop: both.desktop }, 'mobile')).toBe(true);
  });
});

describe('host patterns of the catalogue', () => {
  it('lets a * label stand for exactly one host label', () => {
    expect(isAllowedLink(betrivers, 'https://nj.betrivers.com/x', 'desktop')).toBe(true);
    expect(isAllowedLink(betrivers, 'https://a.nj.betrivers.com/x', 'desktop')).toBe(false);
    expect(isAllowedLink(betrivers, 'https://betrivers.com.evil.example/x', 'desktop')).toBe(false);
    expect(isAllowedLink(betmgm, 'https://sports.nj.betmgm.com/x', 'desktop')).toBe(true);
    expect(isAllowedLink(betmgm, 'https://sports..betmgm.com/x', 'desktop')).toBe(false);
  });
});

import { SPORTSBOOKS, type SportsbookKey } from '#domain/sportsbooks.ts';
import type { LeagueKey, MarketType, OutcomeKey, SportKey } from '#domain/markets.ts';
import { LEAGUES } from '#domain/markets.ts';

// Deep links shaped as each book's real ones (DESIGN.md "Sportsbook links and states"), with the book's default state
// where links depend on it (the page rewrites the state), and app-scheme links for mobile where the book has an app
// scheme (FanDuel, BetMGM, DraftKings). Used by the simulator; ids are derived from numbers so they are stable.

export interface LinkContext {
  league: LeagueKey;
  /** A stable number for the fixture. */
  fixture: number;
  /** A stable number for the market within the fixture. */
  market: number;
  marketType: MarketType;
  outcome: OutcomeKey;
  /** "boston-celtics-los-angeles-lakers" */
  eventSlug: string;
}

const SPORT_PATH: Readonly<Record<SportKey, string>> = {
  basketball: 'basketball',
  football: 'football',
  baseball: 'baseball',
  hockey: 'hockey',
  soccer: 'soccer',
};

const OUTCOME_INDEX: Readonly<Record<OutcomeKey, number>> = {
  home: 1,
  away: 2,
  draw: 3,
  over: 4,
  under: 5,
  yes: 6,
  no: 7,
};

function uuidLike(...parts: number[]): string {
  const hex = parts.map((part) => (part >>> 0).toString(16).padStart(8, '0')).join('');
  const h = hex.padEnd(32, '0').slice(0, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function simulatedLinks(book: SportsbookKey, ctx: LinkContext): { desktop: string; mobile: string } {
  const config = SPORTSBOOKS[book];
  const st = config.defaultState ?? '';
  const sport = SPORT_PATH[LEAGUES[ctx.league].sport];
  const league = ctx.league;
  const fixture = 10_000_000 + ctx.fixture;
  const marketId = fixture * 100 + ctx.market;
  const selection = marketId * 10 + OUTCOME_INDEX[ctx.outcome];
  switch (book) {
    case 'betmgm': {
      const path = `en/sports/events/${ctx.eventSlug}-${fixture}?options=${fixture}-${marketId}-${selection}&type=Single`;
      return {
        desktop: `https://sports.${st}.betmgm.com/${path}`,
        mobile: `playmgmsportswrp://sports.${st}.betmgm.com/${path}`,
      };
    }
    case 'fanduel': {
      const query = `marketId=42.${marketId}&selectionId=${selection}`;
      return {
        desktop: `https://${st}.sportsbook.fanduel.com/addToBetslip?${query}`,
        mobile: `fanduelsportsbook://launch?deepLink=addToBetslip%3F${encodeURIComponent(query)}`,
      };
    }
    case 'draftkings':
      return {
        desktop: `https://sportsbook.draftkings.com/event/${fixture}?outcomes=0QA${selection}%23${selection}_13L88808Q1468402405Q20`,
        mobile: `dksb://sb/addbet/0QA${selection}%23${selection}_13L88808Q1468402405Q20`,
      };
    case 'betrivers': {
      const link = `https://${st}.betrivers.com/?page=sportsbook#event/${fixture}?coupon=single|${selection}|`;
      return { desktop: link, mobile: link };
    }
    case 'caesars': {
      const link = `https://sportsbook.caesars.com/us/${st}/bet/betslip?selectionIds=${uuidLike(fixture, marketId, selection)}`;
      return { desktop: link, mobile: link };
    }
    case 'betparx': {
      const link = `https://${st}.betparx.com/?page=sportsbook#event/${fixture}`;
      return { desktop: link, mobile: link };
    }
    case 'bodog': {
      const link = `https://www.bodog.eu/sports/${sport}/${league}/${ctx.eventSlug}-${fixture}`;
      return { desktop: link, mobile: link };
    }
    case 'ballybet': {
      const link = `https://play.ballybet.com/sports#event/${fixture}/selection/${selection}`;
      return { desktop: link, mobile: link };
    }
    case 'betonline': {
      const link = `https://sports.betonline.ag/sportsbook/${sport}/${league}/game/${fixture}`;
      return { desktop: link, mobile: link };
    }
    case 'circa': {
      const link = `https://www.circasports.com/sports/${sport}/${league}/event/${fixture}`;
      return { desktop: link, mobile: link };
    }
    case 'espn': {
      const link = `https://espnbet.com/sport/${sport}/organization/us/competition/${league}/event/${uuidLike(fixture, marketId)}`;
      return { desktop: link, mobile: link };
    }
    case 'fanatics': {
      const link = `https://sportsbook.fanatics.com/event/${fixture}?selectionId=${selection}`;
      return { desktop: link, mobile: link };
    }
    case 'fliff': {
      const link = `https://sports.getfliff.com/channels/${league}/event/${fixture}`;
      return { desktop: link, mobile: link };
    }
    case 'hardrock': {
      const link = `https://app.hardrock.bet/sport-leagues/${sport}/${league}/${fixture}`;
      return { desktop: link, mobile: link };
    }
    case 'hardrock_in': {
      const link = `https://in.hardrock.bet/sport-leagues/${sport}/${league}/${fixture}`;
      return { desktop: link, mobile: link };
    }
  }
}

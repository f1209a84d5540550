// The sportsbook catalogue (docs/product.md §3 "Sportsbook config", docs/product.md §11).
// Operating states are data: update the lists below when a book enters or leaves a state.

export const SPORTSBOOK_KEYS = [
  'ballybet',
  'betmgm',
  'betonline',
  'betparx',
  'betrivers',
  'bodog',
  'circa',
  'espn',
  'fanatics',
  'fliff',
  'fanduel',
  'draftkings',
  'caesars',
  'hardrock',
  'hardrock_in',
] as const;

export type SportsbookKey = (typeof SPORTSBOOK_KEYS)[number];

/** How a book's links change with the visitor's state (docs/product.md §11 table). */
export type StateRewrite =
  /** The first host label is the state: `https://{st}.betrivers.com/...`. `overrides` maps a state to a whole host. */
  | { kind: 'host-label'; overrides?: Readonly<Record<string, string>> }
  /** BetMGM: `https://sports.{st}.betmgm.com/...`; `overrides` maps a state to a whole host. */
  | { kind: 'second-host-label'; overrides?: Readonly<Record<string, string>> }
  /** Caesars: the path segment `/us/{st}/`; Ontario becomes `/ca/on/`. */
  | { kind: 'path-segment' };

/**
 * How a book is allowed to take US bets (issue 34: the site says which books are which):
 * `us-licensed`, licensed by US state regulators (or a tribal compact) in the states it operates;
 * `sweepstakes`, a social sportsbook run under sweepstakes rules rather than a state sports-betting licence;
 * `offshore`, licensed outside the US and licensed in no US state.
 */
export type SportsbookLicence = 'us-licensed' | 'sweepstakes' | 'offshore';

export interface SportsbookConfig {
  key: SportsbookKey;
  displayName: string;
  licence: SportsbookLicence;
  /** Letter shown in the book's badge. */
  letter: string;
  background: string;
  text: string;
  /** Label of the bet button. */
  betText: string;
  /** Hosts a desktop (https) link may point at. A `*` label admits any one label (`*.betrivers.com`, `sports.*.betmgm.com`). */
  hosts: readonly string[];
  /** The book's own app URL schemes (without the colon), allowed for mobile links only. */
  appSchemes: readonly string[];
  /** Operating states (two-letter codes, lower case); absent when links do not depend on the state. */
  states?: readonly string[];
  defaultState?: string;
  stateRewrite?: StateRewrite;
  /** Links on these hosts are moved onto `to` with the same path (Bovada's bodog → bovada). */
  hostRewrite?: { from: readonly string[]; to: string };
  /**
   * Set when this key is another market of a book the catalogue already has (Hard Rock Indiana is Hard Rock's Indiana
   * book, priced apart): one sportsbook, two price feeds. The site counts books, not keys (issue 56).
   */
  marketOf?: SportsbookKey;
}

const states = (list: string): readonly string[] => list.toLowerCase().split(/\s+/).filter(Boolean).sort();

function withDefault(config: Omit<SportsbookConfig, 'defaultState'>): SportsbookConfig {
  return config.states ? { ...config, defaultState: config.states[0] } : config;
}

export const SPORTSBOOKS: Readonly<Record<SportsbookKey, SportsbookConfig>> = {
  ballybet: withDefault({
    key: 'ballybet',
    displayName: 'Bally Bet',
    licence: 'us-licensed',
    letter: 'B',
    background: '#c8102e',
    text: '#ffffff',
    betText: 'Bet at Bally',
    hosts: ['*.ballybet.com', 'ballybet.com'],
    appSchemes: [],
  }),
  betmgm: withDefault({
    key: 'betmgm',
    displayName: 'BetMGM',
    licence: 'us-licensed',
    letter: 'M',
    background: '#1c1c1c',
    text: '#dbc285',
    betText: 'Bet at BetMGM',
    hosts: ['sports.*.betmgm.com', '*.betmgm.com', 'sports.on.betmgm.ca'],
    appSchemes: ['playmgmsportswrp'],
    states: states('AZ CO DC IA IL IN KS KY LA MA MD MI NC NJ NV NY OH PA TN VA WV WY ON'),
    stateRewrite: { kind: 'second-host-label', overrides: { on: 'sports.on.betmgm.ca' } },
  }),
  betonline: withDefault({
    key: 'betonline',
    displayName: 'BetOnline',
    licence: 'offshore',
    letter: 'O',
    background: '#0e2a47',
    text: '#ffffff',
    betText: 'Bet at BetOnline',
    hosts: ['*.betonline.ag', 'betonline.ag'],
    appSchemes: [],
  }),
  betparx: withDefault({
    key: 'betparx',
    displayName: 'betPARX',
    licence: 'us-licensed',
    letter: 'P',
    background: '#0a3d91',
    text: '#ffffff',
    betText: 'Bet at betPARX',
    hosts: ['*.betparx.com', 'www.playgunlake.com'],
    appSchemes: [],
    states: states('MD MI NJ OH PA'),
    stateRewrite: { kind: 'host-label', overrides: { mi: 'www.playgunlake.com' } },
  }),
  betrivers: withDefault({
    key: 'betrivers',
    displayName: 'BetRivers',
    licence: 'us-licensed',
    letter: 'R',
    background: '#13294b',
    text: '#f9c22e',
    betText: 'Bet at BetRivers',
    hosts: ['*.betrivers.com', 'on.betrivers.ca'],
    appSchemes: [],
    states: states('AZ CO DE IA IL IN LA MD MI NJ NY OH PA VA WV ON'),
    stateRewrite: { kind: 'host-label', overrides: { on: 'on.betrivers.ca' } },
  }),
  bodog: withDefault({
    key: 'bodog',
    displayName: 'Bovada',
    licence: 'offshore',
    letter: 'B',
    background: '#b3001b',
    text: '#ffffff',
    betText: 'Bet at Bovada',
    hosts: ['www.bovada.lv', 'www.bodog.eu'],
    appSchemes: [],
    hostRewrite: { from: ['www.bodog.eu', 'bodog.eu'], to: 'www.bovada.lv' },
  }),
  circa: withDefault({
    key: 'circa',
    displayName: 'Circa',
    licence: 'us-licensed',
    letter: 'C',
    background: '#000000',
    text: '#ffffff',
    betText: 'Bet at Circa',
    hosts: ['*.circasports.com', 'circasports.com'],
    appSchemes: [],
  }),
  espn: withDefault({
    key: 'espn',
    displayName: 'ESPN BET',
    licence: 'us-licensed',
    letter: 'E',
    background: '#c8102e',
    text: '#ffffff',
    betText: 'Bet at ESPN BET',
    hosts: ['espnbet.com', '*.espnbet.com'],
    appSchemes: [],
  }),
  fanatics: withDefault({
    key: 'fanatics',
    displayName: 'Fanatics',
    licence: 'us-licensed',
    letter: 'F',
    background: '#003da5',
    text: '#ffffff',
    betText: 'Bet at Fanatics',
    hosts: ['sportsbook.fanatics.com', '*.fanatics.com'],
    appSchemes: [],
  }),
  fliff: withDefault({
    key: 'fliff',
    displayName: 'Fliff',
    licence: 'sweepstakes',
    letter: 'F',
    background: '#5b21b6',
    text: '#ffffff',
    betText: 'Bet at Fliff',
    hosts: ['*.getfliff.com', 'getfliff.com'],
    appSchemes: [],
  }),
  fanduel: withDefault({
    key: 'fanduel',
    displayName: 'FanDuel',
    licence: 'us-licensed',
    letter: 'F',
    background: '#1167c9',
    text: '#ffffff',
    betText: 'Bet at FanDuel',
    hosts: ['*.sportsbook.fanduel.com', 'sportsbook.fanduel.com', 'on.sportsbook.fanduel.ca'],
    appSchemes: ['fanduelsportsbook'],
    states: states('AZ CO CT IA IL IN KS KY LA MA MD MI NC NJ NY OH PA TN VA VT WV WY ON'),
    stateRewrite: { kind: 'host-label', overrides: { on: 'on.sportsbook.fanduel.ca' } },
  }),
  draftkings: withDefault({
    key: 'draftkings',
    displayName: 'DraftKings',
    licence: 'us-licensed',
    letter: 'D',
    background: '#0b5d1e',
    text: '#ffffff',
    betText: 'Bet at DraftKings',
    hosts: ['sportsbook.draftkings.com'],
    appSchemes: ['dksb'],
  }),
  caesars: withDefault({
    key: 'caesars',
    displayName: 'Caesars',
    licence: 'us-licensed',
    letter: 'C',
    background: '#0f3d33',
    text: '#e7c77e',
    betText: 'Bet at Caesars',
    hosts: ['sportsbook.caesars.com'],
    appSchemes: [],
    states: states('AZ CO DC IA IL IN KS KY LA MA MD ME MI NC NJ NV NY OH PA TN VA WV WY ON'),
    stateRewrite: { kind: 'path-segment' },
  }),
  hardrock: withDefault({
    key: 'hardrock',
    displayName: 'Hard Rock',
    licence: 'us-licensed',
    letter: 'H',
    background: '#4b2a7b',
    text: '#ffffff',
    betText: 'Bet at Hard Rock',
    hosts: ['app.hardrock.bet', '*.hardrock.bet'],
    appSchemes: [],
  }),
  hardrock_in: withDefault({
    key: 'hardrock_in',
    displayName: 'Hard Rock Indiana',
    licence: 'us-licensed',
    letter: 'H',
    background: '#3b1f63',
    text: '#ffffff',
    betText: 'Bet at Hard Rock IN',
    hosts: ['in.hardrock.bet', '*.hardrock.bet'],
    appSchemes: [],
    marketOf: 'hardrock',
  }),
};

/**
 * Each book's own home page (its sportsbook's front page), with `{state}` where the book's site is per state. The
 * demo's bet buttons open it (decision 162): a simulated price has no event at the book to deep-link to.
 */
const HOME_PAGES: Readonly<Record<SportsbookKey, string>> = {
  ballybet: 'https://play.ballybet.com/sports',
  betmgm: 'https://sports.{state}.betmgm.com/en/sports',
  betonline: 'https://www.betonline.ag/sportsbook',
  betparx: 'https://{state}.betparx.com/',
  betrivers: 'https://{state}.betrivers.com/',
  bodog: 'https://www.bovada.lv/sports',
  circa: 'https://www.circasports.com/',
  espn: 'https://espnbet.com/',
  fanatics: 'https://sportsbook.fanatics.com/',
  fliff: 'https://www.getfliff.com/',
  fanduel: 'https://{state}.sportsbook.fanduel.com/',
  draftkings: 'https://sportsbook.draftkings.com/',
  caesars: 'https://sportsbook.caesars.com/us/{state}/bet',
  hardrock: 'https://app.hardrock.bet/',
  hardrock_in: 'https://in.hardrock.bet/',
};

/**
 * The book's home page, in its default state where its site is per state (the bet button moves it onto the visitor's
 * state as it does any of the book's links, src/domain/sportsbook-links.ts).
 */
export function homePage(book: SportsbookKey): string {
  return HOME_PAGES[book].replace('{state}', SPORTSBOOKS[book].defaultState ?? '');
}

/**
 * A sportsbook as the site counts it: one book, with the keys of its markets (Hard Rock: `hardrock` and `hardrock_in`;
 * every other book: its own key). In catalogue order.
 */
export interface Sportsbook {
  book: SportsbookConfig;
  /** Every catalogue entry of the book: the book itself, then the other markets (`marketOf` it). */
  markets: readonly SportsbookConfig[];
}

/** The catalogue's books, each once with its markets (issue 56: Hard Rock and Hard Rock Indiana are one book). */
export function sportsbooks(): Sportsbook[] {
  return SPORTSBOOK_KEYS.filter((key) => SPORTSBOOKS[key].marketOf === undefined).map((key) => ({
    book: SPORTSBOOKS[key],
    markets: SPORTSBOOK_KEYS.map((other) => SPORTSBOOKS[other]).filter(
      (entry) => entry.key === key || entry.marketOf === key,
    ),
  }));
}

/**
 * How many of the catalogue's books a choice of keys shows prices from: a book counts once whichever of its markets are
 * chosen (the finders' "Sportsbooks 14/14", counted as the site counts its 14 sportsbooks; decision 298).
 */
export function chosenBookCount(chosen: ReadonlySet<string>): number {
  return sportsbooks().filter(({ markets }) => markets.some((market) => chosen.has(market.key))).length;
}

export function isSportsbookKey(value: string): value is SportsbookKey {
  return Object.prototype.hasOwnProperty.call(SPORTSBOOKS, value);
}

export function getSportsbook(key: string): SportsbookConfig | undefined {
  return isSportsbookKey(key) ? SPORTSBOOKS[key] : undefined;
}

/** Label-wise match: each `*` label of the pattern stands for exactly one non-empty host label. */
function hostMatches(host: string, pattern: string): boolean {
  if (!pattern.includes('*')) return host === pattern;
  const hostLabels = host.split('.');
  const patternLabels = pattern.split('.');
  return (
    hostLabels.length === patternLabels.length &&
    patternLabels.every((label, i) => (label === '*' ? hostLabels[i] !== '' : label === hostLabels[i]))
  );
}

/** True when `host` is one of the book's hosts. */
export function isBookHost(book: SportsbookConfig, host: string): boolean {
  const lower = host.toLowerCase();
  return book.hosts.some((pattern) => hostMatches(lower, pattern));
}

export type LinkKind = 'desktop' | 'mobile';

/**
 * docs/product.md §11 link rule: desktop links must be `https:` to one of the book's hosts; mobile links may also use the
 * book's own app scheme. Anything else (javascript:, data:, http:, another host or scheme, unfilled `{placeholders}`)
 * is refused.
 */
export function isAllowedLink(
  book: SportsbookConfig,
  link: string | null | undefined,
  kind: LinkKind,
): boolean {
  if (typeof link !== 'string' || link.length === 0 || link.length > 2048) return false;
  if (/[{}]|%7b|%7d/i.test(link)) return false;
  if (/[\s\u0000-\u001f]/.test(link)) return false;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return false;
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === 'https') return url.username === '' && url.password === '' && isBookHost(book, url.hostname);
  return kind === 'mobile' && book.appSchemes.includes(scheme);
}

/**
 * The sharp books of the catalogue (decision 164): Circa (Las Vegas, high limits, takes professional action and moves
 * on it) and BetOnline (offshore, among the first to post lines, high limits). Their prices are what `reference=sharp`
 * de-vigs (the median across those that priced every outcome). The other offshore book, Bodog, is a recreational book
 * and is not in the set. Pinnacle, the sharpest book, is not carried by any source.
 */
export const SHARP_BOOKS: readonly SportsbookKey[] = ['circa', 'betonline'];

import type { LeagueKey } from '#domain/markets.ts';
import { seededRandom } from '#domain/random.ts';

// The simulator's players (decision 122): invented but realistic-looking names, a fixed roster per team (the same
// players in every fixture of that team for a seed), each with a role that decides which props the books hang on him
// and his stat means (./props.ts). Names include accents, "Jr." / "III", initials ("C.J."), "Mc" names and
// apostrophes, so that books naming players without the roster's id exercise the engine's matching; common surnames
// (Williams, Johnson…) are drawn more often, so two players of one event share a surname now and then.

/** A player's role: decides his stat means (props.ts) and whether books offer props on him. */
export type Role =
  // Basketball (NBA, NCAAB)
  | 'star'
  | 'guard'
  | 'wing'
  | 'big'
  | 'bench'
  // American football
  | 'qb'
  | 'rb1'
  | 'rb2'
  | 'wr1'
  | 'wr2'
  | 'wr3'
  | 'te'
  | 'defence'
  // Baseball
  | 'batter_top'
  | 'batter'
  | 'sp'
  | 'rp'
  // Hockey
  | 'forward_top'
  | 'forward'
  | 'defenceman'
  | 'goalie'
  // Soccer
  | 'striker'
  | 'attacker'
  | 'midfielder'
  | 'keeper_or_back';

export interface RosterPlayer {
  /** Stable id: `sim-<league>-<team abbreviation>-<slot>`, the same in every fixture of the team. */
  id: string;
  name: string;
  role: Role;
  /** The player's level against his role's means (0.8–1.2). */
  rating: number;
}

/** A soccer squad by role, best first (EPL and MLS alike). */
const SOCCER_ROLES: readonly Role[] = [
  'striker',
  'attacker',
  'attacker',
  'attacker',
  'midfielder',
  'midfielder',
  'midfielder',
  'keeper_or_back',
  'keeper_or_back',
  'keeper_or_back',
  'keeper_or_back',
  'keeper_or_back',
  'attacker',
  'midfielder',
];

/** Each team's roster by role, best first (props go on the first players of a role). */
const ROSTER_ROLES: Readonly<Record<LeagueKey, readonly Role[]>> = {
  nba: ['star', 'guard', 'wing', 'big', 'guard', 'wing', 'big', 'bench', 'bench', 'bench'],
  ncaab: ['star', 'guard', 'wing', 'big', 'guard', 'bench', 'bench', 'bench', 'bench'],
  nfl: ['qb', 'rb1', 'rb2', 'wr1', 'wr2', 'wr3', 'te', 'defence', 'defence', 'defence', 'defence', 'defence'],
  mlb: [
    'batter_top',
    'batter_top',
    'batter_top',
    'batter_top',
    'batter_top',
    'batter',
    'batter',
    'batter',
    'batter',
    'sp',
    'rp',
    'rp',
  ],
  nhl: [
    'forward_top',
    'forward_top',
    'forward_top',
    'forward_top',
    'defenceman',
    'forward',
    'forward',
    'forward',
    'forward',
    'defenceman',
    'defenceman',
    'defenceman',
    'goalie',
  ],
  epl: SOCCER_ROLES,
  mls: SOCCER_ROLES,
};

const words = (text: string) => text.trim().split(/\s+/);

/** First names in North American leagues; a few are initials. */
const FIRST_US = words(`
  Jalen Marcus Darius Tyrese Jaylen Malik Devin Cameron Jordan Isaiah Trey Xavier Keegan Brandon Elijah Josh Tyler
  Caleb Jamal Andre Terrence Kendrick Desmond Nolan Grant Austin Colby Derrick Quentin Rashad Shane Landon Brock Wyatt
  Cody Garrett Hunter Mason Logan Bryce Chase Dalton Reggie Corey Aaron Dominic Jonah Miles Damon Kevin Luke Nathan
  Evan Trevor Cole Jace Kobe Zion Amari Keon Jaxon Brady Tanner Kyle Zach Owen Jarrett Emmett Riley Tucker Devonte
  Kameron Dante Myles Rasheed Lamar Javon Deandre Bennett Spencer Holden Gavin
`);
const INITIALS = words(`C.J. D.J. A.J. T.J. P.J. R.J. J.J. K.J.`);
/** First names with accents or letters outside ASCII (international players in every league). */
const FIRST_INTL = words(`
  José Andrés Jérôme Maël Björn Łukasz Søren Tomáš Dāvis Raúl Joaquín Théo Benoît Jonáš Nikolaj Iñaki Noé Rasmus Matías
  Sébastien Frédéric Ångel Ömer Çağlar Kristóf Dominik Mateus João Luís Stefan Vasilije Aleksej Nikola Goran Luka
  Mikkel Emil Hugo Lucas Mateo Santiago Thiago Leandro Federico Álvaro Sergio Íñigo Kacper Jakub Ondřej Patrik
`);
/** Common surnames, drawn more often than the rest (two of them in one event is what real boards see too). */
const SURNAMES_COMMON = words(`
  Williams Johnson Smith Brown Jones Davis Miller Wilson Moore Taylor Anderson Thomas Jackson White Harris Martin
  Thompson Robinson Walker Green
`);
const SURNAMES_US = words(`
  Holloway Prescott Whitfield Barnett Caldwell Dawkins Fairbanks Gaines Hargrove Jennings Kessler Langford Maddox
  Norwood Oakley Pickett Quarles Rutledge Sutton Tillman Underwood Vaughn Whitaker Yarbrough Ashford Blanchard Crenshaw
  Dorsey Ellison Fontaine Gentry Hollins Ingram Jeffries Kimble Lockett Merriweather Nance Overton Pritchard Ransom
  Sampson Toliver Upshaw Varner Wardell Bradford Colvin Duckett Easley Fulton Goodwin Haskins Irving Jefferson Kirkland
  Lowery Mathis Newsome Orton Peyton Rowland Stallworth Talbert Vance Winslow Bostic Coley Dempsey Everett Fields
  Griffin Hubbard Ivey Knox Lyles McAllister McBride McKinnon McCaffery MacKenzie O'Neal O'Connell D'Antoni
  Banks Carver Drummond Elam Flagg Glover Hester Jett Kearse Lattimore Mosley Nash Odom Parrish Reddick Simmons Tatum
`);
/** Surnames with accents, letters outside ASCII or particles (normalisation must fold them). */
const SURNAMES_INTL = words(`
  Peña Núñez Jiménez Dvořák Lindqvist Müller Østergaard Kováč Šimić Gonçalves Brandão Łęcki Ibáñez Sørensen Håkansson
  Vučević Bogdanović Marković Jokanović Rodríguez Fernández Gutiérrez Hernández Sánchez Álvarez Ortíz Cárdenas Dumont
  Lefèvre Bélanger Côté Gagné Lévesque Pelletier Kärkkäinen Mäkinen Niemelä Öztürk Yılmaz Çelik Schäfer Krüger Weiß
  Nowak Wójcik Kowalczyk Novák Horváth Szabó Kuznetsov Petrov Ivanović Jovanović Costa Silva Araújo Conceição
  Barbosa Moreau Girard Rossi Bianchi Esposito Romano Kjærgaard Lundström Ekström Vidal Soler
`);

/** Deterministic 32-bit hash of a string (FNV-1a). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) h = Math.imul(h ^ text.charCodeAt(index), 0x01000193);
  return h >>> 0;
}

const SUFFIXES = ['Jr.', 'Jr.', 'Jr.', 'II', 'III'];

/** A loose comparison key for keeping full names (and, within a team, surnames) unique. */
const looseKey = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z ]/g, '');

/**
 * The team's roster for this seed: the same players for every fixture of the team. Surnames are unique within a team
 * (two players of one event share one only across the two teams).
 */
export function teamRoster(seed: number, league: LeagueKey, abbreviation: string): RosterPlayer[] {
  const random = seededRandom(hash32(`${seed}|${league}|${abbreviation}`));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const international = league === 'epl' || league === 'mls' ? 0.55 : league === 'nhl' ? 0.35 : 0.12;
  const surnamesTaken = new Set<string>();
  const slug = abbreviation.toLowerCase().replace(/[^a-z0-9]/g, '');
  return ROSTER_ROLES[league].map((role, slot) => {
    let name = '';
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const intl = random() < international;
      const roll = random();
      const first = intl ? pick(FIRST_INTL) : roll < 0.07 ? pick(INITIALS) : pick(FIRST_US);
      const surnameRoll = random();
      const surname = intl
        ? pick(SURNAMES_INTL)
        : surnameRoll < 0.22
          ? pick(SURNAMES_COMMON)
          : pick(SURNAMES_US);
      if (surnamesTaken.has(looseKey(surname))) continue;
      const suffix =
        !intl && league !== 'epl' && league !== 'mls' && random() < 0.07 ? ` ${pick(SUFFIXES)}` : '';
      surnamesTaken.add(looseKey(surname));
      name = `${first} ${surname}${suffix}`;
      break;
    }
    const rating = 0.8 + random() * 0.4;
    return { id: `sim-${league}-${slug}-${String(slot + 1).padStart(2, '0')}`, name, role, rating };
  });
}

import type { Player } from './props.ts';

// Matching a book's players to the event's players (issue 15, decision 120). By id first, then by a normalised name
// and team. A wrong match would pair two different players' props into a false arb, so every doubt is a non-match:
// a shared surname in the event, two players with the same normalised name, or a team that disagrees. The engine
// matches every prop price's player against its event's roster with `matchPlayer` (decision 121).

/** A player as a book lists him. `id` is the canonical player id when the source knows it (the simulator does; The
 * Odds API does not); `team` is null when the book does not say (The Odds API names only the player). */
export interface BookPlayer {
  id?: string | null;
  name: string;
  team: string | null;
}

/** The event's players and its two team ids, so 'home' / 'away' and team ids compare equal. */
export interface EventRoster {
  players: readonly Player[];
  homeTeamId?: string;
  awayTeamId?: string;
}

export type UnmatchedReason = 'empty_name' | 'not_found' | 'team_mismatch';
export type AmbiguousReason = 'same_name' | 'shared_surname';

export type SingleMatch =
  | { status: 'matched'; player: Player; by: 'id' | 'name' }
  | { status: 'unmatched'; reason: UnmatchedReason }
  | { status: 'ambiguous'; reason: AmbiguousReason; candidates: Player[] };

/** Generational suffixes dropped from the end of a name (Jr., Sr., II, III, IV, V). */
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v']);

/** Letters NFD does not decompose into a base letter and a mark. */
const FOLDED: Readonly<Record<string, string>> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
};

/**
 * The name as matching compares it: lower case, accents stripped (NFD, then the marks removed; ø, ł, ß… folded),
 * apostrophes and periods removed ("O'Neal" → "oneal", "C.J." → "cj"), hyphens and other punctuation as spaces
 * ("Karl-Anthony" = "Karl Anthony"), runs of single-letter initials joined ("C. J. McCollum" = "CJ McCollum"), then
 * generational suffixes dropped from the end (so "I I" goes as "ii" does), and a "Mc" / "Mac" token joined to the next one when it is not the first name
 * ("Mc Collum" = "McCollum", while "Mac Jones" stays). Tokens are joined by one space.
 */
export function normalizePlayerName(name: string): string {
  const folded = name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øłđðþßæœı]/g, (letter) => FOLDED[letter] ?? letter)
    .replace(/['’‘`´.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (folded === '') return '';
  // Runs of one-letter tokens are initials: "c j" → "cj". A longer token never absorbs one ("jo j" stays).
  const joined: string[] = [];
  let inRun = false;
  for (const token of folded.split(' ')) {
    if (token.length === 1 && inRun) {
      joined[joined.length - 1] += token;
    } else {
      joined.push(token);
      inRun = token.length === 1;
    }
  }
  // Suffixes go after the initials are joined, so "Smith I I" loses its "ii" now rather than on a second pass.
  while (joined.length > 1 && SUFFIXES.has(joined[joined.length - 1]!)) joined.pop();
  const out: string[] = [];
  for (let index = 0; index < joined.length; index += 1) {
    const token = joined[index]!;
    const next = joined[index + 1];
    if (index > 0 && (token === 'mc' || token === 'mac') && next !== undefined) {
      out.push(token + next);
      index += 1;
    } else {
      out.push(token);
    }
  }
  return out.join(' ');
}

/** The surname as matching sees it: the last token of the normalised name. */
export function surnameOf(normalised: string): string {
  const tokens = normalised.split(' ');
  return tokens[tokens.length - 1] ?? '';
}

function resolveTeam(team: string, roster: EventRoster): string {
  if (team === 'home' && roster.homeTeamId !== undefined) return roster.homeTeamId;
  if (team === 'away' && roster.awayTeamId !== undefined) return roster.awayTeamId;
  return team;
}

/** A roster prepared once for many look-ups. */
export interface RosterIndex {
  roster: EventRoster;
  byId: ReadonlyMap<string, Player>;
  byName: ReadonlyMap<string, Player[]>;
  bySurname: ReadonlyMap<string, Player[]>;
}

export function indexRoster(roster: EventRoster): RosterIndex {
  const byId = new Map<string, Player>();
  const byName = new Map<string, Player[]>();
  const bySurname = new Map<string, Player[]>();
  for (const player of roster.players) {
    byId.set(player.id, player);
    const name = normalizePlayerName(player.name);
    if (name === '') continue;
    const push = (map: Map<string, Player[]>, key: string) => {
      const list = map.get(key);
      if (list) list.push(player);
      else map.set(key, [player]);
    };
    push(byName, name);
    push(bySurname, surnameOf(name));
  }
  return { roster, byId, byName, bySurname };
}

/**
 * One book player against the event:
 * 1. an id equal to one of the event's player ids matches, whatever the name and team say;
 * 2. otherwise the normalised name must equal exactly one event player's (two → ambiguous 'same_name'; none →
 *    'not_found'), and no other event player may share his surname (→ ambiguous 'shared_surname': "J. Smith" or a
 *    misspelt first name could be either, so a shared surname is matched by id only);
 * 3. when the book names a team it must be the player's team ('home' / 'away' resolve to the roster's team ids): a
 *    traded player still listed under his old team is 'team_mismatch', never matched by name. A book naming no team
 *    is matched on the name alone, across both teams, under the same uniqueness rules.
 * No fuzzy matching: abbreviated first names ("L. James") and nicknames ("Nic" / "Nicolas") do not match.
 */
export function matchPlayer(index: RosterIndex, book: BookPlayer): SingleMatch {
  if (book.id) {
    const player = index.byId.get(book.id);
    if (player) return { status: 'matched', player, by: 'id' };
  }
  const name = normalizePlayerName(book.name);
  if (name === '') return { status: 'unmatched', reason: 'empty_name' };
  const same = index.byName.get(name) ?? [];
  if (same.length === 0) return { status: 'unmatched', reason: 'not_found' };
  if (same.length > 1) return { status: 'ambiguous', reason: 'same_name', candidates: [...same] };
  const sharing = index.bySurname.get(surnameOf(name)) ?? [];
  if (sharing.length > 1) return { status: 'ambiguous', reason: 'shared_surname', candidates: [...sharing] };
  const player = same[0]!;
  if (book.team !== null && book.team !== '') {
    if (resolveTeam(book.team, index.roster) !== resolveTeam(player.team, index.roster)) {
      return { status: 'unmatched', reason: 'team_mismatch' };
    }
  }
  return { status: 'matched', player, by: 'name' };
}

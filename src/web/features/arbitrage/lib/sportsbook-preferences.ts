// The visitor's sportsbook choices, kept in localStorage (docs/product.md §9 "Local storage"). Values are read defensively:
// corrupt JSON, foreign shapes and unknown books or states fall back to the defaults instead of breaking the page.
import {
  SPORTSBOOK_KEYS,
  SPORTSBOOKS,
  isSportsbookKey,
  type SportsbookConfig,
  type SportsbookKey,
} from '#domain/sportsbooks.ts';

export const SELECTED_SPORTSBOOKS_KEY = 'selectedSportsbooks';
export const SPORTSBOOK_STATES_KEY = 'sportsbookStates';

export type SportsbookStates = Partial<Record<SportsbookKey, string>>;

export function defaultSelectedSportsbooks(): SportsbookKey[] {
  return [...SPORTSBOOK_KEYS];
}

function parseJson(raw: string | null): unknown {
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** A JSON list of book keys; defaults to every known book. An empty list is a valid choice (no books). */
export function parseSelectedSportsbooks(raw: string | null): SportsbookKey[] {
  const value = parseJson(raw);
  if (!Array.isArray(value)) return defaultSelectedSportsbooks();
  const known = SPORTSBOOK_KEYS.filter((key) => value.includes(key));
  if (value.length > 0 && known.length === 0) return defaultSelectedSportsbooks();
  return known;
}

/** A JSON object book key → state code; entries for unknown books or states the book does not list are dropped. */
export function parseSportsbookStates(raw: string | null): SportsbookStates {
  const value = parseJson(raw);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const result: SportsbookStates = {};
  for (const [key, state] of Object.entries(value)) {
    if (!isSportsbookKey(key) || typeof state !== 'string') continue;
    if (SPORTSBOOKS[key].states?.includes(state)) result[key] = state;
  }
  return result;
}

/** The chosen state of a book, defaulting to its alphabetically first state; undefined for books without states. */
export function stateForBook(book: SportsbookConfig, states: SportsbookStates): string | undefined {
  return book.states ? (states[book.key] ?? book.defaultState) : undefined;
}

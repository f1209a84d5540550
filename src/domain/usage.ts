// Route families of the paid API's usage counts (GET /v1/me/usage, docs/decisions/155-usage-counting-and-key-rotation.md).
// Every family is present in every day of the answer, 0 when unused; a route added later falls in `other` until it is
// given a family here.

export const USAGE_FAMILIES = [
  'odds',
  'arbs',
  'ev',
  'middles',
  'events',
  'history',
  'sgp',
  'stream',
  'account',
  'other',
] as const;
export type UsageFamily = (typeof USAGE_FAMILIES)[number];

/** What each family covers, for the API reference. */
export const USAGE_FAMILY_ROUTES: Record<UsageFamily, string> = {
  odds: 'GET /v1/odds',
  arbs: 'GET /v1/arbs',
  ev: 'GET /v1/ev',
  middles: 'GET /v1/middles',
  events: 'GET /v1/events, /v1/events/{eventId}, /v1/leagues, /v1/sports',
  history: 'GET /v1/events/{eventId}/movement, /v1/events/{eventId}/lines, /v1/historical/odds, POST /v1/clv',
  sgp: 'POST /v1/sgp',
  stream: 'GET /v1/stream (each open; the minutes open are counted apart)',
  account:
    'none since issue 56: the account calls (GET /v1/me, /v1/me/usage, POST /v1/me/rotate, /v1/me/portal) are free and not counted (decision 218); earlier days keep their counts',
  other: 'any other /v1 request made with the key (an unknown path, say)',
};

const EXACT: Record<string, UsageFamily> = {
  '/v1/odds': 'odds',
  '/v1/arbs': 'arbs',
  '/v1/ev': 'ev',
  '/v1/middles': 'middles',
  '/v1/events': 'events',
  '/v1/events/:eventId': 'events',
  '/v1/leagues': 'events',
  '/v1/sports': 'events',
  '/v1/events/:eventId/movement': 'history',
  '/v1/events/:eventId/lines': 'history',
  '/v1/historical/odds': 'history',
  '/v1/clv': 'history',
  '/v1/sgp': 'sgp',
  '/v1/stream': 'stream',
  '/v1/me': 'account',
  '/v1/me/usage': 'account',
  '/v1/me/rotate': 'account',
};

/** The family of a route, by its pattern (`/v1/events/:eventId`); `other` for anything unknown or unrouted. */
export function usageFamilyOf(routeUrl: string | undefined): UsageFamily {
  return (routeUrl !== undefined && EXACT[routeUrl]) || 'other';
}

/** Days kept, and the most one answer shows. */
export const USAGE_RETENTION_DAYS = 90;
export const USAGE_DEFAULT_DAYS = 30;

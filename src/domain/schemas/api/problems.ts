// The problems (RFC 9457 `application/problem+json`) the paid odds API answers, one entry per `type`: the error table
// at the top of /docs, and the example the OpenAPI document gives each error response (a response's description
// names its types in backticks, and the first one named here is its example). The servers build these answers in
// src/server (HttpProblem); the docs test checks that every error response of the document has one of these.

export const PROBLEM_TYPE_BASE = 'https://sharpline.io/problems/';

export interface ApiProblem {
  /** The last part of `type`. */
  code: string;
  status: number;
  title: string;
  /** When it happens. */
  when: string;
  /** What the client should do. */
  action: string;
  /** `detail` and any extension members of the example answer. */
  example: { detail: string } & Record<string, unknown>;
}

export const API_PROBLEMS: readonly ApiProblem[] = [
  {
    code: 'validation',
    status: 400,
    title: 'Invalid request',
    when: 'A parameter or body field is missing or invalid; `errors` names each field.',
    action: 'Fix the fields listed in `errors`; do not retry unchanged.',
    example: { detail: 'One or more fields are invalid.', errors: { league: ['Give league or event'] } },
  },
  {
    code: 'bad-request',
    status: 400,
    title: 'Bad request',
    when: 'The body is not the JSON it says it is (or `Content-Type: application/json` with an empty body).',
    action: 'Send a valid JSON body.',
    example: { detail: "Body is not valid JSON but content-type is set to 'application/json'" },
  },
  {
    code: 'api-key-in-query',
    status: 400,
    title: 'API key in the URL',
    when: 'A key in the query string of a REST route (only `/v1/stream` takes `?api_key=`).',
    action: 'Send the key in the `X-Api-Key` header.',
    example: {
      detail:
        'Send the key in the X-Api-Key header; query parameters end up in logs and browser history. Only /v1/stream accepts ?api_key= (for EventSource).',
    },
  },
  {
    code: 'api-key-missing',
    status: 401,
    title: 'Invalid API key',
    when: 'No `X-Api-Key` header (nor `?api_key=` on the stream).',
    action: 'Send your key in `X-Api-Key`.',
    example: { detail: 'Send your API key in the X-Api-Key header.' },
  },
  {
    code: 'api-key-malformed',
    status: 401,
    title: 'Invalid API key',
    when: 'The value is not shaped like a key (`sl_live_…`, `sl_trial_…`).',
    action: 'Check for a truncated copy or stray quotes.',
    example: { detail: 'This is not a Sharpline API key (expected sl_live_… or sl_trial_…).' },
  },
  {
    code: 'api-key-unknown',
    status: 401,
    title: 'Invalid API key',
    when: 'No such key. Repeated unknown keys from one address are throttled (`auth-throttled`).',
    action: 'Check the key; support can look it up by its prefix.',
    example: { detail: 'No such API key. Check for a copy-paste error, or ask support with the key prefix.' },
  },
  {
    code: 'api-key-expired',
    status: 401,
    title: 'Invalid API key',
    when: 'A trial key after its seven days.',
    action: 'Choose a plan on the pricing page.',
    example: { detail: 'This API key has expired. Pick a plan to keep access.' },
  },
  {
    code: 'api-key-revoked',
    status: 401,
    title: 'Invalid API key',
    when: 'The key was replaced ("Lost your key?", a paid key replacing a trial) or its subscription ended.',
    action: 'Use the newest key from your email.',
    example: { detail: 'This API key has been revoked.' },
  },
  {
    code: 'api-key-suspended',
    status: 401,
    title: 'Invalid API key',
    when: 'The subscription payment is late past the grace period, or the subscription is paused.',
    action: 'Update the payment method at `portal_url`; the key works again when the payment goes through.',
    example: {
      detail:
        'This API key is suspended: the subscription’s payment is past due since 2026-11-20T09:00:00.000Z, and the 72-hour grace period has ended. Update the payment method in the subscription portal (https://sharpline.io/manage-subscription) and the key works again.',
      reason: 'past_due',
      since: '2026-11-20T09:00:00.000Z',
      portal_url: 'https://sharpline.io/manage-subscription',
    },
  },
  {
    code: 'sgp-credits-exhausted',
    status: 402,
    title: 'No same-game-parlay credits left',
    when: "The month's same-game-parlay credits are spent.",
    action: 'Wait for `resets_at`, or move to a plan with more credits.',
    example: {
      detail:
        'This key has used its 10,000 same-game-parlay credits for 2026-11; they reset at 2026-12-01T00:00:00.000Z.',
      limit: 10000,
      used: 10000,
      remaining: 0,
      resets_at: '2026-12-01T00:00:00.000Z',
    },
  },
  {
    code: 'plan-feature',
    status: 403,
    title: 'Not included in your plan',
    when: "The route or feature is not in the key's plan.",
    action: '`plans` lists the plans that include it, cheapest first; `upgrade_url` opens the cheapest.',
    example: {
      detail:
        'Historical closing and opening line values (CLV, OLV) is included in the Elite and Enterprise plans; this key is on the Pro plan.',
      feature: 'closing-lines',
      plan: 'pro',
      required_plan: 'elite',
      plans: ['elite', 'enterprise'],
      upgrade_url: 'https://sharpline.io/sports-betting-api#plan-elite',
    },
  },
  {
    code: 'event-not-found',
    status: 404,
    title: 'Event not found',
    when: 'No current event (or, for the history routes, no recorded event) has this id.',
    action: 'Take ids from `/v1/events`; finished events leave the live routes.',
    example: { detail: 'No current event has the id "nba-bos-lal-20261122".' },
  },
  {
    code: 'not-found',
    status: 404,
    title: 'Not found',
    when: 'No route has this path.',
    action: 'Check the path against this page.',
    example: { detail: 'No API route for GET /v1/odd; see /docs.' },
  },
  {
    code: 'method-not-allowed',
    status: 405,
    title: 'Method not allowed',
    when: 'The path is an API route, but not with this method (`DELETE /v1/odds`); `Allow` lists the methods it takes.',
    action: 'Use a method from the `Allow` header.',
    example: { detail: 'GET /v1/odds exists, DELETE does not; allowed: GET, HEAD.', allow: ['GET', 'HEAD'] },
  },
  {
    code: 'unsupported-media-type',
    status: 415,
    title: 'Unsupported media type',
    when: 'A request body that is not `application/json` (a `text/plain` or form body).',
    action: 'Send the body as JSON with `Content-Type: application/json`.',
    example: { detail: 'POST /v1/clv takes an application/json body, not text/plain.' },
  },
  {
    code: 'sgp-conflicting-legs',
    status: 422,
    title: 'Legs that cannot be combined',
    when: 'Parlay legs that cannot all win (both sides of a market, another event); `legs` names them (0-based).',
    action: 'Remove or change the legs named in `legs`.',
    example: { detail: 'Legs 1 and 2 are the same selection (Boston Celtics -4.5).', legs: [0, 1] },
  },
  {
    code: 'sgp-invalid-leg',
    status: 422,
    title: 'Invalid leg',
    when: 'A leg names a market or side the event does not have.',
    action: 'Take market keys from `/v1/odds?event=…`.',
    example: {
      detail: 'Leg 2: no current market "nba-bos-lal-20261122|total|full|300.5" in this event.',
      legs: [1],
    },
  },
  {
    code: 'sgp-unknown-player',
    status: 422,
    title: 'Unknown player',
    when: 'A prop leg’s key names no player of the event (by id, or by name however it is written), or a name two of its players share; `near_players` gives the players it may mean (at most 3, `{ id, name }`), as POST /v1/grade’s `unknown_player` does.',
    action: 'Put one of `near_players`’ ids in the key, or take the key from `/v1/odds?event=…`.',
    example: {
      detail: 'Leg 3: No player named “p-tatun” in this event’s props; did you mean Jayson Tatum (p-tatum)?',
      legs: [2],
      near_players: [{ id: 'p-tatum', name: 'Jayson Tatum' }],
    },
  },
  {
    code: 'sgp-leg-not-offered',
    status: 422,
    title: 'Leg not offered',
    when: 'No book quotes both sides of a leg now, so it has no fair price.',
    action: 'Pick another line, or retry when books quote it again.',
    example: {
      detail:
        'Leg 3: no book offers both sides of nba-bos-lal-20261122|prop|player_points|full|p-tatum|27.5 now, so it has no fair price.',
      legs: [2],
    },
  },
  {
    code: 'rate-limited',
    status: 429,
    title: 'Too many requests',
    when: "Over the plan's requests per minute.",
    action: 'Wait `Retry-After` seconds; watch `RateLimit` on every answer to stay under.',
    example: {
      detail: 'The Pro plan allows 100 requests per minute. Retry in 12 s.',
      limit: 100,
      retry_after_seconds: 12,
    },
  },
  {
    code: 'stream-limit',
    status: 429,
    title: 'Too many open streams',
    when: "The key already has its plan's number of open streams.",
    action: 'Close a stream first, or filter one stream instead of opening several.',
    example: {
      detail: 'The Pro plan allows 5 concurrent streams per key; close one first.',
      limit: 5,
    },
  },
  {
    code: 'stream-opens',
    status: 429,
    title: 'Too many stream opens',
    when: 'A key opened too many streams in a minute.',
    action: 'Keep one stream open; EventSource reconnects by itself.',
    example: {
      detail:
        'A key may open 30 streams per minute. Retry in 41 s; keep a stream open rather than reopening it.',
      limit: 30,
      retry_after_seconds: 41,
    },
  },
  {
    code: 'rotation-limit',
    status: 429,
    title: 'Too many key rotations',
    when: 'POST /v1/me/rotate more than 5 times in an hour for a key and the keys rotated from it.',
    action: 'Wait `Retry-After` seconds; the current key keeps working.',
    example: {
      detail: 'A key may be rotated 5 times per hour. Retry in 1712 s.',
      limit: 5,
      retry_after_seconds: 1712,
    },
  },
  {
    code: 'key-replaced',
    status: 409,
    title: 'Key already replaced',
    when: 'POST /v1/me/rotate with a key that a newer key replaced (“Lost your key?” emailed it, or another rotation won).',
    action: 'Use the newer key (rotate that one if you need to).',
    example: {
      detail: 'A newer key replaced this one ("Lost your key?" emailed it): use that key, or rotate it.',
    },
  },
  {
    code: 'no-subscription',
    status: 409,
    title: 'No subscription to manage',
    when: 'POST /v1/me/portal with a key that no Stripe subscription issued: a free trial key, or a key made by the operators.',
    action:
      'A trial key: choose a plan on the pricing page. A key made by the operators: ask them to change it.',
    example: {
      detail:
        'This is a free trial key: it has no subscription to manage. Choose a plan on the pricing page to subscribe.',
    },
  },
  {
    code: 'portal-unavailable',
    status: 404,
    title: 'No billing portal here',
    when: 'POST /v1/me/portal on a server that sells no subscriptions through Stripe.',
    action: 'Manage the subscription where you bought it.',
    example: { detail: 'This server does not manage subscriptions through Stripe.' },
  },
  {
    code: 'portal-limit',
    status: 429,
    title: 'Too many billing portal openings',
    when: 'POST /v1/me/portal more than 10 times in an hour for a key and the keys rotated from it.',
    action: 'Wait `Retry-After` seconds, or use the portal session already opened.',
    example: {
      detail: 'The billing portal may be opened 10 times an hour with a key. Retry in 1712 s.',
      limit: 10,
      retry_after_seconds: 1712,
    },
  },
  {
    code: 'stripe-unavailable',
    status: 503,
    title: 'Billing portal unavailable',
    when: 'Stripe did not open a billing portal session.',
    action: 'Nothing was changed: retry in a minute.',
    example: {
      detail: 'Stripe did not open the billing portal. Nothing was changed: try again in a minute.',
    },
  },
  {
    code: 'auth-throttled',
    status: 429,
    title: 'Too many failed attempts',
    when: 'Too many unknown keys from one address.',
    action: 'Fix the key, then wait `Retry-After` seconds.',
    example: {
      detail: 'Too many unknown API keys from this address. Retry in 30 s.',
      retry_after_seconds: 30,
    },
  },
  {
    code: 'feed-not-ready',
    status: 503,
    title: 'Feed not ready',
    when: 'The server started moments ago and has no arbs yet.',
    action: 'Retry after `Retry-After` (1 s).',
    example: { detail: 'The odds engine has not published yet.' },
  },
  {
    code: 'read-budget-exceeded',
    status: 503,
    title: 'Read stopped',
    when: 'An odds-history read needed more than 5 s of server time.',
    action: 'Narrow the window (`from`/`to`), the filters, or `limit`.',
    example: {
      detail:
        'This read needed more than 5 s of server time and was stopped. Narrow the window (from/to), the filters, or limit.',
      budget_ms: 5000,
    },
  },
  {
    code: 'internal',
    status: 500,
    title: 'Internal server error',
    when: 'Something failed on the server; the answer says no more (the server logs the cause).',
    action: 'Retry later; if it persists, tell support the time and the path.',
    example: { detail: 'The server failed to answer this request. Try again later.' },
  },
];

/** The example answer of a problem: `type`, `title`, `status` and its `detail` and extension members. */
export function problemExample(problem: ApiProblem): Record<string, unknown> {
  return {
    type: `${PROBLEM_TYPE_BASE}${problem.code}`,
    title: problem.title,
    status: problem.status,
    ...problem.example,
  };
}

/** The first problem of `status` that `description` names in backticks, if any. */
export function problemNamedIn(description: string, status: number): ApiProblem | undefined {
  for (const [, code] of description.matchAll(/`([a-z0-9-]+)`/g)) {
    const problem = API_PROBLEMS.find((entry) => entry.code === code && entry.status === status);
    if (problem) return problem;
  }
  return undefined;
}

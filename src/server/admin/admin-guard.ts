import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../http/rate-limit.ts';
import { clientAddressKey, isLoopback } from '../http/client-address.ts';
import { FailureThrottle, throttledProblem } from '../http/failure-throttle.ts';
import { HttpProblem } from '../http/problem.ts';

// The guard of every operators' route (`/admin/...`, used by `npm run trials` and `npm run keys`): loopback peers only
// (the socket address, never X-Forwarded-For), nothing relayed by a proxy, and the admin bearer token. Wrong tokens
// are logged (never the token) and throttled per peer address: ADMIN_AUTH_FAILURES_PER_MINUTE, then 429 (decision 013).

export function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '', 'utf8');
  const expected = Buffer.from(token, 'utf8');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

// One throttle per limiter (that is, per app), shared by every admin route plugin.
const throttles = new WeakMap<RateLimiter, FailureThrottle>();

function throttleOf(app: FastifyInstance): FailureThrottle {
  let throttle = throttles.get(app.rateLimiter);
  if (!throttle) {
    throttle = new FailureThrottle(app.rateLimiter, 'admin-auth', app.config.ADMIN_AUTH_FAILURES_PER_MINUTE);
    throttles.set(app.rateLimiter, throttle);
  }
  return throttle;
}

export function guardAdminRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // A request relayed by a reverse proxy on this host also arrives from loopback: proxies add these headers, the
    // CLIs never do. Either way the route does not exist for that client.
    const proxied = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some(
      (name) => request.headers[name] !== undefined,
    );
    const peer = request.socket.remoteAddress;
    if (!isLoopback(peer) || proxied) {
      throw new HttpProblem(404, 'not-found', 'Not found');
    }
    const throttle = throttleOf(app);
    const client = clientAddressKey(peer!);
    const blocked = throttle.retryAfterMs(client);
    if (blocked > 0) throw throttledProblem(blocked, 'Too many wrong admin tokens from this address.');
    if (!tokenMatches(request.headers.authorization, app.secrets.adminToken)) {
      const wait = await throttle.failed(client);
      request.log.warn({ peer: client, throttled: wait > 0 }, 'admin token rejected');
      if (wait > 0) throw throttledProblem(wait, 'Too many wrong admin tokens from this address.');
      throw new HttpProblem(401, 'unauthorized', 'Unauthorized', 'Send the admin token as a Bearer token.');
    }
  });
}

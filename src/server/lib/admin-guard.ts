import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopback } from './client-address.ts';
import { HttpProblem } from './problem.ts';

// The guard of every operators' route (`/admin/...`, used by `npm run trials` and `npm run keys`): loopback peers only
// (the socket address, never X-Forwarded-For), nothing relayed by a proxy, and the admin bearer token.

export function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '', 'utf8');
  const expected = Buffer.from(token, 'utf8');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

export function guardAdminRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // A request relayed by a reverse proxy on this host also arrives from loopback: proxies add these headers, the
    // CLIs never do. Either way the route does not exist for that client.
    const proxied = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some(
      (name) => request.headers[name] !== undefined,
    );
    if (!isLoopback(request.socket.remoteAddress) || proxied) {
      throw new HttpProblem(404, 'not-found', 'Not found');
    }
    if (!tokenMatches(request.headers.authorization, app.secrets.adminToken)) {
      throw new HttpProblem(401, 'unauthorized', 'Unauthorized', 'Send the admin token as a Bearer token.');
    }
  });
}

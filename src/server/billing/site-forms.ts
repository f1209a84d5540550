import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientAddressKey } from '../http/client-address.ts';
import { HOUR } from '../http/public-form.ts';

// What the pricing page's plain HTML forms need (decision 151): they post application/x-www-form-urlencoded, so that
// they work without JavaScript, and they are answered with 303 redirects rather than JSON.

/** Parses form bodies (flat `name=value` pairs, the last of a repeated name wins) in this plugin's routes. */
export function acceptUrlEncodedForms(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

/** A form field as a string of at most `max` characters (anything else: undefined). */
export function field(body: unknown, name: string, max: number): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

/** Counts one request of the client's address against `limit` per hour under `name`; false when over it. */
export async function withinHourlyLimit(
  app: FastifyInstance,
  request: FastifyRequest,
  name: string,
  limit: number,
): Promise<boolean> {
  const address = app.secrets.hashAddress(clientAddressKey(request.ip)).slice(0, 32);
  return (await app.rateLimiter.hit(`${name}:ip:${address}`, limit, HOUR)).allowed;
}

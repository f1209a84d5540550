import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { forwardedAddress } from './client-address.ts';

// TRUST_PROXY (decision 011): which hops of X-Forwarded-For the server believes. `false` (default) none; a number N
// the N nearest hops (`true` means exactly one: the proxy in front of us); a comma-separated list of proxy addresses
// or CIDR ranges (or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`), believed only when the hop is one of
// them. The client address is then the address the last trusted proxy saw, never a left-most entry a client wrote.

export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export const TrustProxySchema = z
  .string()
  .optional()
  .transform((raw, context): TrustProxy => {
    const value = (raw ?? '').trim().toLowerCase();
    if (['', 'false', 'no', '0'].includes(value)) return false;
    if (['true', 'yes'].includes(value)) return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.filter((entry) => !isAddressOrRange(entry));
    if (entries.length === 0 || bad.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `must be false, true (one hop), a hop count, or a comma-separated list of proxy addresses/CIDRs (not ${JSON.stringify(bad.join(',') || raw)})`,
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * Fastify's `trustProxy` for a parsed TRUST_PROXY. A hop count becomes a function: Fastify itself trusts no hop for a
 * bare number. Hop `i` counts from the socket peer (0) towards the client through X-Forwarded-For, right to left.
 */
export function fastifyTrustProxy(
  value: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return value;
}

/**
 * X-Forwarded-For as the trust rules should read it (issue 31, decision 149): each entry reduced to its address
 * (`ip:port` → `ip`, `[v6]:port` → `v6`), and read from the nearest hop outwards, the first entry that names no
 * address stands for the hop that wrote it (for the right-most entry, the socket peer: the proxy itself); nothing left
 * of it is believed. Without this a proxy forwarding `198.51.100.10:1001` or a client's `garbage-7` made every spelling
 * a new client with a fresh rate-limit bucket. Undefined: no entry left (drop the header).
 */
export function normaliseForwardedFor(header: string, peer: string | undefined): string | undefined {
  const entries = header.split(',');
  const kept: string[] = [];
  let writer = peer;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const address = forwardedAddress(entries[index]!);
    if (address === undefined) {
      if (writer !== undefined) kept.unshift(writer);
      break;
    }
    kept.unshift(address);
    writer = address;
  }
  return kept.length > 0 ? kept.join(', ') : undefined;
}

/**
 * With TRUST_PROXY set, rewrites each request's X-Forwarded-For with normaliseForwardedFor() before any hook or
 * handler reads `request.ip` (Fastify derives it from the header on each read). Register it first, on the root.
 */
export function normaliseForwardedForHook(app: FastifyInstance, value: TrustProxy): void {
  if (value === false) return;
  app.addHook('onRequest', async (request) => {
    const header = request.headers['x-forwarded-for'];
    if (header === undefined) return;
    const normalised = normaliseForwardedFor(
      Array.isArray(header) ? header.join(',') : header,
      request.raw.socket?.remoteAddress,
    );
    if (normalised === undefined) delete request.headers['x-forwarded-for'];
    else request.headers['x-forwarded-for'] = normalised;
  });
}

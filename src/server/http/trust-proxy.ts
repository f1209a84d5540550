import { isIP } from 'node:net';
import { z } from 'zod';

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

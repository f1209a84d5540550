import { isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * The address an X-Forwarded-For entry names (issue 31): `ip`, `ip:port`, `[v6]` and `[v6]:port`, in double quotes
 * or not; undefined for anything else (`unknown`, `garbage-7`, `999.1.1.1`, `0x7f.0.0.1`, an empty entry), which names
 * no client. Addresses are checked strictly (node:net), so one client cannot spell itself many ways.
 */
export function forwardedAddress(entry: string): string | undefined {
  let value = entry.trim();
  if (value.length > 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).trim();
  if (isIP(value) !== 0) return value;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(value);
  if (v4 && isIPv4(v4[1]!)) return v4[1]!;
  const v6 = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (v6 && isIPv6(v6[1]!)) return v6[1]!;
  return undefined;
}

/**
 * The rate-limit identity of a client address: IPv4 as is (IPv4-mapped IPv6 unwrapped), IPv6 by its /64, since one
 * subscriber usually holds a whole /64 and could otherwise rotate through it.
 */
export function clientAddressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const withoutZone = address.split('%')[0]!;
  const [head, tail = ''] = withoutZone.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = withoutZone.includes('::') ? (tail ? tail.split(':') : []) : [];
  const missing = 8 - headParts.length - tailParts.length;
  const full = [...headParts, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailParts];
  return `${full
    .slice(0, 4)
    .map((part) => part.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/** True for a loopback peer. Uses the socket address, never X-Forwarded-For. */
export function isLoopback(address: string | undefined): boolean {
  return address !== undefined && LOOPBACK.test(address);
}

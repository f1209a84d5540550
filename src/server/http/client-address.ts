import { isIPv4, isIPv6 } from 'node:net';

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

import type { Arb } from './schemas/feed.ts';

// The identity and order keys of a feed arb (docs/product.md §4), shared by the engine, the stream and the page. The arb itself is
// built by the engine's scanner (`buildArb`); tests build one without the engine through tests/support/arb-feed.ts.

/**
 * Identity of an arb across feeds (docs/product.md §4): the event id plus the sorted side ids, `ev1:a,b`. The one key of every
 * layer: the engine's order of equal edges (`arbOrderKey`), the stream's diff of consecutive snapshots and its `key`
 * field, the page's new-arb highlights and rows.
 */
export function arbKey(arb: Pick<Arb, 'event' | 'sides'>): string {
  return arbKeyOf(
    arb.event.id,
    arb.sides.map((side) => side.id),
  );
}

/** `arbKey` from the parts, for a reader that has the ids before it has a validated arb. */
export function arbKeyOf(eventId: string, sideIds: readonly string[]): string {
  return `${eventId}:${[...sideIds].sort().join(',')}`;
}

/** The tie-break of equal edges (event, market, then `arbKey`), so that equal edges never shuffle between feeds. */
export function arbOrderKey(arb: Pick<Arb, 'event' | 'market' | 'sides'>): string {
  return `${arb.event.id}|${arb.market}|${arbKey(arb)}`;
}

import { describe, expect, it } from 'vitest';
import type { PriceLinks } from '#domain/markets.ts';
import { seededRandom } from '#domain/random.ts';
import { VersionRing, type VersionOwner } from './versions.ts';

// The version ring against a model that keeps every receipt forever: for any instant inside the window, a reader sees
// exactly the receipt the model says was the newest then, whatever the mix of new versions and re-confirmations, bursts
// and lulls longer than the window, changed links, and the chunks the ring takes and lets go of.

const WINDOW = 10_000;

interface Receipt {
  american: number;
  receivedAt: number;
  updatedAt: number;
  desktop: string | null;
}

const LINKS: PriceLinks = { desktop: null, mobile: null };

function owner(american: number, at: number): VersionOwner {
  return { american, decimal: 2, links: LINKS, updatedAt: at, receivedAt: at, suspended: false, history: -1 };
}

describe('VersionRing', () => {
  // Chunks of 2 to 16,384 entries (the default): the chunk boundaries fall on every other entry or never, and the
  // ring empties (lulls longer than the window) both inside a chunk and at its end.
  it.each([
    [1, 2],
    [2, 64],
    [3, 256],
    [4, 1 << 14],
    [5, 8],
  ])(
    'readers inside the window see exactly the receipt a keep-everything model says (seed %i, chunks of %i)',
    (seed, chunkSize) => {
      const random = seededRandom(seed);
      const ring = new VersionRing(WINDOW, chunkSize);
      const prices = 40;
      const newest: VersionOwner[] = [];
      const model: Receipt[][] = [];
      let now = 1_000_000;
      for (let index = 0; index < prices; index += 1) {
        newest.push(owner(-110, now));
        model.push([{ american: -110, receivedAt: now, updatedAt: now, desktop: null }]);
      }
      let maxSize = 0;
      for (let step = 0; step < 20_000; step += 1) {
        // Bursts and lulls: most steps a few ms apart, sometimes longer than the window.
        now += random() < 0.002 ? Math.floor(random() * 3 * WINDOW) : Math.floor(random() * 20);
        const index = Math.floor(random() * prices);
        const current = newest[index]!;
        const updatedAt = now - Math.floor(random() * 5);
        if (random() < 0.4) {
          // A re-confirmation: the same object takes the new receipt's times.
          ring.replace(current, current.links, now);
          current.receivedAt = now;
          current.updatedAt = Math.max(updatedAt, current.updatedAt);
          model[index]!.push({
            american: current.american,
            receivedAt: now,
            updatedAt: current.updatedAt,
            desktop: current.links.desktop,
          });
        } else {
          // A new version: the same object takes its fields in place once the one it replaces is in the ring.
          const american = -100 - Math.floor(random() * 50);
          // Now and then the book sends new links with the new price; otherwise it keeps the ones it had.
          const links =
            random() < 0.1 ? { desktop: `https://book.example/${step}`, mobile: null } : current.links;
          ring.replace(current, links, now);
          current.american = american;
          current.updatedAt = updatedAt;
          current.receivedAt = now;
          current.links = links;
          model[index]!.push({ american, receivedAt: now, updatedAt, desktop: links.desktop });
        }
        maxSize = Math.max(maxSize, ring.size);
        if (step % 97 === 0) {
          for (let probe = 0; probe < 20; probe += 1) {
            const at = now - Math.floor(random() * WINDOW);
            const updatedBy = random() < 0.5;
            const which = Math.floor(random() * prices);
            const expected =
              model[which]!.findLast((r) => r.receivedAt <= at && (!updatedBy || r.updatedAt <= at)) ?? null;
            const seen = ring.versionAt(newest[which]!, at, updatedBy);
            expect(
              seen && {
                american: seen.american,
                receivedAt: seen.receivedAt,
                updatedAt: seen.updatedAt,
                desktop: seen.links.desktop,
              },
              `price ${which} at ${at}`,
            ).toEqual(expected);
          }
        }
      }
      // The ring held more than 1,024 entries during bursts, and holds about the window, not every receipt.
      expect(maxSize).toBeGreaterThan(1_024);
      expect(ring.size).toBeLessThan(20_000 / 4);
    },
  );

  it('a price quiet for longer than the window keeps the one version a reader at the window start needs', () => {
    const ring = new VersionRing(WINDOW);
    const price = owner(-110, 0);
    const renew = (american: number, now: number) => {
      ring.replace(price, price.links, now);
      price.american = american;
      price.updatedAt = now;
      price.receivedAt = now;
    };
    renew(-120, 60_000);
    // Another price's receipts drive the sweep for a long time.
    const other = owner(100, 60_000);
    for (let now = 60_001; now < 200_000; now += 50) {
      ring.replace(other, other.links, now);
      other.american = 100 + (now % 7);
      other.updatedAt = now;
      other.receivedAt = now;
    }
    // At 200 s the window starts at 190 s: −120 (received at 60 s) is what a reader sees there; −110 is gone.
    expect(ring.versionAt(price, 195_000, false)).toBe(price);
    renew(-130, 200_000);
    expect(ring.versionAt(price, 195_000, false)?.american).toBe(-120);
    expect(ring.versionAt(price, 199_999, true)?.american).toBe(-120);
    expect(ring.chain(price).map((v) => v.american)).toEqual([-130, -120]);
  });
});

describe('VersionRing chunks', () => {
  it('refuses a chunk size that is not a power of two', () => {
    expect(() => new VersionRing(WINDOW, 100)).toThrow(/power of two/);
  });
});

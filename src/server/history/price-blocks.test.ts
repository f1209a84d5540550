import { describe, expect, it } from 'vitest';
import { BLOCK_MAX_TICKS, JOURNALED_SPREAD, JOURNALED_WINDOW_MS, OpenBlocks } from './price-blocks.ts';

// The open blocks' journal (decision 299): a batch whose transaction fails leaves the open blocks exactly as they were
// before it, whatever it did (blocks opened, changes appended, blocks sealed full or by age); one that commits keeps it.

const DAY_US = 86_400_000_000;

/** Every open block as plain columns, by series. */
function contents(open: OpenBlocks, ids: readonly number[]) {
  return ids.map((id) => {
    const block = open.get(id);
    return block
      ? { id, atUs: [...block.atUs], american: [...block.american], state: [...block.state] }
      : null;
  });
}

describe('OpenBlocks', () => {
  it('a rollback undoes opens, appends and seals in any mix; a commit keeps them', () => {
    const open = new OpenBlocks();
    const ids = [1, 2, 3, 4];
    const t0 = 20_000 * DAY_US;
    // Committed state: series 1 one short of full, series 2 with two changes.
    for (let i = 0; i < BLOCK_MAX_TICKS - 1; i += 1) open.append(1, t0 + i, -110 - i, 1.9, 0);
    open.append(2, t0, 120, 2.2, 0);
    open.append(2, t0 + 5, 125, 2.25, 1);
    open.commit();
    const before = contents(open, ids);
    const size = open.size;

    // A batch: series 1 fills then seals full, series 3 opens, series 2 crosses a day (sealed), all sealed by age.
    open.append(1, t0 + 1_000, -150, 1.67, 0);
    expect(open.append(1, t0 + 1_001, -155, 1.65, 0)?.seriesId).toBe(1);
    open.append(3, t0 + 2_000, 200, 3, 0);
    expect(open.append(2, t0 + DAY_US, 130, 2.3, 0)?.seriesId).toBe(2);
    open.append(2, t0 + DAY_US + 1, 131, 2.31, 2);
    expect(open.sealOlder(t0 + 1_500).map((block) => block.seriesId)).toEqual([1]);
    expect(contents(open, ids)).not.toEqual(before);
    open.rollback();
    expect(contents(open, ids)).toEqual(before);
    expect(open.size).toBe(size);

    // The same batch committed: what it did stays, and a later rollback undoes only what came after the commit.
    open.append(4, t0 + 3_000, 300, 4, 0);
    open.commit();
    const kept = contents(open, ids);
    open.append(4, t0 + 3_001, 305, 4.05, 0);
    open.append(1, t0 + 3_002, -160, 1.62, 0);
    open.rollback();
    expect(contents(open, ids)).toEqual(kept);
    // A rollback with nothing done changes nothing.
    open.rollback();
    expect(contents(open, ids)).toEqual(kept);
  });

  it('under a spread, blocks opened together are sealed over the last part of the window, each by its own series window', () => {
    const open = new OpenBlocks();
    open.windowMs = JOURNALED_WINDOW_MS;
    open.spread = JOURNALED_SPREAD;
    const t0Ms = 20_000 * 86_400_000;
    for (let id = 1; id <= 1_000; id += 1) open.append(id, t0Ms * 1000, -110, 1.91, 0);
    const shortest = JOURNALED_WINDOW_MS * (1 - JOURNALED_SPREAD);
    expect(open.sealDue(t0Ms + shortest - 1)).toEqual([]);
    const sealedAt: number[] = [];
    for (let step = 0; step <= 10; step += 1) {
      const at = t0Ms + shortest + ((JOURNALED_WINDOW_MS - shortest) * step) / 10;
      sealedAt.push(open.sealDue(at).length);
    }
    // All sealed by the full window, none twice, spread over its last part rather than all at once.
    expect(sealedAt.reduce((sum, n) => sum + n, 0)).toBe(1_000);
    expect(open.size).toBe(0);
    expect(Math.max(...sealedAt)).toBeLessThan(200);
    // Without a spread, every block is sealed when the window has passed, as before.
    const plain = new OpenBlocks();
    for (let id = 1; id <= 10; id += 1) plain.append(id, t0Ms * 1000, -110, 1.91, 0);
    expect(plain.sealDue(t0Ms + plain.windowMs - 1)).toEqual([]);
    expect(plain.sealDue(t0Ms + plain.windowMs)).toHaveLength(10);
  });
});

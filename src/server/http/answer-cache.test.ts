import { describe, expect, it } from 'vitest';
import { snapshotEntry } from '../feed/plugin.ts';
import { AnswerCache } from './answer-cache.ts';
import type { StaticEntry } from './static-files.ts';

const plain = (body: Buffer): StaticEntry => ({
  body,
  etag: `"${body.length}"`,
  contentType: 'application/json',
});
/** An answer of about `size` bytes once serialised. */
const answerOf = (size: number) => ({ text: 'x'.repeat(size - 11) });

describe('AnswerCache', () => {
  it('renders a question once per board and serves the kept bytes until the board changes', async () => {
    const cache = new AnswerCache({ budgetBytes: 10_000, encode: plain });
    let renders = 0;
    const render = () => ({ renders: (renders += 1) });
    const first = await cache.answer('q', 1, render);
    expect(await cache.answer('q', 1, render)).toBe(first);
    expect([cache.rendered, cache.hits]).toEqual([1, 1]);
    const next = await cache.answer('q', 2, render);
    expect(next).not.toBe(first);
    expect(JSON.parse(next.body.toString())).toEqual({ renders: 2 });
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe('q'.length + next.body.length);
  });

  it('never holds more than its budget, dropping the least recently used answers first', async () => {
    const cache = new AnswerCache({ budgetBytes: 1_000, encode: plain });
    let rendered = 0;
    for (let n = 0; n < 50; n += 1) {
      const entry = await cache.answer(`q${n}`, 1, () => answerOf(300));
      rendered += entry.body.length;
      expect(cache.bytes).toBeLessThanOrEqual(1_000);
      // q0 is read after every other question: it stays the most recently used.
      await cache.answer('q0', 1, () => answerOf(300));
    }
    expect(rendered).toBeGreaterThan(10 * cache.budgetBytes);
    expect(cache.size).toBe(3);
    expect(cache.evicted).toBe(47);
    const before = cache.rendered;
    await cache.answer('q0', 1, () => answerOf(300));
    await cache.answer('q49', 1, () => answerOf(300));
    expect(cache.rendered).toBe(before);
    await cache.answer('q47', 1, () => answerOf(300));
    expect(cache.rendered).toBe(before + 1);
  });

  it('counts the compressed forms once they are ready', async () => {
    const cache = new AnswerCache({ budgetBytes: 1_000_000, encode: snapshotEntry });
    const entry = await cache.answer('q', 1, () => ({ rows: Array.from({ length: 500 }, (_, i) => i) }));
    expect(entry.gzip).toBeDefined();
    expect(entry.br).toBeDefined();
    expect(cache.bytes).toBe(1 + entry.body.length + entry.gzip!.length + entry.br!.length);
  });

  it('sends an answer larger than the whole budget without keeping it', async () => {
    const cache = new AnswerCache({ budgetBytes: 1_000, encode: plain });
    await cache.answer('small', 1, () => answerOf(300));
    const big = await cache.answer('big', 1, () => answerOf(5_000));
    expect(big.body.length).toBe(5_000);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBeLessThanOrEqual(1_000);
  });
});

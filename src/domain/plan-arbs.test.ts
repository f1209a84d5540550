import { describe, expect, it } from 'vitest';
import { planArbs, planArbsKeyed } from './plan-arbs.ts';

const arb = (key: string, edge: number) => ({ key, edge_pct: edge });
const keyed = (...arbs: { key: string; edge_pct: number }[]) => ({ arbs, keys: arbs.map((a) => a.key) });

describe('planArbs (decision 210)', () => {
  it('takes the arbs up to the free cap and the near-arbs as they are now, the rest from the delayed set', () => {
    const now = keyed(arb('a', 2.5), arb('b', 0.9), arb('c', -0.4));
    const before = keyed(arb('d', 3.1), arb('a', 1.8), arb('b', 1.4), arb('e', 0.2));
    expect(planArbs(now, before)).toEqual([arb('d', 3.1), arb('a', 1.8), arb('b', 0.9), arb('c', -0.4)]);
  });

  it('gives a real-time plan (the same set twice) every arb once, best first', () => {
    const now = keyed(arb('a', 2.5), arb('b', 1), arb('c', -0.4));
    expect(planArbs(now, now)).toEqual(now.arbs);
  });

  it('gives only the free part when nothing that old exists yet', () => {
    expect(planArbs(keyed(arb('a', 2.5), arb('b', 0.5)), undefined)).toEqual([arb('b', 0.5)]);
  });
});

describe('planArbsKeyed', () => {
  it('keeps each arb beside its key, in the order of planArbs', () => {
    const now = keyed(arb('a', 2.5), arb('b', 0.9), arb('c', -0.4));
    const before = keyed(arb('d', 3.1), arb('a', 1.8), arb('b', 1.4));
    const result = planArbsKeyed(now, before);
    expect(result.arbs).toEqual(planArbs(now, before));
    expect(result.keys).toEqual(['d', 'a', 'b', 'c']);
  });
});

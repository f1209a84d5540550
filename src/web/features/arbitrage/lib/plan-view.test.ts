import { describe, expect, it } from 'vitest';
import { getPlan } from '#domain/plans.ts';
import { lateSeconds, lateText, planViewText } from './plan-view.ts';

const starter = { delaySeconds: getPlan('starter').latencySeconds, delayedAboveEdgePct: 1, perMinute: 30 };
const elite = { delaySeconds: 0, delayedAboveEdgePct: null, perMinute: 250 };

describe('a pasted key’s plan on the arbitrage page (decisions 213, 225)', () => {
  it('marks as late only the arbs above the free cap on a delayed plan, by the plan’s delay', () => {
    expect(lateSeconds(2.4, starter)).toBe(120);
    expect(lateSeconds(1, starter)).toBeNull();
    expect(lateSeconds(0.4, starter)).toBeNull();
    expect(lateSeconds(-0.3, starter)).toBeNull();
    expect(lateSeconds(2.4, elite)).toBeNull();
    expect(lateSeconds(2.4, undefined)).toBeNull();
  });

  it('says the delay as the pricing cards do', () => {
    expect(lateText(120)).toBe('2 minutes late');
    expect(lateText(15)).toBe('15 seconds late');
    expect(planViewText(starter)).toBe('arbs up to 1% edge in real time, above it 2 minutes late');
    expect(planViewText(elite)).toBe('every arb in real time');
  });
});

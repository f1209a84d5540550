import { describe, expect, it } from 'vitest';
import { edgeTone, formatEdge } from './edge-badge.ts';

describe('edgeTone', () => {
  it('is green when positive and pale green at exactly zero', () => {
    expect(edgeTone(0.01)).toBe('positive');
    expect(edgeTone(3.2)).toBe('positive');
    expect(edgeTone(0)).toBe('zero');
    expect(edgeTone(-0)).toBe('zero');
  });

  it('uses the lightest red at or under 0.25 below zero', () => {
    expect(edgeTone(-0.01)).toBe('negative-1');
    expect(edgeTone(-0.25)).toBe('negative-1');
    expect(edgeTone(-0.26)).toBe('negative-2');
  });

  it('uses the second red at or under 0.5 and the third at or under 0.75', () => {
    expect(edgeTone(-0.5)).toBe('negative-2');
    expect(edgeTone(-0.51)).toBe('negative-3');
    expect(edgeTone(-0.75)).toBe('negative-3');
  });

  it('uses the darkest red above 0.75', () => {
    expect(edgeTone(-0.76)).toBe('negative-4');
    expect(edgeTone(-5)).toBe('negative-4');
  });

  it('colours what is shown: an edge that rounds to 0.00 is the zero colour', () => {
    expect(edgeTone(-0.004)).toBe('zero');
    expect(edgeTone(0.004)).toBe('zero');
    expect(edgeTone(0.25)).toBe('positive');
  });
});

describe('formatEdge', () => {
  it('shows two decimals and never "-0.00"', () => {
    expect(formatEdge(2.5149)).toBe('2.51%');
    expect(formatEdge(0)).toBe('0.00%');
    expect(formatEdge(-0.001)).toBe('0.00%');
    expect(formatEdge(-0.3)).toBe('-0.30%');
  });
});

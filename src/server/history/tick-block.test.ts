import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TickStateCode } from './recorder.ts';
import {
  decodeLastBefore,
  decodeTicks,
  decodeTimes,
  derivedDecimal,
  encodeTicks,
  type TickColumns,
} from './tick-block.ts';

// The price block codec (decision 240): whatever a series' ticks hold, decoding gives back exactly the ticks encoded
// (same times to the microsecond, the same doubles, the same states, in order), and the usual change is small.

const T0_US = Date.UTC(2026, 10, 23, 9) * 1000;

/** Ticks as the recorder makes them: whole American points, the engine's decimal, increasing times. */
const usualTick = fc.record({
  gapUs: fc.oneof(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1_000, max: 600_000_000 })),
  american: fc.oneof(fc.integer({ min: -5_000, max: -100 }), fc.integer({ min: 100, max: 50_000 })),
  state: fc.constantFrom<TickStateCode>(0, 1, 2),
});

/** Anything a tick's columns can hold: any double for the odds (NaN, ±0, ±∞, fractions), any time, any state. */
const anyTick = fc.record({
  atUs: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  american: fc.oneof(
    fc.double(),
    fc.integer({ min: -400, max: 400 }),
    fc.constantFrom(-0, 0, 2 ** 40, -(2 ** 40)),
  ),
  decimal: fc.oneof(fc.double(), fc.constantFrom(1.909, 2.5, -0)),
  state: fc.constantFrom<TickStateCode>(0, 1, 2),
});

function columns(
  ticks: { atUs: number; american: number; decimal: number; state: TickStateCode }[],
): TickColumns {
  return {
    atUs: ticks.map((tick) => tick.atUs),
    american: ticks.map((tick) => tick.american),
    decimal: ticks.map((tick) => tick.decimal),
    state: ticks.map((tick) => tick.state),
  };
}

function usual(steps: { gapUs: number; american: number; state: TickStateCode }[]): TickColumns {
  let atUs = T0_US;
  return columns(
    steps.map((step) => {
      atUs += step.gapUs;
      return { atUs, american: step.american, decimal: derivedDecimal(step.american)!, state: step.state };
    }),
  );
}

/** Equal as stored: Object.is on every double (NaN equals NaN, 0 and -0 differ). */
function expectSame(actual: TickColumns, expected: TickColumns): void {
  expect(actual.atUs).toEqual(expected.atUs);
  expect(actual.state).toEqual(expected.state);
  expect(actual.american.length).toBe(expected.american.length);
  for (let index = 0; index < expected.american.length; index += 1) {
    expect(Object.is(actual.american[index], expected.american[index])).toBe(true);
    expect(Object.is(actual.decimal[index], expected.decimal[index])).toBe(true);
  }
}

describe('price block codec', () => {
  it('gives back exactly the ticks of a recorder-like sequence', () => {
    fc.assert(
      fc.property(fc.array(usualTick, { minLength: 0, maxLength: 200 }), (steps) => {
        const ticks = usual(steps);
        const block = encodeTicks(ticks);
        expectSame(decodeTicks(block, ticks.atUs[0] ?? 0), ticks);
        expect(decodeTimes(block, ticks.atUs[0] ?? 0)).toEqual(ticks.atUs);
      }),
      { numRuns: 500 },
    );
  });

  it('gives back exactly any ticks: any double for the odds, any time order, any state', () => {
    fc.assert(
      fc.property(fc.array(anyTick, { minLength: 0, maxLength: 60 }), (raw) => {
        const ticks = columns(raw);
        const block = encodeTicks(ticks);
        expectSame(decodeTicks(block, ticks.atUs[0] ?? 0), ticks);
        // The times alone (the historical board's walk) are the same times.
        expect(decodeTimes(block, ticks.atUs[0] ?? 0)).toEqual(ticks.atUs);
        // The last tick before an instant (the board's prices) is the one the full decoding gives.
        const bound = raw[Math.floor(raw.length / 2)]?.atUs ?? 0;
        for (const openOnly of [false, true]) {
          let expected: number | null = null;
          ticks.atUs.forEach((us, index) => {
            if (us < bound && (!openOnly || ticks.state[index] === 0)) {
              if (expected === null || us > ticks.atUs[expected]!) expected = index;
            }
          });
          const last = decodeLastBefore(block, ticks.atUs[0] ?? 0, bound, openOnly);
          if (expected === null) expect(last).toBeNull();
          else {
            const index: number = expected;
            expect(last?.atUs).toBe(ticks.atUs[index]);
            expect(last?.state).toBe(ticks.state[index]);
            expect(Object.is(last?.american, ticks.american[index])).toBe(true);
            expect(Object.is(last?.decimal, ticks.decimal[index])).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a change of the usual kind (whole points, engine decimal, under 17 minutes apart) within 6 bytes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            gapUs: fc.integer({ min: 1, max: 1_000_000 }).map((ms) => ms * 1000),
            move: fc.integer({ min: -60, max: 60 }),
            state: fc.constantFrom<TickStateCode>(0, 1),
          }),
          { minLength: 20, maxLength: 200 },
        ),
        (steps) => {
          let american = -110;
          const ticks = usual(
            steps.map((step) => {
              american += step.move;
              if (american > -100 && american < 100) american = american < 0 ? 100 : -100;
              return { gapUs: step.gapUs, american, state: step.state };
            }),
          );
          const bytes = encodeTicks(ticks).length;
          // 1 byte of version, up to 2 of count; per tick 1 of tag, up to 3 of milliseconds (a gap under 2^20 ms,
          // ~17 minutes) and up to 2 of American delta (a move across even money: 200 points).
          expect(bytes).toBeLessThanOrEqual(3 + ticks.atUs.length * 6);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a block of an unknown version, a truncated block and bytes after the last tick', () => {
    const ticks = usual([
      { gapUs: 5_000, american: -110, state: 0 },
      { gapUs: 7_000_001, american: 120, state: 1 },
    ]);
    const block = encodeTicks(ticks);
    expect(() => decodeTicks(Uint8Array.of(9, ...block.subarray(1)), ticks.atUs[0]!)).toThrow(/version 9/);
    expect(() => decodeTicks(block.subarray(0, block.length - 1), ticks.atUs[0]!)).toThrow(/truncated/);
    expect(() => decodeTimes(Uint8Array.of(9, ...block.subarray(1)), ticks.atUs[0]!)).toThrow(/version 9/);
    expect(() => decodeTimes(block.subarray(0, block.length - 1), ticks.atUs[0]!)).toThrow(/truncated/);
    expect(() => decodeTicks(Uint8Array.of(...block, 0), ticks.atUs[0]!)).toThrow(/after its last tick/);
  });

  it('refuses columns of different lengths and a time that is not a non-negative safe integer', () => {
    expect(() => encodeTicks({ atUs: [1], american: [], decimal: [1], state: [0] })).toThrow(
      /different lengths/,
    );
    expect(() => encodeTicks({ atUs: [1.5], american: [100], decimal: [2], state: [0] })).toThrow(
      /out of range/,
    );
    expect(() => encodeTicks({ atUs: [-1], american: [100], decimal: [2], state: [0] })).toThrow(
      /out of range/,
    );
  });
});

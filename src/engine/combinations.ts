// The scanner's combination search over one market's best prices held as book slots (store.ts): exactly what
// `bestCombinations` (the search it replaced, now the tests' reference in tests/support/best-combinations.ts) returns
// for the same prices, without its per-comparison strings (the sorted books of a combination, joined, built on every
// comparison of its sort) and with no allocation beyond the result. Decision 132.
//
// `bestCombinations` enumerates the combinations of the best prices per outcome (each outcome from a different book),
// cutting each loop once the partial sum reaches the floor's limit, sorts them stably by (sum, set of books as text)
// and keeps the first of each set of books, at most `maxPerMarket`. Here the same enumeration, with the same sums
// computed in the same order, records for each combination its sum and its set of books as one number: the sorted
// slots in base 32. Slot order is key order, and '+' (the join) sorts before every character of a key, so comparing
// these numbers orders the sets exactly as comparing their texts does. A stable sort keeps the enumeration order
// among equal (sum, set); picking the smallest (sum, set, enumeration index) not yet taken, with a set not yet taken,
// `maxPerMarket` times, yields the same combinations in the same order.

/** The most combinations of 3 outcomes from 6 prices each; more are never enumerated with the default options. */
const INITIAL = 256;

let sums = new Float64Array(INITIAL);
let sets = new Float64Array(INITIAL);
/** The combination's place (index into the outcome's best slots) for each outcome: 3 per combination. */
let places = new Int32Array(INITIAL * 3);

function grow(): void {
  const size = sums.length * 2;
  const more = <A extends Float64Array | Int32Array>(from: A, to: A): A => {
    to.set(from);
    return to;
  };
  sums = more(sums, new Float64Array(size));
  sets = more(sets, new Float64Array(size));
  places = more(places, new Int32Array(size * 3));
}

function setOf(a: number, b: number, c: number): number {
  // Sorted ascending, base 32 (slots < 31); two outcomes pass c = -1.
  let x = a;
  let y = b;
  if (y < x) [x, y] = [y, x];
  if (c < 0) return x * 32 + y;
  let z = c;
  if (z < y) {
    [y, z] = [z, y];
    if (y < x) [x, y] = [y, x];
  }
  return (x * 32 + y) * 32 + z;
}

/**
 * The best combinations of one market. `decimals[offset + way * stride + slot]` is the decimal of that outcome's book
 * slot; `top[way * count + i]` its i-th best slot (best first: decimal descending, then slot), `counts[way]` how many.
 * Writes each combination's place per outcome into `out` (`ways` numbers each, best combination first) and returns how
 * many.
 */
export function combineBest(
  decimals: Float64Array,
  offset: number,
  stride: number,
  ways: number,
  top: Int32Array,
  count: number,
  counts: readonly number[],
  limit: number,
  maxPerMarket: number,
  out: number[],
): number {
  if (ways < 2 || ways > 3) return 0;
  let n = 0;
  const n0 = counts[0]!;
  const n1 = counts[1]!;
  const n2 = ways === 3 ? counts[2]! : 0;
  for (let i = 0; i < n0; i += 1) {
    const a = top[i]!;
    const sa = 1 / decimals[offset + a]!;
    if (sa >= limit) break;
    for (let j = 0; j < n1; j += 1) {
      const b = top[count + j]!;
      if (b === a) continue;
      const sb = sa + 1 / decimals[offset + stride + b]!;
      if (sb >= limit) break;
      if (ways === 2) {
        if (n === sums.length) grow();
        sums[n] = sb;
        sets[n] = setOf(a, b, -1);
        places[n * 3] = i;
        places[n * 3 + 1] = j;
        n += 1;
        continue;
      }
      for (let k = 0; k < n2; k += 1) {
        const c = top[2 * count + k]!;
        if (c === a || c === b) continue;
        const sc = sb + 1 / decimals[offset + 2 * stride + c]!;
        if (sc >= limit) break;
        if (n === sums.length) grow();
        sums[n] = sc;
        sets[n] = setOf(a, b, c);
        places[n * 3] = i;
        places[n * 3 + 1] = j;
        places[n * 3 + 2] = k;
        n += 1;
      }
    }
  }
  let found = 0;
  out.length = 0;
  // Selection of the smallest (sum, set, index) among the sets not yet taken, up to maxPerMarket times.
  let lastSum = -Infinity;
  let lastSet = -1;
  // Like bestCombinations, the first one is kept whatever maxPerMarket says.
  const most = Math.max(1, maxPerMarket);
  while (found < most) {
    let best = -1;
    for (let index = 0; index < n; index += 1) {
      const sum = sums[index]!;
      // Only combinations after the last one taken in (sum, set) order: taken sets are passed over, as is every other
      // combination of a set already taken (same set, not before it).
      if (sum < lastSum || (sum === lastSum && sets[index]! <= lastSet)) continue;
      if (best >= 0) {
        const bestSum = sums[best]!;
        if (sum > bestSum || (sum === bestSum && sets[index]! >= sets[best]!)) continue;
      }
      best = index;
    }
    if (best < 0) break;
    // A set already taken with a smaller sum: skip it (its later combinations never win again) and search on.
    if (takenBefore(best, found, out, ways, top, count)) {
      lastSum = sums[best]!;
      lastSet = sets[best]!;
      continue;
    }
    for (let way = 0; way < ways; way += 1) out.push(places[best * 3 + way]!);
    found += 1;
    lastSum = sums[best]!;
    lastSet = sets[best]!;
  }
  return found;
}

/** Whether the set of combination `index` is already among the `found` combinations written to `out`. */
function takenBefore(
  index: number,
  found: number,
  out: readonly number[],
  ways: number,
  top: Int32Array,
  count: number,
): boolean {
  const set = sets[index]!;
  for (let f = 0; f < found; f += 1) {
    const a = top[out[f * ways]!]!;
    const b = top[count + out[f * ways + 1]!]!;
    const c = ways === 3 ? top[2 * count + out[f * ways + 2]!]! : -1;
    if (setOf(a, b, c) === set) return true;
  }
  return false;
}

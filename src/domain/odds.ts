// Odds conversions (docs/product.md §10): compute in decimal, display American.
declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** Decimal (European) odds: finite and strictly greater than 1. */
export type DecimalOdds = Brand<number, 'DecimalOdds'>;
/** American odds: an integer-like value <= -100 or >= +100. */
export type AmericanOdds = Brand<number, 'AmericanOdds'>;
/** Money as an integer count of cents. */
export type Cents = Brand<number, 'Cents'>;

export function isValidDecimal(value: number): value is DecimalOdds {
  return Number.isFinite(value) && value > 1;
}

export function isValidAmerican(value: number): value is AmericanOdds {
  return Number.isFinite(value) && (value >= 100 || value <= -100);
}

export function toDecimalOdds(value: number): DecimalOdds {
  if (!isValidDecimal(value)) throw new RangeError(`Decimal odds must be finite and > 1, got ${value}`);
  return value;
}

export function toAmericanOdds(value: number): AmericanOdds {
  if (!isValidAmerican(value)) throw new RangeError(`American odds must be <= -100 or >= +100, got ${value}`);
  return value;
}

/** +A → 1 + A/100; −A → 1 + 100/|A|. */
export function americanToDecimal(american: AmericanOdds): DecimalOdds {
  return (american > 0 ? 1 + american / 100 : 1 + 100 / Math.abs(american)) as DecimalOdds;
}

/** Inverse of americanToDecimal: d >= 2 → +(d−1)·100; d < 2 → −100/(d−1). */
export function decimalToAmerican(decimal: DecimalOdds): AmericanOdds {
  return (decimal >= 2 ? (decimal - 1) * 100 : -100 / (decimal - 1)) as AmericanOdds;
}

/**
 * The text of a whole American point: an explicit sign ("+150", "-110"), and even money as US books write it, "+100"
 * (issue 56: −100 and +100 are the same price, 2.0 in decimal; "-100" read as a favourite's price).
 */
function americanPointText(points: number): string {
  return points > 0 || points === -100 ? `+${Math.abs(points)}` : `${points}`;
}

/** American odds as shown to a bettor: rounded to an integer, with an explicit sign ("+150", "-110", even "+100"). */
export function formatAmerican(american: AmericanOdds): string {
  return americanPointText(Math.round(american));
}

/**
 * The American text of a computed price (a fair price, a parlay price) rounded in the bettor's disfavour: down to the
 * whole American point below (toward −∞), so the price read is never better than the decimal it stands for (6.0968 is
 * +509.68 → "+509", not "+510"; 1.9 is −111.1… → "-112"). The 1e-9 guard keeps a price that is a whole American point
 * (5.1 → +410, 1 + 100/110 → −110) from dropping a point through binary representation error. Book prices the feed
 * carries keep their own text (`formatAmerican`): their 4-place decimal is a floor of the price, not the price.
 */
export function formatAmericanAtMost(decimal: number): string {
  return americanPointText(Math.floor(decimalToAmerican(decimal as DecimalOdds) + 1e-9));
}

/**
 * A feed's American text as the site shows it: a whole price in `formatAmerican`'s spelling ("150" → "+150", even
 * money "-100" → "+100"), any other text (a fractional point, "+133.33") as it came.
 */
export function americanDisplay(text: string): string {
  const american = parseAmerican(text);
  return american !== null && Number.isInteger(american) ? formatAmerican(american) : text;
}

/** Parses "+150", "150", "-110" (as feeds send them); null when not valid American odds. */
export function parseAmerican(text: string): AmericanOdds | null {
  const trimmed = text.trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return isValidAmerican(value) ? value : null;
}

export function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}

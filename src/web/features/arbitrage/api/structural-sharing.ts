// Keeps the previous value's objects wherever the new value is deep-equal to them (the idea of TanStack Query's
// `replaceEqualDeep`), so an arb that did not change between two fetches is the same object and its memoised row
// skips rendering. Handles the JSON shapes the feed has: plain objects, arrays and primitives.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

export function replaceEqualDeep<T>(previous: unknown, next: T): T {
  if (previous === next) return next;
  const arrays = Array.isArray(previous) && Array.isArray(next);
  if (!arrays && !(isPlainObject(previous) && isPlainObject(next))) return next;
  const prev = previous as Record<string, unknown>;
  const nextRecord = next as Record<string, unknown>;
  const keys = arrays ? (next as unknown[]).map((_, i) => String(i)) : Object.keys(nextRecord);
  const prevSize = arrays ? (previous as unknown[]).length : Object.keys(prev).length;
  const copy: Record<string, unknown> | unknown[] = arrays ? [] : {};
  let equalItems = 0;
  for (const key of keys) {
    const value = replaceEqualDeep(prev[key], nextRecord[key]);
    (copy as Record<string, unknown>)[key] = value;
    if (value === prev[key] && (value !== undefined || Object.prototype.hasOwnProperty.call(prev, key)))
      equalItems++;
  }
  return (prevSize === keys.length && equalItems === prevSize ? previous : copy) as T;
}

// What a form tells the visitor when the server refuses it with an RFC 9457 problem (docs/product.md §8): the
// server's reason (`detail`) and, for a 429, how long to wait, from the Retry-After header or else the problem's
// `retryAfter` (seconds). Shared by the trial form and "Lost your key?" (issue 34).

/** A wait rounded up, in seconds or minutes while fewer than 60, else in hours: `45 seconds`, `59 minutes`, `2 hours`. */
export function formatWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const [count, unit] =
    seconds < 60
      ? [Math.max(1, Math.ceil(seconds)), 'second']
      : minutes < 60
        ? [minutes, 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function whole(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** Seconds to wait: the Retry-After header (delta-seconds), else the problem body's `retryAfter`. */
export function retryAfterSeconds(headers: Headers, body: unknown): number | undefined {
  const header = whole(headers.get('retry-after'));
  if (header !== undefined) return header;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    return whole((body as Record<string, unknown>).retryAfter);
  }
  return undefined;
}

/** The problem's `detail` when it is a non-empty string. */
export function problemDetail(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const detail = (body as Record<string, unknown>).detail;
  return typeof detail === 'string' && detail.trim() !== '' ? detail.trim() : undefined;
}

/**
 * "Too many trial requests for this address. Try again in 3 hours.": the reason, with its vague "Try again later."
 * replaced by the wait when the wait is known.
 */
export function retryText(detail: string, seconds: number | undefined): string {
  if (seconds === undefined) return detail;
  const reason = detail.replace(/\s*Try again later\.?$/i, '');
  return `${reason} Try again in ${formatWait(seconds)}.`;
}

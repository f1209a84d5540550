import { createHash } from 'node:crypto';

/** What logs say instead of an email address: a short SHA-256 of its normalised form. */
export function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16);
}

const ADDRESS = /[^\s<>()"',;:]+@[^\s<>()"',;:]+/g;

/**
 * A loggable description of an error: the driver's own error (Drizzle wraps it with the query and its parameters,
 * which may hold an address or a sealed key) with addresses removed.
 */
export function describeError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const text =
    cause instanceof Error
      ? `${(cause as { code?: string }).code ?? cause.name}: ${cause.message}`
      : String(cause);
  return text.replace(ADDRESS, '[address]').slice(0, 500);
}

import { createHash } from 'node:crypto';

/** What logs say instead of an email address: a short SHA-256 of its normalised form. */
export function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16);
}

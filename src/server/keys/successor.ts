import type { Database } from '../db/database.ts';
import { emailIdentity } from './email-identity.ts';
import { generateKey, type GeneratedKey } from './key-format.ts';
import { insertKey, markReplaced, type KeyRow } from './repository.ts';

// A key's successor (decisions 142, 149, 217): a new key of the same line (plan, owner, expiry, Stripe subscription,
// billing hold, credits ledger and usage, the trial's "ends soon" mark), the old key marked replaced by it. The old key
// is revoked `now`, or keeps working until the new key is first used (ApiKeyService.authenticate retires it then), so
// that someone typing a customer's address into a form cannot cut the customer off. Used by "Lost your key?", the
// operators' and self-service rotations (billing/paid-keys.ts) and a repeated trial request (trials/service.ts).

export type Retire = 'now' | 'on-first-use';

/** Issues the successor of `old` within the caller's transaction; the plain key leaves only through the caller. */
export async function issueSuccessor(
  db: Database,
  old: KeyRow,
  retire: Retire,
): Promise<{ key: GeneratedKey; row: KeyRow }> {
  const key = generateKey(old.kind === 'trial' ? 'trial' : 'live');
  const row = await insertKey(db, {
    prefix: key.prefix,
    hash: key.hash,
    kind: old.kind,
    plan: old.plan,
    ownerEmail: old.ownerEmail,
    ownerIdentity: old.ownerIdentity ?? emailIdentity(old.ownerEmail),
    expiresAt: old.expiresAt,
    stripeCustomerId: old.stripeCustomerId,
    stripeSubscriptionId: old.stripeSubscriptionId,
    billingHold: old.billingHold,
    billingHoldSince: old.billingHoldSince,
    ledgerKeyId: old.ledgerKeyId ?? old.id,
    // A successor of a trial key keeps its predecessor's "your trial ends" mark (decision 151).
    expiryRemindedAt: old.expiryRemindedAt,
  });
  await markReplaced(db, old.id, row.id, retire === 'now');
  return { key, row };
}

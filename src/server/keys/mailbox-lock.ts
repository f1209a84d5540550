import { advisoryXactLock, type Database } from '../db/database.ts';

/**
 * Serialises work on the keys of one mailbox identity (`emailIdentity`) across connections and instances, released at
 * commit: a trial request (trials/service.ts) holds it while it reads the mailbox's trial key and issues or rotates
 * one, and "Lost your key?" (billing/paid-keys.ts) takes it last, after its own locks, so that a successor being made
 * right now is either seen or waits. The lock's name is written here only.
 */
export function lockMailbox(tx: Pick<Database, 'execute'>, identity: string): Promise<void> {
  return advisoryXactLock(tx, `trial:${identity}`);
}

import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { emailOutbox, type EmailKind, type EmailPayload } from '../db/schema.ts';
import type { Secrets } from '../secrets.ts';
import { emailIdentity } from '../keys/email-identity.ts';

// Queuing an email is one INSERT in the caller's transaction: the email exists exactly when what it tells of was
// committed, and the outbox worker (outbox.ts) sends it once. A key it carries is sealed in the row until it is sent.

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface QueueArgs {
  kind: EmailKind;
  to: string;
  payload: EmailPayload;
  /** The plain key the email carries (sealed under the server secret until sent). */
  key?: string;
  /** The key the email carries or reminds of. */
  apiKeyId?: number;
  trialRequestId?: number;
}

export function newMessageId(siteUrl: string): string {
  return `<${randomUUID()}@${new URL(siteUrl).hostname || 'sharpline.io'}>`;
}

/** Inserts the email into the outbox within `tx`; returns its id. Call `app.outbox.kick()` after the commit. */
export async function queueEmail(
  tx: Tx,
  secrets: Secrets,
  siteUrl: string,
  args: QueueArgs,
): Promise<number> {
  const messageId = newMessageId(siteUrl);
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      kind: args.kind,
      toAddress: args.to,
      toIdentity: emailIdentity(args.to),
      payload: args.payload,
      sealedSecret: args.key ? secrets.seal(args.key, messageId) : null,
      messageId,
      apiKeyId: args.apiKeyId ?? null,
      trialRequestId: args.trialRequestId ?? null,
    })
    .returning({ id: emailOutbox.id });
  return row!.id;
}

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The server's file outbox (DATA_DIR/outbox/*.eml, the default without SMTP_URL), read by the browser tests that
// check what a visitor receives by email.

/** The .eml files addressed to `address`, as text; none when the outbox does not exist yet. */
export function emailsTo(dataDir: string, address: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.eml'));
  } catch {
    return [];
  }
  return files
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .filter((eml) => eml.includes(`To: ${address}`));
}

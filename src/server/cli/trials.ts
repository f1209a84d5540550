import { cell, connectAdmin, failure, runAsScript, table, type CliResult, type Row } from './admin-client.ts';

// `npm run trials -- list [limit] | show <email> | resend <email>`: the operators' view of trial requests. It talks
// to the running server's loopback admin routes (PGlite admits one process, so the CLI never opens the database),
// with the token from ADMIN_TOKEN or DATA_DIR/admin-token. ADMIN_URL overrides the server address.

const USAGE = `Usage: npm run trials -- <command>
  list [limit]       latest trial requests (default 50)
  show <email>       requests, keys and emails of one address
  resend <email>     retry a queued email now, or issue a new key for an active trial and email it
Run it on the server's machine with the server's environment (DATA_DIR, PORT, HOST or ADMIN_URL, ADMIN_TOKEN).`;

/**
 * Stored text as the terminal should show it: controls (C0, C1, DEL), format characters (zero-width, bidi overrides
 * and isolates, soft hyphen…), line/paragraph separators and lone surrogates become `\u{…}`, and `\` becomes `\\`,
 * so a name can neither move the cursor, recolour the terminal, reorder the line nor look empty
 * (docs/decisions/027-visible-text-only.md).
 */
export function printable(value: string): string {
  return value.replace(/[\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, (char) =>
    char === '\\' ? '\\\\' : `\\u{${char.codePointAt(0)!.toString(16)}}`,
  );
}

/** Every string of every row made printable (the server's rows hold what visitors typed). */
function printableRows(rows: Row[]): Row[] {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([column, value]) => [
        column,
        typeof value === 'string' ? printable(value) : value,
      ]),
    ),
  );
}

const text = (value: unknown) => cell(typeof value === 'string' ? printable(value) : value);

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  const [command, argument] = argv;
  if (!command || !['list', 'show', 'resend'].includes(command) || (command !== 'list' && !argument)) {
    return { code: 2, out: USAGE };
  }
  const admin = connectAdmin(env);
  if ('error' in admin) return admin.error;
  const { base, request } = admin;

  try {
    if (command === 'list') {
      const limit = Number(argument ?? 50);
      const data = await request(`/admin/trials?limit=${Number.isInteger(limit) && limit > 0 ? limit : 50}`);
      const columns = [
        'id',
        'receivedAt',
        'email',
        'name',
        'company',
        'status',
        'keyPrefix',
        'keyExpiresAt',
        'emailStatus',
      ];
      return { code: 0, out: table(printableRows(data.requests as Row[]), columns) };
    }
    if (command === 'show') {
      const data = await request('/admin/trials/show', { email: argument });
      const out = [
        `Trial requests of ${text(data.email)}`,
        table(printableRows(data.requests as Row[]), [
          'id',
          'receivedAt',
          'status',
          'email',
          'name',
          'company',
          'referrer',
        ]),
        '',
        'API keys (only prefixes are stored)',
        table(printableRows(data.keys as Row[]), [
          'id',
          'prefix',
          'plan',
          'createdAt',
          'expiresAt',
          'revokedAt',
        ]),
        '',
        'Emails',
        table(printableRows(data.emails as Row[]), [
          'id',
          'kind',
          'status',
          'attempts',
          'createdAt',
          'sentAt',
          'nextAttemptAt',
          'lastError',
        ]),
      ];
      return { code: 0, out: out.join('\n') };
    }
    const data = await request('/admin/trials/resend', { email: argument });
    return { code: data.action === 'none' ? 1 : 0, out: `${text(data.action)}: ${text(data.detail)}` };
  } catch (error) {
    return failure(error, base);
  }
}

runAsScript(import.meta.url, main);

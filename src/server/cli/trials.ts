import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { ADMIN_TOKEN_FILE } from '../lib/secrets.ts';

// `npm run trials -- list [limit] | show <email> | resend <email>`: the operators' view of trial requests. It talks
// to the running server's loopback admin routes (PGlite admits one process, so the CLI never opens the database),
// with the token from ADMIN_TOKEN or DATA_DIR/admin-token. ADMIN_URL overrides the server address.

const USAGE = `Usage: npm run trials -- <command>
  list [limit]       latest trial requests (default 50)
  show <email>       requests, keys and emails of one address
  resend <email>     retry a queued email now, or issue a new key for an active trial and email it
Run it on the server's machine with the server's environment (DATA_DIR, PORT, HOST or ADMIN_URL, ADMIN_TOKEN).`;

class AdminError extends Error {}

interface Row {
  [column: string]: unknown;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value))
    return value.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  return String(value).replace(/[\u0000-\u001f\u007f]/g, ' ');
}

export function table(rows: Row[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...cells.map((line) => line[index]!.length)),
  );
  const format = (line: string[]) =>
    line
      .map((value, index) => value.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  return [format(columns), format(widths.map((width) => '-'.repeat(width))), ...cells.map(format)].join('\n');
}

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; out: string }> {
  const [command, argument] = argv;
  if (!command || !['list', 'show', 'resend'].includes(command) || (command !== 'list' && !argument)) {
    return { code: 2, out: USAGE };
  }
  const config = loadConfig(env);
  let token = config.ADMIN_TOKEN;
  if (!token) {
    const file = path.join(config.dataDir, ADMIN_TOKEN_FILE);
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch {
      return {
        code: 1,
        out: `No admin token: set ADMIN_TOKEN or start the server once so that it creates ${file}.`,
      };
    }
  }
  const host = ['0.0.0.0', '::', 'localhost'].includes(config.HOST) ? '127.0.0.1' : config.HOST;
  const base = env.ADMIN_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
  const request = async (route: string, body?: unknown) => {
    const response = await fetch(new URL(route, base), {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = (await response.json()) as Row;
    if (!response.ok)
      throw new AdminError(
        `${response.status} ${cell(data.title)}${data.detail ? `: ${cell(data.detail)}` : ''}`,
      );
    return data;
  };

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
      return { code: 0, out: table(data.requests as Row[], columns) };
    }
    if (command === 'show') {
      const data = await request('/admin/trials/show', { email: argument });
      const out = [
        `Trial requests of ${cell(data.email)}`,
        table(data.requests as Row[], ['id', 'receivedAt', 'status', 'name', 'company', 'referrer']),
        '',
        'API keys (only prefixes are stored)',
        table(data.keys as Row[], ['id', 'prefix', 'plan', 'createdAt', 'expiresAt', 'revokedAt']),
        '',
        'Emails',
        table(data.emails as Row[], [
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
    return { code: data.action === 'none' ? 1 : 0, out: `${cell(data.action)}: ${cell(data.detail)}` };
  } catch (error) {
    if (error instanceof AdminError) return { code: 1, out: `The server refused: ${error.message}` };
    const reason =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return { code: 1, out: `Could not reach the server at ${base} (${reason}). Is it running (npm start)?` };
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main(process.argv.slice(2)).then(({ code, out }) => {
    (code === 0 ? process.stdout : process.stderr).write(`${out}\n`);
    process.exit(code);
  });
}

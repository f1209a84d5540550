import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { ADMIN_TOKEN_FILE } from '../secrets.ts';

// What the operators' CLIs (`npm run trials`, `npm run keys`) share: finding the running server and its admin token
// (ADMIN_TOKEN or DATA_DIR/admin-token; ADMIN_URL overrides the address), calling its loopback admin routes, and
// printing rows as a table. The CLIs never open the database themselves: PGlite admits one process.

export interface Row {
  [column: string]: unknown;
}

export type CliResult = { code: number; out: string };
export type AdminRequest = (route: string, body?: unknown) => Promise<Row>;

/** The server answered with a problem (4xx/5xx); its title and detail are shown to the operator. */
export class AdminError extends Error {}

export function cell(value: unknown): string {
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

/** Reads the server's address and admin token the way the server does; `error` when there is no token yet. */
export function connectAdmin(
  env: NodeJS.ProcessEnv,
): { base: string; request: AdminRequest } | { error: CliResult } {
  const config = loadConfig(env);
  let token = config.ADMIN_TOKEN;
  if (!token) {
    const file = path.join(config.dataDir, ADMIN_TOKEN_FILE);
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch {
      return {
        error: {
          code: 1,
          out: `No admin token: set ADMIN_TOKEN or start the server once so that it creates ${file}.`,
        },
      };
    }
  }
  const host = ['0.0.0.0', '::', 'localhost'].includes(config.HOST) ? '127.0.0.1' : config.HOST;
  const base = env.ADMIN_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
  const request: AdminRequest = async (route, body) => {
    const response = await fetch(new URL(route, base), {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = (await response.json()) as Row;
    if (!response.ok) {
      throw new AdminError(
        `${response.status} ${cell(data.title)}${data.detail ? `: ${cell(data.detail)}` : ''}`,
      );
    }
    return data;
  };
  return { base, request };
}

/** Turns a failed admin call into the operator's message: the server's refusal, or that it cannot be reached. */
export function failure(error: unknown, base: string): CliResult {
  if (error instanceof AdminError) return { code: 1, out: `The server refused: ${error.message}` };
  const reason =
    error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return { code: 1, out: `Could not reach the server at ${base} (${reason}). Is it running (npm start)?` };
}

/** Runs `main` when the module is the process's entry point, printing to stdout (success) or stderr. */
export function runAsScript(moduleUrl: string, main: (argv: string[]) => Promise<CliResult>): void {
  if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(moduleUrl).pathname)) {
    void main(process.argv.slice(2)).then(({ code, out }) => {
      (code === 0 ? process.stdout : process.stderr).write(`${out}\n`);
      process.exit(code);
    });
  }
}

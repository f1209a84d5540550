import { parseArgs } from 'node:util';
import { PLANS } from '#domain/plans.ts';
import { connectAdmin, failure, runAsScript, table, type CliResult, type Row } from './admin-client.ts';

// `npm run keys -- create --plan <name> --email <address> [--expires <ISO date>] | list [limit] | revoke <prefix>`:
// provisioning of paid API keys for operators (docs/decisions/080-086). Like `npm run trials`, it talks to the running server's
// loopback admin routes with the admin token (ADMIN_TOKEN or DATA_DIR/admin-token), so it works on the embedded
// database, which admits one process. The new key is printed once, on stdout, and stored only as a hash.

const USAGE = `Usage: npm run keys -- <command>
  create --plan <${PLANS.map((plan) => plan.id).join('|')}> --email <address> [--expires <ISO date>]
                     issue a paid key; it is printed once, store it now
  list [limit]       latest keys (prefixes only; default 200)
  revoke <prefix>    revoke the key with this prefix (e.g. sl_live_AbC123); open streams close within seconds`;

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { plan: { type: 'string' }, email: { type: 'string' }, expires: { type: 'string' } },
    });
  } catch (error) {
    return { code: 2, out: `${(error as Error).message}\n${USAGE}` };
  }
  const [command, argument] = parsed.positionals;
  const { plan, email, expires } = parsed.values;
  if (
    !command ||
    !['create', 'list', 'revoke'].includes(command) ||
    (command === 'create' && (!plan || !email)) ||
    (command === 'revoke' && !argument)
  ) {
    return { code: 2, out: USAGE };
  }
  if (command === 'create' && !PLANS.some((candidate) => candidate.id === plan)) {
    return {
      code: 2,
      out: `Unknown plan ${JSON.stringify(plan)}; pick one of ${PLANS.map((p) => p.id).join(', ')}.`,
    };
  }
  let expiresAt: string | undefined;
  if (expires !== undefined) {
    const time = Date.parse(expires);
    if (!Number.isFinite(time)) return { code: 2, out: `--expires must be a date, e.g. 2027-01-31` };
    expiresAt = new Date(time).toISOString();
  }

  const admin = connectAdmin(env);
  if ('error' in admin) return admin.error;
  const { base, request } = admin;

  const columns = ['prefix', 'kind', 'plan', 'email', 'createdAt', 'expiresAt', 'revokedAt'];
  try {
    if (command === 'create') {
      const data = await request('/admin/keys', { plan, email, ...(expiresAt ? { expiresAt } : {}) });
      const out = [
        `Created a ${String(data.plan)} key for ${String(data.email)} (prefix ${String(data.prefix)}${data.expiresAt ? `, expires ${String(data.expiresAt)}` : ''}).`,
        'The key is shown this once; only its hash is stored:',
        '',
        String(data.key),
      ];
      return { code: 0, out: out.join('\n') };
    }
    if (command === 'list') {
      const limit = Number(argument ?? 200);
      const data = await request(
        `/admin/keys?limit=${Number.isInteger(limit) && limit > 0 ? Math.min(limit, 1000) : 200}`,
      );
      return { code: 0, out: table(data.keys as Row[], columns) };
    }
    const data = await request('/admin/keys/revoke', { prefix: argument });
    return { code: 0, out: `Revoked:\n${table(data.revoked as Row[], columns)}` };
  } catch (error) {
    return failure(error, base);
  }
}

runAsScript(import.meta.url, main);

import { parseArgs } from 'node:util';
import { PLANS } from '#domain/plans.ts';
import { MAX_GRANT } from '../sgp/sgp-credits.ts';
import { connectAdmin, failure, runAsScript, table, type CliResult, type Row } from './admin-client.ts';

// `npm run keys -- create --plan <name> --email <address> [--expires <ISO date>] | list [limit] | revoke <prefix> |
// rotate <prefix> | credits <prefix> | grant <prefix> <credits> [--month YYYY-MM]`: provisioning of paid API keys for operators
// (docs/decisions/080-086) and their same-game-parlay credits (decision 128). Like `npm run trials`, it talks to the
// running server's loopback admin routes with the admin token (ADMIN_TOKEN or DATA_DIR/admin-token), so it works on the
// embedded database, which admits one process. The new key is printed once, on stdout, and stored only as a hash.

const USAGE = `Usage: npm run keys -- <command>
  create --plan <${PLANS.map((plan) => plan.id).join('|')}> --email <address> [--expires <ISO date>]
                     issue a paid key; it is printed once, store it now
  list [limit]       latest keys (prefixes only; default 200)
  revoke <prefix>    revoke the key with this prefix (e.g. sl_live_AbC123); open streams close within seconds
  rotate <prefix>    email a new key to the key's owner (same plan, subscription and credits) and revoke the old one
  credits <prefix>   the key's same-game-parlay credits: this UTC month and the 3 before (included, granted,
                     limit, used, remaining), and later months holding a grant
  grant <prefix> <credits> [--month YYYY-MM]
                     add credits to the key's month (default: the current UTC month), for that month only;
                     credits is a whole number from 1 to ${MAX_GRANT.toLocaleString('en-US')}: a grant cannot be negative`;

const NOT_A_GRANT = `credits must be a whole number from 1 to ${MAX_GRANT.toLocaleString('en-US')}; a grant cannot be negative.`;

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  // Before parseArgs, which would take `-5` for an unknown option.
  if (argv[0] === 'grant' && argv.slice(1).some((arg) => /^-\d/.test(arg))) {
    return { code: 2, out: `${NOT_A_GRANT}\n${USAGE}` };
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        plan: { type: 'string' },
        email: { type: 'string' },
        expires: { type: 'string' },
        month: { type: 'string' },
      },
    });
  } catch (error) {
    return { code: 2, out: `${(error as Error).message}\n${USAGE}` };
  }
  const [command, argument, amount] = parsed.positionals;
  const { plan, email, expires, month } = parsed.values;
  if (
    !command ||
    !['create', 'list', 'revoke', 'rotate', 'credits', 'grant'].includes(command) ||
    (command === 'create' && (!plan || !email)) ||
    (['revoke', 'rotate', 'credits', 'grant'].includes(command) && !argument) ||
    (command === 'grant' && !amount)
  ) {
    return { code: 2, out: USAGE };
  }
  const credits = Number(amount);
  if (command === 'grant' && (!/^\d+$/.test(amount!) || credits < 1 || credits > MAX_GRANT)) {
    return { code: 2, out: NOT_A_GRANT };
  }
  if (month !== undefined && (command !== 'grant' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month))) {
    return { code: 2, out: '--month goes with grant and is a month, YYYY-MM (e.g. --month 2026-12).' };
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
  // Paid keys from Stripe name their customer and subscription, and a billing hold (decision 142).
  const listColumns = [...columns, 'stripeCustomer', 'stripeSubscription', 'billingHold'];
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
      return { code: 0, out: table(data.keys as Row[], listColumns) };
    }
    if (command === 'revoke') {
      const data = await request('/admin/keys/revoke', { prefix: argument });
      return { code: 0, out: `Revoked:\n${table(data.revoked as Row[], columns)}` };
    }
    if (command === 'rotate') {
      const data = await request('/admin/keys/rotate', { prefix: argument });
      return {
        code: 0,
        out: `Rotated ${String(data.from)} → ${String(data.to)}: the new key is queued by email to the key's owner; ${String(data.from)} is revoked.`,
      };
    }
    if (command === 'credits') {
      const data = await request(`/admin/keys/credits?prefix=${encodeURIComponent(argument!)}`);
      const key = data.key as Row;
      const out = [
        `${String(key.prefix)} (${String(key.plan)}, ${String(key.email)}${key.revokedAt ? ', revoked' : ''}): same-game-parlay credits by UTC month`,
        table(data.months as Row[], ['month', 'included', 'granted', 'limit', 'used', 'remaining']),
      ];
      return { code: 0, out: out.join('\n') };
    }
    const data = await request('/admin/keys/grant', {
      prefix: argument,
      credits,
      ...(month ? { month } : {}),
    });
    const usage = data.usage as Row;
    const out = `Granted ${credits} SGP credits to ${String(argument)} for ${String(usage.month)}: limit ${String(usage.limit)} (${String(usage.included)} included + ${String(usage.granted)} granted), ${String(usage.used)} used, ${String(usage.remaining)} remaining.`;
    return { code: 0, out };
  } catch (error) {
    return failure(error, base);
  }
}

runAsScript(import.meta.url, main);

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiKeyRecord } from '../keys/service.ts';
import {
  GRANT_MONTHS_AHEAD,
  MAX_GRANT,
  MAX_GRANTED_PER_MONTH,
  plansWithSgp,
  type SgpGrant,
  type SgpMonthUsage,
} from '../sgp/sgp-credits.ts';
import { HttpProblem } from '../http/problem.ts';
import { guardAdminRoutes } from './admin-guard.ts';
import { KeyPrefixSchema, keyView } from './admin-keys.ts';

// Operators' routes behind `npm run keys -- credits|grant` (docs/decisions/128-sgp-credits-ledger.md): a key's
// same-game-parlay ledger by month, and extra credits for one month. Guarded like every `/admin` route (loopback peer,
// admin token). A key's prefix is not secret, so `credits` takes it in the query string.

const MonthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month, YYYY-MM');

function usageView(usage: SgpMonthUsage) {
  return {
    month: usage.month,
    included: usage.included,
    granted: usage.granted,
    limit: usage.limit,
    used: usage.used,
    remaining: usage.remaining,
    resetsAt: usage.resetsAt.toISOString(),
  };
}

async function keyOf(app: FastifyInstance, prefix: string): Promise<ApiKeyRecord> {
  const keys = await app.apiKeys.byPrefix(prefix);
  if (keys.length === 0)
    throw new HttpProblem(404, 'key-not-found', 'Key not found', 'No key has this prefix.');
  if (keys.length > 1) {
    throw new HttpProblem(
      409,
      'key-ambiguous',
      'Several keys have this prefix',
      `Keys ${keys.map((key) => key.id).join(', ')} share the prefix ${prefix}; no credits were changed.`,
    );
  }
  return keys[0]!;
}

function refusal(key: ApiKeyRecord, month: string, reason: Extract<SgpGrant, { granted: false }>['reason']) {
  switch (reason) {
    case 'not-in-plan':
      return new HttpProblem(
        409,
        'sgp-not-in-plan',
        'No SGP credits in this plan',
        `The ${key.plan.name} plan has no same-game-parlay credits (${plansWithSgp()
          .map((plan) => plan.name)
          .join(' and ')} have them); change the key's plan first.`,
      );
    case 'past-month':
      return new HttpProblem(
        422,
        'grant-month',
        'Month already over',
        `${month} is over: its credits can no longer be spent.`,
      );
    case 'too-far-ahead':
      return new HttpProblem(
        422,
        'grant-month',
        'Month too far ahead',
        `Grants are for the current month or one of the next ${GRANT_MONTHS_AHEAD}.`,
      );
    case 'monthly-cap':
      return new HttpProblem(
        422,
        'grant-cap',
        'Too many credits granted',
        `A key's month may be granted at most ${MAX_GRANTED_PER_MONTH} credits in all.`,
      );
  }
}

export async function adminCreditRoutes(app: FastifyInstance) {
  guardAdminRoutes(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/admin/keys/credits',
    {
      schema: {
        querystring: z.object({
          prefix: KeyPrefixSchema,
          months: z.coerce.number().int().min(1).max(24).default(4),
        }),
      },
    },
    async (request) => {
      const key = await keyOf(app, request.query.prefix);
      const months = await app.sgpCredits.history(key, request.query.months);
      return { key: keyView(key), months: months.map(usageView) };
    },
  );

  routes.post(
    '/admin/keys/grant',
    {
      schema: {
        body: z.object({
          prefix: KeyPrefixSchema,
          credits: z.number().int().min(1).max(MAX_GRANT),
          month: MonthSchema.optional(),
        }),
      },
    },
    async (request) => {
      const { prefix, credits, month } = request.body;
      const key = await keyOf(app, prefix);
      const result = await app.sgpCredits.grant(key, credits, month);
      if (!result.granted) throw refusal(key, month ?? 'this month', result.reason);
      request.log.info({ keyPrefix: prefix, month: result.usage.month, credits }, 'sgp credits granted');
      return { key: keyView(key), credits, usage: usageView(result.usage) };
    },
  );
}

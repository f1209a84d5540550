import { and, eq, gte, sql } from 'drizzle-orm';
import { PLANS, type Plan } from '#domain/plans.ts';
import { rowsOf, type Database } from '../db/database.ts';
import { sgpCredits } from '../db/schema.ts';
import type { ApiKeyRecord } from '../keys/service.ts';

// Same-game-parlay credits (issue 16, docs/decisions/128-sgp-credits-ledger.md): one priced `POST /v1/sgp` request
// spends one credit of the key's monthly allowance (Elite 10,000, Enterprise 100,000 per UTC calendar month, from
// src/domain/plans.ts) plus the operators' grants for that month. The ledger is the `sgp_credits` table, and the
// database alone decides a spend, in one statement, so that instances share one count and neither a restart nor a
// Redis flush can hand out free credits.

/** Most credits one grant may add. */
export const MAX_GRANT = 10_000_000;
/** Most credits a key's month may be granted in all: keeps allowance + granted far inside the `integer` column. */
export const MAX_GRANTED_PER_MONTH = 1_000_000_000;
/** Grants are for the current month or one of the next twelve (a month in the past can no longer be spent). */
export const GRANT_MONTHS_AHEAD = 12;
const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export interface SgpCreditState {
  /** The month's credits: the plan's allowance plus the operators' grants for the month (0 without SGP). */
  limit: number;
  used: number;
  remaining: number;
  /** Start of the next UTC month, when a fresh allowance begins. */
  resetsAt: Date;
  /** The UTC month the figures are for, `YYYY-MM`. */
  month: string;
}

export type SgpSpend =
  | ({ spent: true } & SgpCreditState)
  | ({ spent: false; reason: 'not-in-plan' | 'exhausted' } & SgpCreditState);

/** A spend for some work: refused (the work did not run), or spent with the work's value. */
export type SgpSpendFor<T> =
  Extract<SgpSpend, { spent: false }> | (Extract<SgpSpend, { spent: true }> & { value: T });

/** One month of a key's ledger as operators see it: `limit` = `included` (the plan's allowance) + `granted`. */
export interface SgpMonthUsage extends SgpCreditState {
  included: number;
  granted: number;
}

export type SgpGrant =
  | { granted: true; usage: SgpMonthUsage }
  | {
      granted: false;
      /** The key's plan has no SGP credits; the month is over; more than GRANT_MONTHS_AHEAD ahead; over MAX_GRANTED_PER_MONTH. */
      reason: 'not-in-plan' | 'past-month' | 'too-far-ahead' | 'monthly-cap';
    };

export interface SgpMonth {
  /** `YYYY-MM` */
  month: string;
  /** First instant of the month (UTC). */
  start: Date;
  /** First instant of the next month (UTC). */
  resetsAt: Date;
}

function monthAt(year: number, monthIndex: number): SgpMonth {
  const start = new Date(Date.UTC(year, monthIndex, 1));
  return {
    month: `${String(start.getUTCFullYear()).padStart(4, '0')}-${String(start.getUTCMonth() + 1).padStart(2, '0')}`,
    start,
    resetsAt: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)),
  };
}

/** The UTC calendar month holding the instant `at` (unix ms). */
export function monthOf(at: number): SgpMonth {
  const date = new Date(at);
  return monthAt(date.getUTCFullYear(), date.getUTCMonth());
}

/** `YYYY-MM` read as a UTC month; null when malformed. */
export function parseMonth(text: string): SgpMonth | null {
  const match = MONTH_PATTERN.exec(text);
  return match ? monthAt(Number(match[1]), Number(match[2]) - 1) : null;
}

/** The `month` column's value: the month's first day. */
function dayOf(month: SgpMonth): string {
  return `${month.month}-01`;
}

/** Credits the plan includes each month; 0 when it has none. */
export function allowanceOf(plan: Plan): number {
  return plan.sgpCreditsPerMonth ?? 0;
}

/** The plans with same-game-parlay credits (Elite, Enterprise), cheapest first: what a 403 for other plans names. */
export function plansWithSgp(): Plan[] {
  return PLANS.filter((plan) => allowanceOf(plan) > 0).sort((a, b) => a.price - b.price);
}

function stateOf(month: SgpMonth, included: number, used: number, granted: number): SgpMonthUsage {
  const limit = included > 0 ? included + granted : 0;
  return {
    limit,
    used,
    remaining: Math.max(0, limit - used),
    resetsAt: month.resetsAt,
    month: month.month,
    included,
    granted,
  };
}

function publicState({ limit, used, remaining, resetsAt, month }: SgpCreditState): SgpCreditState {
  return { limit, used, remaining, resetsAt, month };
}

/** Months between two months (`to` − `from`), e.g. 2026-11 → 2027-01 is 2. */
function monthsBetween(from: SgpMonth, to: SgpMonth): number {
  return (
    (to.start.getUTCFullYear() - from.start.getUTCFullYear()) * 12 +
    to.start.getUTCMonth() -
    from.start.getUTCMonth()
  );
}

function rowId(spend: Pick<PendingSpend, 'key' | 'month'>): string {
  return `${spend.key.ledgerId}|${spend.month.month}`;
}

interface PendingSpend {
  key: ApiKeyRecord;
  month: SgpMonth;
  allowance: number;
  resolve(spend: SgpSpend): void;
  reject(error: unknown): void;
}

export class SgpCredits {
  /** Spends waiting for the next batch (decision 128: one statement for all the spends of one turn of the loop). */
  private pending: PendingSpend[] = [];
  /** Ledger rows known to exist (`key id|YYYY-MM`): their first spend of a batch needs no INSERT. */
  private readonly rows = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Spends one credit of the key's current month, or says why not. The spends that arrive in one turn of the event loop
   * go to the database together (decision 128): one statement adds each key's n spends under its row lock only when
   * all n fit (`used + n <= allowance + granted`), inserting the month's row on its first spend; a key whose n do not
   * all fit (the month's last credits) is then spent one credit at a time, so concurrent spends from any number of
   * instances never exceed the month's credits and each priced request gets its own count.
   */
  spend(key: ApiKeyRecord): Promise<SgpSpend> {
    const month = monthOf(this.now());
    const allowance = allowanceOf(key.plan);
    if (allowance === 0)
      return Promise.resolve({
        spent: false,
        reason: 'not-in-plan',
        ...publicState(stateOf(month, 0, 0, 0)),
      });
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => void this.flush());
      this.pending.push({ key, month, allowance, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    // One group per ledger row (key and month): an UPDATE … FROM changes a row once, however many sources match it.
    const groups = new Map<string, PendingSpend[]>();
    for (const spend of batch) {
      const id = rowId(spend);
      const group = groups.get(id);
      if (group) group.push(spend);
      else groups.set(id, [spend]);
    }
    try {
      await this.spendGroups([...groups.values()]);
    } catch (error) {
      for (const spend of batch) spend.reject(error);
    }
  }

  /**
   * Every group's n spends in one UPDATE, each only when all n fit under its row lock (`used + n <= allowance +
   * granted`); the month's row is inserted first for keys not yet seen this month. A group that did not fit (the
   * month's last credits) is spent one credit at a time.
   */
  private async spendGroups(groups: PendingSpend[][]): Promise<void> {
    const fresh = groups.filter((group) => !this.rows.has(rowId(group[0]!)));
    if (fresh.length > 0) {
      const values = fresh.map(
        (group) => sql`(${group[0]!.key.ledgerId}::bigint, ${dayOf(group[0]!.month)}::date)`,
      );
      await this.db.execute(sql`
        INSERT INTO sgp_credits (api_key_id, month, used)
        SELECT id, month, 0 FROM (VALUES ${sql.join(values, sql`, `)}) AS fresh(id, month)
        ON CONFLICT (api_key_id, month) DO NOTHING`);
      if (this.rows.size > 100_000) this.rows.clear();
      for (const group of fresh) this.rows.add(rowId(group[0]!));
    }
    const values = groups.map(
      (group) =>
        sql`(${group[0]!.key.ledgerId}::bigint, ${dayOf(group[0]!.month)}::date, ${group.length}::integer, ${group[0]!.allowance}::integer)`,
    );
    const updated = rowsOf<{ api_key_id: number | string; month: string; used: number; granted: number }>(
      await this.db.execute(sql`
        UPDATE sgp_credits SET used = sgp_credits.used + spends.n, updated_at = now()
        FROM (VALUES ${sql.join(values, sql`, `)}) AS spends(id, month, n, allowance)
        WHERE sgp_credits.api_key_id = spends.id AND sgp_credits.month = spends.month
          AND sgp_credits.used + spends.n <= spends.allowance + sgp_credits.granted
        RETURNING sgp_credits.api_key_id, to_char(sgp_credits.month, 'YYYY-MM') AS month, sgp_credits.used,
          sgp_credits.granted`),
    );
    const byRow = new Map(updated.map((row) => [`${Number(row.api_key_id)}|${row.month}`, row]));
    await Promise.all(
      groups.map(async (group) => {
        const { key, month, allowance } = group[0]!;
        const row = byRow.get(rowId(group[0]!));
        if (row) {
          const used = Number(row.used);
          const n = group.length;
          group.forEach((spend, index) =>
            spend.resolve({
              spent: true,
              ...publicState(stateOf(month, allowance, used - n + 1 + index, Number(row.granted))),
            }),
          );
          return;
        }
        for (const spend of group) spend.resolve(await this.spendOne(key, month, allowance));
      }),
    );
  }

  /** One credit, in one statement (the month's row inserted on its first spend). */
  private async spendOne(key: ApiKeyRecord, month: SgpMonth, allowance: number): Promise<SgpSpend> {
    const [row] = rowsOf<{ used: number; granted: number }>(
      await this.db.execute(sql`
        INSERT INTO sgp_credits (api_key_id, month, used)
        SELECT ${key.ledgerId}::bigint, ${dayOf(month)}::date, 1 WHERE ${allowance}::integer > 0
        ON CONFLICT (api_key_id, month) DO UPDATE SET used = sgp_credits.used + 1, updated_at = now()
          WHERE sgp_credits.used < ${allowance}::integer + sgp_credits.granted
        RETURNING used, granted`),
    );
    if (row) {
      return {
        spent: true,
        ...publicState(stateOf(month, allowance, Number(row.used), Number(row.granted))),
      };
    }
    return { spent: false, reason: 'exhausted', ...publicState(await this.read(key, month)) };
  }

  /**
   * One credit for `work` (issue 55, decision 203): the credit is spent first, so a key whose month is spent (or whose
   * plan has none) is refused before `work` runs and costs nothing more; when `work` throws (the request refused, or
   * failing), the credit is given back and the error rethrown, so that only an answered request costs a credit. A
   * refund that fails goes to `onRefundFailed` (the credit stays spent, as after a crash: decision 128) and the work's
   * error is still the one thrown.
   */
  async spendFor<T>(
    key: ApiKeyRecord,
    work: () => T | Promise<T>,
    onRefundFailed: (error: unknown) => void,
  ): Promise<SgpSpendFor<T>> {
    const spend = await this.spend(key);
    if (!spend.spent) return spend;
    try {
      return { ...spend, value: await work() };
    } catch (error) {
      await this.refund(key, spend.month).catch(onRefundFailed);
      throw error;
    }
  }

  /**
   * Gives back one credit of `month` (`YYYY-MM`, the `month` of the spend being undone), never going below 0:
   * `spendFor` calls it when the work fails after the spend.
   */
  async refund(key: ApiKeyRecord, month: string): Promise<void> {
    const parsed = parseMonth(month);
    if (!parsed) throw new RangeError(`Not a month (YYYY-MM): ${JSON.stringify(month)}`);
    await this.db.execute(sql`
      UPDATE sgp_credits SET used = used - 1, updated_at = now()
      WHERE api_key_id = ${key.ledgerId} AND month = ${dayOf(parsed)}::date AND used > 0`);
  }

  /** The key's figures for the current month (`/v1/me`); all 0 when its plan has no SGP credits. */
  async usage(key: ApiKeyRecord): Promise<SgpCreditState> {
    const month = monthOf(this.now());
    if (allowanceOf(key.plan) === 0) return publicState(stateOf(month, 0, 0, 0));
    return publicState(await this.read(key, month));
  }

  /**
   * Adds `credits` (1 … MAX_GRANT) to the key's `month` (`YYYY-MM`, default the current one), on top of its plan's
   * allowance, for that month only. Refused for plans without SGP, for months already over, for months more than
   * GRANT_MONTHS_AHEAD ahead, and past MAX_GRANTED_PER_MONTH granted in the month.
   */
  async grant(key: ApiKeyRecord, credits: number, month?: string): Promise<SgpGrant> {
    if (!Number.isInteger(credits) || credits < 1 || credits > MAX_GRANT) {
      throw new RangeError(`A grant is a whole number of credits from 1 to ${MAX_GRANT}`);
    }
    const current = monthOf(this.now());
    const target = month === undefined ? current : parseMonth(month);
    if (!target) throw new RangeError(`Not a month (YYYY-MM): ${JSON.stringify(month)}`);
    const allowance = allowanceOf(key.plan);
    if (allowance === 0) return { granted: false, reason: 'not-in-plan' };
    const ahead = monthsBetween(current, target);
    if (ahead < 0) return { granted: false, reason: 'past-month' };
    if (ahead > GRANT_MONTHS_AHEAD) return { granted: false, reason: 'too-far-ahead' };
    const [row] = await this.db
      .insert(sgpCredits)
      .values({ apiKeyId: key.ledgerId, month: dayOf(target), granted: credits })
      .onConflictDoUpdate({
        target: [sgpCredits.apiKeyId, sgpCredits.month],
        set: { granted: sql`${sgpCredits.granted} + excluded.granted`, updatedAt: sql`now()` },
        setWhere: sql`${sgpCredits.granted} + excluded.granted <= ${MAX_GRANTED_PER_MONTH}`,
      })
      .returning({ used: sgpCredits.used, granted: sgpCredits.granted });
    if (!row) return { granted: false, reason: 'monthly-cap' };
    return { granted: true, usage: stateOf(target, allowance, row.used, row.granted) };
  }

  /**
   * The key's ledger for operators, newest first: every later month holding a grant, then the current month and the
   * `months − 1` before it (months without a row show 0 used). The allowance is that of the key's plan today.
   */
  async history(key: ApiKeyRecord, months: number): Promise<SgpMonthUsage[]> {
    const current = monthOf(this.now());
    const oldest = monthAt(
      current.start.getUTCFullYear(),
      current.start.getUTCMonth() - Math.max(1, months) + 1,
    );
    const rows = await this.db
      .select({ month: sgpCredits.month, used: sgpCredits.used, granted: sgpCredits.granted })
      .from(sgpCredits)
      .where(and(eq(sgpCredits.apiKeyId, key.ledgerId), gte(sgpCredits.month, dayOf(oldest))));
    const byMonth = new Map(rows.map((row) => [row.month.slice(0, 7), row]));
    const allowance = allowanceOf(key.plan);
    const later = [...byMonth.keys()]
      .filter((month) => month > current.month)
      .sort()
      .reverse();
    const shown = [
      ...later.map((month) => parseMonth(month)!),
      ...Array.from({ length: monthsBetween(oldest, current) + 1 }, (_, back) =>
        monthAt(current.start.getUTCFullYear(), current.start.getUTCMonth() - back),
      ),
    ];
    return shown.map((month) => {
      const row = byMonth.get(month.month);
      return stateOf(month, allowance, row?.used ?? 0, row?.granted ?? 0);
    });
  }

  private async read(key: ApiKeyRecord, month: SgpMonth): Promise<SgpMonthUsage> {
    const [row] = await this.db
      .select({ used: sgpCredits.used, granted: sgpCredits.granted })
      .from(sgpCredits)
      .where(and(eq(sgpCredits.apiKeyId, key.ledgerId), eq(sgpCredits.month, dayOf(month))));
    return stateOf(month, allowanceOf(key.plan), row?.used ?? 0, row?.granted ?? 0);
  }
}

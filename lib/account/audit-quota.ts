import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { organizationDailyUsage } from "../db/schema";
import { ApiError } from "../errors";
import { log } from "../log";

/**
 * The organization's daily audit quota (ORG_AUDITS_PER_DAY per UTC day), counted in
 * organization_daily_usage. Taking a unit is one statement, an upsert whose update only happens below
 * the limit, so PostgreSQL serializes concurrent takers on the row: two instances can never both pass
 * the last unit. An audit that then fails (the page did not load, the analysis was refused) gives its
 * unit back: the quota counts saved audits, not attempts. On-demand evidence captures (a render each)
 * count the same way (evidence-and-reports.md).
 */

export interface QuotaTicket {
  allowed: boolean;
  limit: number;
  /** Units left today after this one. */
  remaining: number;
  /** Unix seconds of the next UTC midnight, when the count starts again. */
  reset: number;
  /** The UTC day counted (YYYY-MM-DD), for the refund. */
  day: string;
}

function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

function nextUtcMidnight(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) / 1000;
}

/** Takes one unit of today's quota if one is left. */
export async function takeAuditUnit(
  db: Pick<Db, "insert">,
  organizationId: string,
  limit: number,
  now: Date = new Date(),
): Promise<QuotaTicket> {
  const day = utcDay(now);
  const rows = await db
    .insert(organizationDailyUsage)
    .values({ organizationId, day, audits: 1 })
    .onConflictDoUpdate({
      target: [organizationDailyUsage.organizationId, organizationDailyUsage.day],
      set: { audits: sql`${organizationDailyUsage.audits} + 1` },
      setWhere: sql`${organizationDailyUsage.audits} < ${limit}`,
    })
    .returning({ audits: organizationDailyUsage.audits });
  const used = rows[0]?.audits;
  const reset = nextUtcMidnight(now);
  if (used === undefined) return { allowed: false, limit, remaining: 0, reset, day };
  return { allowed: true, limit, remaining: Math.max(0, limit - used), reset, day };
}

/** Gives a unit back (the audit it was taken for was not saved). */
export async function returnAuditUnit(db: Pick<Db, "update">, organizationId: string, day: string): Promise<void> {
  await db
    .update(organizationDailyUsage)
    .set({ audits: sql`${organizationDailyUsage.audits} - 1` })
    .where(
      and(
        eq(organizationDailyUsage.organizationId, organizationId),
        eq(organizationDailyUsage.day, day),
        gt(organizationDailyUsage.audits, 0),
      ),
    );
}

/** X-RateLimit-* (decisions.md: Reset in Unix seconds) and, when refused, Retry-After until midnight UTC. */
export function quotaHeaders(ticket: QuotaTicket, nowMs: number = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(ticket.limit),
    "X-RateLimit-Remaining": String(ticket.remaining),
    "X-RateLimit-Reset": String(ticket.reset),
  };
  if (!ticket.allowed) headers["Retry-After"] = String(Math.max(1, Math.ceil(ticket.reset - nowMs / 1000)));
  return headers;
}

/** The 429 of a spent quota. */
export function quotaExceeded(ticket: QuotaTicket): ApiError {
  return new ApiError(
    "RATE_LIMITED",
    `Your organization has run its ${ticket.limit.toLocaleString("en-US")} audits for today (UTC).`,
    {
      hint: "The count starts again at midnight UTC (see Retry-After and X-RateLimit-Reset). Saved audits stay readable meanwhile.",
      headers: quotaHeaders(ticket),
    },
  );
}

/**
 * Runs `work` on one unit of today's quota: 429 RATE_LIMITED when none is left, and the unit given back
 * when `work` throws. Answers the work's result and the X-RateLimit-* headers of the answer.
 */
export async function spendAuditUnit<T>(
  db: Pick<Db, "insert" | "update">,
  organizationId: string,
  limit: number,
  work: () => Promise<T>,
  now: Date = new Date(),
): Promise<{ result: T; headers: Record<string, string> }> {
  const ticket = await takeAuditUnit(db, organizationId, limit, now);
  if (!ticket.allowed) throw quotaExceeded(ticket);
  try {
    return { result: await work(), headers: quotaHeaders(ticket) };
  } catch (error) {
    await returnAuditUnit(db, organizationId, ticket.day).catch((refundError: unknown) =>
      log.error({ err: refundError, organizationId }, "audit quota refund failed"),
    );
    throw error;
  }
}

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { keysetPage, type PageRequest } from "../db/keyset";
import { activityLog, member } from "../db/schema";
import type { ActivityLogItem } from "../schemas/settings";

/**
 * The activity log: who did what and when in an organization (sign-ins, role changes, invitations,
 * deletions, imports, exports), for its admins and owners. Each change writes its row in its own
 * transaction, so the log never claims what did not happen.
 */

export type ActivityAction =
  | "user.sign_in"
  | "user.sign_up"
  | "user.two_factor_enabled"
  | "user.two_factor_disabled"
  | "user.backup_code_used"
  | "user.backup_codes_regenerated"
  | "invitation.create"
  | "invitation.accept"
  | "invitation.cancel"
  | "member.role_change"
  | "member.remove"
  | "organization.create"
  | "organization.update"
  | "organization.delete"
  | "monitor.delete"
  | "tracked_link.delete"
  | "tracked_links.import"
  | "tracked_links.export"
  | "domain_group.create"
  | "domain_group.update"
  | "domain_group.delete"
  | "audit.create"
  | "audit.delete"
  | "audit.export"
  | "webhook.created"
  | "webhook.updated"
  | "webhook.deleted"
  | "webhook.secret_rotated"
  | "webhook.disabled"
  | "share.created"
  | "share.revoked"
  | "branding.updated"
  | "branding.logo_set"
  | "branding.logo_removed"
  | "share.schedule_set"
  | "share.schedule_removed"
  | "share.recipient_confirmed"
  | "share.recipient_unsubscribed"
  | "share.test_sent";

export interface ActivityEntry {
  organizationId: string;
  actor?: { id: string; email: string } | null;
  action: ActivityAction;
  target?: { type: string; id: string } | null;
  details?: Record<string, unknown>;
  ipAddress?: string | null;
}

/** Appends one row to an organization's activity log (inside the caller's transaction when given one). */
export async function recordActivity(db: Pick<Db, "insert">, entry: ActivityEntry): Promise<void> {
  await db.insert(activityLog).values({
    id: randomUUID(),
    organizationId: entry.organizationId,
    actorId: entry.actor?.id ?? null,
    actorEmail: entry.actor?.email ?? null,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    details: entry.details ?? {},
    ipAddress: entry.ipAddress ?? null,
  });
}

/**
 * Appends one row about the user's own account (a sign-in, two-factor sign-in turned on…) to the log of
 * every organization they belong to: each team's admins see what concerns its members.
 */
export async function recordUserActivity(
  db: Pick<Db, "insert" | "select">,
  user: { id: string; email: string },
  entry: Omit<ActivityEntry, "organizationId" | "actor">,
): Promise<void> {
  const memberships = await db
    .select({ organizationId: member.organizationId })
    .from(member)
    .where(eq(member.userId, user.id));
  for (const { organizationId } of memberships) {
    await recordActivity(db, { ...entry, organizationId, actor: { id: user.id, email: user.email } });
  }
}

/** Newest first, a page at a time (lib/db/keyset.ts). */
export async function listActivity(
  ctx: { db: Db; organization: { id: string } },
  page: PageRequest,
): Promise<{ items: ActivityLogItem[]; nextCursor: string | null }> {
  const keys = { createdAt: activityLog.createdAt, id: activityLog.id };
  return keysetPage(
    ctx.db.select().from(activityLog).$dynamic(),
    { keys, direction: "desc", where: eq(activityLog.organizationId, ctx.organization.id), page },
    (row) => ({
      id: row.id,
      action: row.action,
      actor: { id: row.actorId, email: row.actorEmail },
      target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
      details: row.details,
      ipAddress: row.ipAddress,
      createdAt: row.createdAt.toISOString(),
    }),
  );
}

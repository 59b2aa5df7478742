import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { keysetPage, type PageRequest } from "../db/keyset";
import { auditLog } from "../db/schema";
import type { AuditLogItem } from "../schemas/settings";

export type AuditAction =
  | "user.sign_in"
  | "user.sign_up"
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
  | "share.revoked";

export interface AuditEntry {
  organizationId: string;
  actor?: { id: string; email: string } | null;
  action: AuditAction;
  target?: { type: string; id: string } | null;
  details?: Record<string, unknown>;
  ipAddress?: string | null;
}

/** Appends one row to an organization's audit log (inside the caller's transaction when given one). */
export async function recordAudit(db: Pick<Db, "insert">, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
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

export type AuditItem = AuditLogItem;

/** Newest first, a page at a time (lib/db/keyset.ts). */
export async function listAudit(
  ctx: { db: Db; organization: { id: string } },
  page: PageRequest,
): Promise<{ items: AuditItem[]; nextCursor: string | null }> {
  const keys = { createdAt: auditLog.createdAt, id: auditLog.id };
  return keysetPage(
    ctx.db.select().from(auditLog).$dynamic(),
    { keys, direction: "desc", where: eq(auditLog.organizationId, ctx.organization.id), page },
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

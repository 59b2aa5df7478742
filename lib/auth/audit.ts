import { randomUUID } from "node:crypto";
import { and, desc, eq, lt, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { auditLog } from "../db/schema";

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
  | "organization.delete";

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

export interface AuditItem {
  id: string;
  action: string;
  actor: { id: string | null; email: string | null };
  target: { type: string; id: string } | null;
  details: Record<string, unknown>;
  ipAddress: string | null;
  createdAt: string;
}

/** Cursor pagination, newest first: the cursor is `createdAt|id` of the last item of the previous page. */
export async function listAudit(db: Db, organizationId: string, page: { limit: number; cursor?: string }): Promise<{ items: AuditItem[]; nextCursor: string | null }> {
  let after = undefined;
  if (page.cursor) {
    const [time, id] = decodeCursor(page.cursor);
    after = or(lt(auditLog.createdAt, time), and(eq(auditLog.createdAt, time), lt(auditLog.id, id)));
  }
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, organizationId), after))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit).map((row) => ({
    id: row.id,
    action: row.action,
    actor: { id: row.actorId, email: row.actorEmail },
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    details: row.details,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
  }));
  const last = rows.length > page.limit ? items[items.length - 1] : undefined;
  return { items, nextCursor: last ? encodeCursor(new Date(last.createdAt), last.id) : null };
}

function encodeCursor(time: Date, id: string): string {
  return Buffer.from(`${time.toISOString()}|${id}`).toString("base64url");
}

export class BadCursorError extends Error {}

function decodeCursor(cursor: string): [Date, string] {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const time = new Date(iso ?? "");
  if (!id || Number.isNaN(time.getTime())) throw new BadCursorError("cursor: not a cursor this list gave out");
  return [time, id];
}

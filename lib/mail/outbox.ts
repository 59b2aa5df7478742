import { randomUUID } from "node:crypto";
import { and, eq, or, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { afterCursor, keysetOrder, toPage, type PageRequest } from "../db/keyset";
import { outbox } from "../db/schema";
import { subjectLine } from "./subject";
import type { EmailContent } from "./templates";

/** A Drizzle database or an open transaction: an email is written with the change that causes it. */
export type DbOrTx = Pick<Db, "insert" | "select" | "update" | "execute">;

export interface EnqueueInput {
  to: string;
  content: EmailContent;
  organizationId?: string | null;
  /** A member's user id: the sender drops the email if they left `organizationId` before it went out. */
  recipientUserId?: string | null;
  /** Extra headers (List-Unsubscribe). */
  headers?: Record<string, string> | null;
}

/** Writes one email to the outbox (status pending, its subject one capped line); the sender delivers it later. Returns the row id. */
export async function enqueueEmail(db: DbOrTx, input: EnqueueInput): Promise<string> {
  const id = randomUUID();
  await db.insert(outbox).values({
    id,
    organizationId: input.organizationId ?? null,
    recipientUserId: input.recipientUserId ?? null,
    headers: input.headers ?? null,
    kind: input.content.kind,
    recipient: input.to.toLowerCase(),
    subject: subjectLine(input.content.subject),
    text: input.content.text,
    html: input.content.html,
    messageId: `<${id}@linklens.local>`,
  });
  return id;
}

export interface OutboxItem {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/**
 * The outbox as an owner may see it: emails to the owner themself and emails of their organization
 * (invitations). Newest first.
 */
export async function listOutbox(db: DbOrTx, scope: { organizationId: string; email: string }, page: PageRequest): Promise<{ items: OutboxItem[]; nextCursor: string | null }> {
  const visible: SQL | undefined = or(eq(outbox.organizationId, scope.organizationId), and(eq(outbox.recipient, scope.email.toLowerCase())));
  const columns = { createdAt: outbox.createdAt, id: outbox.id };
  const rows = await db
    .select()
    .from(outbox)
    .where(and(visible, afterCursor(columns, page.cursor, "desc")))
    .orderBy(...keysetOrder(columns, "desc"))
    .limit(page.limit + 1);
  const { rows: pageRows, nextCursor } = toPage(rows, page.limit);
  const items = pageRows.map((row) => ({
    id: row.id,
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    text: row.text,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  }));
  return { items, nextCursor };
}

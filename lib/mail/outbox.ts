import { randomUUID } from "node:crypto";
import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { keysetPage, type PageRequest } from "../db/keyset";
import { outbox } from "../db/schema";
import type { OutboxItem } from "../schemas/settings";
import { hidePersonalLinks } from "./redact";
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
  /** A file stored with storeAttachment (./attachments.ts), sent with the email. */
  attachmentId?: string | null;
  /** What the email reports on, for dropQueuedEmails (e.g. `share:<id>`). */
  about?: string | null;
}

/** Writes one email to the outbox (status pending, its subject one capped line); the sender delivers it later. Returns the row id. */
export async function enqueueEmail(db: DbOrTx, input: EnqueueInput): Promise<string> {
  const id = randomUUID();
  await db.insert(outbox).values({
    id,
    organizationId: input.organizationId ?? null,
    recipientUserId: input.recipientUserId ?? null,
    headers: input.headers ?? null,
    attachmentId: input.attachmentId ?? null,
    about: input.about ?? null,
    kind: input.content.kind,
    recipient: input.to.toLowerCase(),
    subject: subjectLine(input.content.subject),
    text: input.content.text,
    html: input.content.html,
    messageId: `<${id}@linklens.local>`,
  });
  return id;
}

/**
 * Emails about `about` that have not gone out yet (to `recipients` only, when given) are dropped, in the
 * caller's transaction: what they report on ended (a share revoked) or their recipient asked for no more.
 * An email being handed to the mail server right now is not stopped. Returns how many were dropped.
 */
export async function dropQueuedEmails(
  db: DbOrTx,
  about: string,
  reason: string,
  recipients?: readonly string[],
): Promise<number> {
  if (recipients && recipients.length === 0) return 0;
  const dropped = await db
    .update(outbox)
    .set({ status: "dropped", lastError: reason })
    .where(
      and(
        eq(outbox.about, about),
        eq(outbox.status, "pending"),
        recipients
          ? inArray(
              outbox.recipient,
              recipients.map((email) => email.toLowerCase()),
            )
          : undefined,
      ),
    )
    .returning({ id: outbox.id });
  return dropped.length;
}

export type { OutboxItem };

/**
 * The outbox as an owner may see it: emails to the owner themself and emails of their organization
 * (invitations, the members' alerts). Newest first. In an email addressed to someone else, links that act
 * for the recipient (one-click mute, anything with a token) are hidden: they are the recipient's, not the
 * owner's. Headers (List-Unsubscribe, which holds such a link too) and the HTML part are not shown at all.
 */
export async function listOutbox(
  ctx: { db: DbOrTx; organization: { id: string }; user: { id: string; email: string } },
  page: PageRequest,
): Promise<{ items: OutboxItem[]; nextCursor: string | null }> {
  const visible: SQL | undefined = or(
    eq(outbox.organizationId, ctx.organization.id),
    and(eq(outbox.recipient, ctx.user.email.toLowerCase())),
  );
  const keys = { createdAt: outbox.createdAt, id: outbox.id };
  const viewer = { userId: ctx.user.id, email: ctx.user.email };
  return keysetPage(
    ctx.db.select().from(outbox).$dynamic(),
    { keys, direction: "desc", where: visible, page },
    (row) => ({
      id: row.id,
      kind: row.kind,
      recipient: row.recipient,
      subject: row.subject,
      text: isViewers(row, viewer) ? row.text : hidePersonalLinks(row.text),
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
    }),
  );
}

/** An email to the viewer: to their account when the row names one, else to their address. */
function isViewers(
  row: { recipientUserId: string | null; recipient: string },
  viewer: { userId: string; email: string },
): boolean {
  return row.recipientUserId ? row.recipientUserId === viewer.userId : row.recipient === viewer.email.toLowerCase();
}

import { randomUUID } from "node:crypto";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { emailAttachment, outbox } from "../db/schema";
import type { DbOrTx } from "./outbox";

/**
 * Files sent with outbox emails (a scheduled report's PDF). One row serves every email that carries it
 * (a report to ten recipients is stored once), written in the transaction that writes those emails. Once
 * none of them waits to go out any more, the file has done its job and is deleted.
 */

export interface Attachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Stores a file for enqueueEmail's `attachmentId`; answers its id. */
export async function storeAttachment(db: DbOrTx, attachment: Attachment): Promise<string> {
  const id = randomUUID();
  await db.insert(emailAttachment).values({ id, ...attachment });
  return id;
}

/** The file of an email, or null (none, or already pruned). */
export async function readAttachment(db: Pick<Db, "select">, id: string): Promise<Attachment | null> {
  const [row] = await db
    .select({
      filename: emailAttachment.filename,
      contentType: emailAttachment.contentType,
      content: emailAttachment.content,
    })
    .from(emailAttachment)
    .where(eq(emailAttachment.id, id))
    .limit(1);
  return row ? { ...row, content: Buffer.from(row.content) } : null;
}

/** Files kept at least this long, so a file is never pruned between its insert and its emails'. */
const KEEP_MS = 60 * 60_000;

/**
 * Deletes files older than an hour that no email waits for (every email carrying it sent, failed or
 * dropped). Answers how many were deleted.
 */
export async function pruneAttachments(db: Pick<Db, "delete" | "select">, now: Date): Promise<number> {
  const waiting = db
    .select({ id: outbox.attachmentId })
    .from(outbox)
    .where(and(eq(outbox.attachmentId, emailAttachment.id), inArray(outbox.status, ["pending", "sending"])));
  const deleted = await db
    .delete(emailAttachment)
    .where(and(lt(emailAttachment.createdAt, new Date(now.getTime() - KEEP_MS)), sql`NOT EXISTS (${waiting})`))
    .returning({ id: emailAttachment.id });
  return deleted.length;
}

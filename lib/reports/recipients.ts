import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { reportRecipient } from "../db/schema";
import { dropQueuedEmails, enqueueEmail, type DbOrTx } from "../mail/outbox";
import { reportConsentEmail } from "../mail/templates";
import type { ScheduleCadence } from "../schemas/share-schedules";
import { shareEmailTopic } from "../shares/shares";
import { newToken } from "../shares/token";
import type { ReportLinks } from "./links";
import { dateWords } from "./words";

/**
 * Who gets a scheduled report. Consent first: every address an admin adds is `pending` and gets one
 * confirmation email (a random single-use token, its SHA-256 stored, valid 7 days); only `confirmed`
 * addresses get reports. An address that unsubscribed stays `unsubscribed` however often the schedule is
 * saved; to ask it again, an admin removes it and adds it anew, and it must confirm anew. A pending
 * address whose link expired gets a new one when the schedule is saved with it again. Removing an
 * address drops what still waits for it in the outbox.
 */

export const CONFIRM_DAYS = 7;
const DAY_MS = 86_400_000;

export interface RecipientChanges {
  added: string[];
  removed: string[];
  /** Addresses sent a confirmation email now (the added ones, and pending ones whose link had expired). */
  asked: string[];
}

export interface AskContext {
  organizationId: string;
  shareId: string;
  reportTitle: string;
  /** The organization as its emails name it (its branding's name). */
  organizationName: string;
  cadence: ScheduleCadence;
  /** "every Monday at 09:00 UTC". */
  when: string;
  links: ReportLinks;
  now: Date;
}

/** Makes the schedule's recipients `desired` (lowercased, distinct), in the caller's transaction. */
export async function applyRecipients(
  tx: DbOrTx & Pick<Db, "delete">,
  context: AskContext,
  desired: readonly string[],
): Promise<RecipientChanges> {
  const existing = await tx
    .select()
    .from(reportRecipient)
    .where(
      and(eq(reportRecipient.organizationId, context.organizationId), eq(reportRecipient.shareId, context.shareId)),
    );
  const gone = existing.filter((row) => !desired.includes(row.email));
  if (gone.length > 0) {
    await tx.delete(reportRecipient).where(
      inArray(
        reportRecipient.id,
        gone.map((row) => row.id),
      ),
    );
    await dropQueuedEmails(
      tx,
      shareEmailTopic(context.shareId),
      "The address was removed from the scheduled report.",
      gone.map((row) => row.email),
    );
  }
  const changes: RecipientChanges = { added: [], removed: gone.map((row) => row.email), asked: [] };
  for (const email of desired) {
    const row = existing.find((candidate) => candidate.email === email);
    if (row && !(row.status === "pending" && row.confirmExpiresAt <= context.now)) continue;
    const { token, hash } = newToken();
    const confirmExpiresAt = new Date(context.now.getTime() + CONFIRM_DAYS * DAY_MS);
    if (row) {
      await tx
        .update(reportRecipient)
        .set({ confirmTokenHash: hash, confirmExpiresAt })
        .where(eq(reportRecipient.id, row.id));
    } else {
      await tx.insert(reportRecipient).values({
        id: randomUUID(),
        organizationId: context.organizationId,
        shareId: context.shareId,
        email,
        status: "pending",
        confirmTokenHash: hash,
        confirmExpiresAt,
        createdAt: context.now,
      });
      changes.added.push(email);
    }
    await enqueueEmail(tx, {
      to: email,
      organizationId: context.organizationId,
      about: shareEmailTopic(context.shareId),
      content: reportConsentEmail({
        organizationName: context.organizationName,
        reportTitle: context.reportTitle,
        cadence: context.cadence,
        when: context.when,
        email,
        url: context.links.confirm(token),
        expiresOn: dateWords(confirmExpiresAt),
      }),
    });
    changes.asked.push(email);
  }
  return changes;
}

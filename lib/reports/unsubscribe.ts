import { and, eq, ne } from "drizzle-orm";
import { recordActivity } from "../auth/activity-log";
import { processRuntime, type Runtime } from "../db/runtime";
import { resolveAuthSecret } from "../db/secret";
import { reportRecipient, share } from "../db/schema";
import { ApiError } from "../errors";
import { dropQueuedEmails } from "../mail/outbox";
import { shareEmailTopic } from "../shares/shares";
import { resolveBranding } from "../branding";
import { verifyUnsubscribeToken, type UnsubscribeTarget } from "./tokens";

/**
 * The unsubscribe links of scheduled report emails, for a person without an account: the page
 * (/report-emails/unsubscribe?token=…) shows what the signed token names and changes nothing; its form
 * and the RFC 8058 one-click POST (/api/report-emails/unsubscribe?token=…) unsubscribe. After that the
 * address gets nothing from that share again (what still waits in the outbox is dropped), unless an admin
 * removes it, adds it anew and it confirms anew. Unsubscribing twice, or an address no longer on the
 * report, changes nothing and says so.
 */

export interface UnsubscribeView {
  email: string;
  /** The sender and the report, while the share exists. */
  organizationName: string | null;
  reportTitle: string | null;
  /** Whether reports of this share may still go to the address. */
  subscribed: boolean;
}

function targetOf(token: string | null, runtime: Runtime): UnsubscribeTarget {
  const target = token ? verifyUnsubscribeToken(resolveAuthSecret(runtime.settings), token) : null;
  if (!target)
    throw new ApiError("INVALID_REQUEST", "token: this unsubscribe link is not valid.", {
      hint: "Use the link of the report email unchanged.",
    });
  return target;
}

async function view(runtime: Runtime, target: UnsubscribeTarget): Promise<UnsubscribeView> {
  const [found] = await runtime.db
    .select({ share, status: reportRecipient.status })
    .from(share)
    .leftJoin(
      reportRecipient,
      and(eq(reportRecipient.shareId, share.id), eq(reportRecipient.email, target.email.toLowerCase())),
    )
    .where(eq(share.id, target.shareId))
    .limit(1);
  if (!found) return { email: target.email, organizationName: null, reportTitle: null, subscribed: false };
  const branding = await resolveBranding(runtime.db, found.share.organizationId);
  return {
    email: target.email,
    organizationName: branding.name,
    reportTitle: found.share.title,
    subscribed: found.status !== null && found.status !== "unsubscribed",
  };
}

/** What the link would do; changes nothing. */
export async function unsubscribeStatus(
  token: string | null,
  runtime: Runtime = processRuntime(),
): Promise<UnsubscribeView> {
  return view(runtime, targetOf(token, runtime));
}

/** Unsubscribes the address from the share's reports (idempotent). */
export async function unsubscribeFromToken(
  token: string | null,
  runtime: Runtime = processRuntime(),
): Promise<UnsubscribeView> {
  const target = targetOf(token, runtime);
  const email = target.email.toLowerCase();
  const now = runtime.now();
  await runtime.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(reportRecipient)
      .set({ status: "unsubscribed", unsubscribedAt: now })
      .where(
        and(
          eq(reportRecipient.shareId, target.shareId),
          eq(reportRecipient.email, email),
          ne(reportRecipient.status, "unsubscribed"),
        ),
      )
      .returning({ organizationId: reportRecipient.organizationId });
    if (!changed) return;
    await dropQueuedEmails(tx, shareEmailTopic(target.shareId), "The recipient unsubscribed.", [email]);
    const [row] = await tx.select({ title: share.title }).from(share).where(eq(share.id, target.shareId)).limit(1);
    await recordActivity(tx, {
      organizationId: changed.organizationId,
      actor: null,
      action: "share.recipient_unsubscribed",
      target: { type: "share", id: target.shareId },
      details: { title: row?.title ?? null, email },
    });
  });
  return view(runtime, target);
}

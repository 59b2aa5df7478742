import { and, eq } from "drizzle-orm";
import { recordActivity } from "../auth/activity-log";
import { processRuntime, type Runtime } from "../db/runtime";
import { reportRecipient, reportSchedule, share } from "../db/schema";
import { ApiError } from "../errors";
import { scheduleWords } from "../schemas/share-schedules";
import { isActive } from "../shares/open";
import { hashToken, isTokenShaped } from "../shares/token";
import { resolveBranding } from "../branding";

/**
 * The confirmation link of a scheduled report (/report-emails/confirm?token=…), for a person without an
 * account. Opening it changes nothing (mail scanners open links): the page shows what the token is for
 * and its state, and its form POSTs to confirm. The token works once and for 7 days: a used one confirms
 * nothing again (an address that confirmed and then unsubscribed stays unsubscribed), an expired one
 * nothing at all. A token that names nothing (unknown, malformed, its address removed, its share revoked)
 * is an error for the page to show.
 */

export type ConsentState = "ready" | "confirmed" | "expired" | "unsubscribed";

export interface ConsentView {
  state: ConsentState;
  email: string;
  organizationName: string;
  reportTitle: string;
  /** "every Monday at 09:00 UTC". */
  when: string;
}

const invalid = () =>
  new ApiError(
    "NOT_FOUND",
    "This confirmation link does not work: it is not a link we sent, or the report it was for has ended.",
    {
      hint: "Use the link of the latest confirmation email unchanged, or ask the sender of the report to add your address again.",
    },
  );

type Found = NonNullable<Awaited<ReturnType<typeof find>>>;

async function find(db: Runtime["db"], token: string) {
  const [found] = await db
    .select({ recipient: reportRecipient, schedule: reportSchedule, share })
    .from(reportRecipient)
    .innerJoin(reportSchedule, eq(reportSchedule.shareId, reportRecipient.shareId))
    .innerJoin(share, eq(share.id, reportRecipient.shareId))
    .where(eq(reportRecipient.confirmTokenHash, hashToken(token)))
    .limit(1);
  return found ?? null;
}

async function located(runtime: Runtime, token: string | null): Promise<Found> {
  if (!token || !isTokenShaped(token)) throw invalid();
  const found = await find(runtime.db, token);
  if (!found || !isActive(found.share, runtime.now())) throw invalid();
  return found;
}

function stateOf(found: Found, now: Date): ConsentState {
  const { recipient } = found;
  if (recipient.status === "unsubscribed") return "unsubscribed";
  if (recipient.status === "confirmed") return "confirmed";
  return recipient.confirmExpiresAt <= now ? "expired" : "ready";
}

async function view(runtime: Runtime, found: Found): Promise<ConsentView> {
  const branding = await resolveBranding(runtime.db, found.share.organizationId);
  return {
    state: stateOf(found, runtime.now()),
    email: found.recipient.email,
    organizationName: branding.name,
    reportTitle: found.share.title,
    when: scheduleWords(found.schedule),
  };
}

/** What the link is for and its state; changes nothing. */
export async function consentStatus(token: string | null, runtime: Runtime = processRuntime()): Promise<ConsentView> {
  return view(runtime, await located(runtime, token));
}

/** Confirms the address when the link is unused and unexpired; otherwise changes nothing. Answers the state after. */
export async function confirmFromToken(
  token: string | null,
  runtime: Runtime = processRuntime(),
): Promise<ConsentView> {
  const found = await located(runtime, token);
  const now = runtime.now();
  if (stateOf(found, now) !== "ready") return view(runtime, found);
  await runtime.db.transaction(async (tx) => {
    const confirmed = await tx
      .update(reportRecipient)
      .set({ status: "confirmed", confirmedAt: now })
      .where(and(eq(reportRecipient.id, found.recipient.id), eq(reportRecipient.status, "pending")))
      .returning({ id: reportRecipient.id });
    if (confirmed.length === 0) return;
    await recordActivity(tx, {
      organizationId: found.share.organizationId,
      actor: null,
      action: "share.recipient_confirmed",
      target: { type: "share", id: found.share.id },
      details: { title: found.share.title, email: found.recipient.email },
    });
  });
  return view(runtime, (await find(runtime.db, token as string)) ?? found);
}

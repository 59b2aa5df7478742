import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { membershipOf } from "../db/membership";
import { monitor, monitorMute, notificationPreference } from "../db/schema";
import { readPreferences } from "./preferences";
import type { MuteAction } from "./tokens";

/** What a one-click link is about, and whether it is in effect: the monitor is muted, or emails are off. */
export interface MuteStatus {
  kind: MuteAction["kind"];
  pageUrl: string | null;
  muted: boolean;
}

/** The monitor's page of a `mute` action, or null when the monitor or the user's membership is gone. */
async function mutedPage(db: Db, action: Extract<MuteAction, { kind: "mute" }>): Promise<string | null> {
  const [target] = await db
    .select({ url: monitor.url, organizationId: monitor.organizationId })
    .from(monitor)
    .where(eq(monitor.id, action.monitorId))
    .limit(1);
  return target && (await membershipOf(db, action.userId, target.organizationId)) ? target.url : null;
}

/**
 * Reads, without changing anything, what a signed one-click link would do and whether it is done: the
 * /mute page shows this on GET (mail scanners open links). Null when the monitor or membership is gone.
 */
export async function muteStatus(db: Db, action: MuteAction): Promise<MuteStatus | null> {
  if (action.kind === "mute") {
    const pageUrl = await mutedPage(db, action);
    if (pageUrl === null) return null;
    const [row] = await db
      .select({ userId: monitorMute.userId })
      .from(monitorMute)
      .where(and(eq(monitorMute.userId, action.userId), eq(monitorMute.monitorId, action.monitorId)))
      .limit(1);
    return { kind: "mute", pageUrl, muted: row !== undefined };
  }
  if (!(await membershipOf(db, action.userId, action.organizationId))) return null;
  const current = await readPreferences(db, {
    user: { id: action.userId },
    organization: { id: action.organizationId },
  });
  return { kind: "off", pageUrl: null, muted: current.email === "off" };
}

/**
 * Applies (or undoes) a signed one-click action from an alert email, without a session: the token says
 * which user and which monitor (or organization), and nothing else can be reached with it. Answers
 * what it did for the page to say, or null when the monitor or membership no longer exists.
 */
export async function applyMuteAction(db: Db, action: MuteAction, undo: boolean): Promise<MuteStatus | null> {
  if (action.kind === "mute") {
    const pageUrl = await mutedPage(db, action);
    if (pageUrl === null) return null;
    if (undo)
      await db
        .delete(monitorMute)
        .where(and(eq(monitorMute.userId, action.userId), eq(monitorMute.monitorId, action.monitorId)));
    else
      await db.insert(monitorMute).values({ userId: action.userId, monitorId: action.monitorId }).onConflictDoNothing();
    return { kind: "mute", pageUrl, muted: !undo };
  }
  if (!(await membershipOf(db, action.userId, action.organizationId))) return null;
  const scope = { user: { id: action.userId }, organization: { id: action.organizationId } };
  const current = await readPreferences(db, scope);
  // Undo restores daily digests: the only emails that carry this link are digests.
  const email = undo ? "daily" : "off";
  await db
    .insert(notificationPreference)
    .values({ userId: action.userId, organizationId: action.organizationId, ...current, email, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: [notificationPreference.userId, notificationPreference.organizationId],
      set: { email, updatedAt: new Date() },
    });
  return { kind: "off", pageUrl: null, muted: !undo };
}

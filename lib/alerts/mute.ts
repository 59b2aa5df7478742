import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { membershipOf } from "../db/membership";
import { monitor, monitorMute, notificationPreference } from "../db/schema";
import { readPreferences } from "./preferences";
import type { MuteAction } from "./tokens";

/**
 * Applies (or undoes) a signed one-click action from an alert email, without a session: the token says
 * which user and which monitor (or organization), and nothing else can be reached with it. Answers
 * what it did for the page to say, or null when the monitor or membership no longer exists.
 */
export async function applyMuteAction(db: Db, action: MuteAction, undo: boolean): Promise<{ kind: MuteAction["kind"]; pageUrl: string | null; muted: boolean } | null> {
  if (action.kind === "mute") {
    const [target] = await db.select({ url: monitor.url, organizationId: monitor.organizationId }).from(monitor).where(eq(monitor.id, action.monitorId)).limit(1);
    if (!target || !(await membershipOf(db, action.userId, target.organizationId))) return null;
    if (undo) await db.delete(monitorMute).where(and(eq(monitorMute.userId, action.userId), eq(monitorMute.monitorId, action.monitorId)));
    else await db.insert(monitorMute).values({ userId: action.userId, monitorId: action.monitorId }).onConflictDoNothing();
    return { kind: "mute", pageUrl: target.url, muted: !undo };
  }
  if (!(await membershipOf(db, action.userId, action.organizationId))) return null;
  const scope = { user: { id: action.userId }, organization: { id: action.organizationId } };
  const current = await readPreferences(db, scope);
  // Undo restores daily digests: the only emails that carry this link are digests.
  const email = undo ? "daily" : "off";
  await db
    .insert(notificationPreference)
    .values({ userId: action.userId, organizationId: action.organizationId, ...current, email, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [notificationPreference.userId, notificationPreference.organizationId], set: { email, updatedAt: new Date() } });
  return { kind: "off", pageUrl: null, muted: !undo };
}

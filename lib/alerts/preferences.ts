import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { notificationPreference } from "../db/schema";
import type { PreferencesUpdate } from "../schemas/alerts";
import { ALERT_TYPES, DEFAULT_PREFERENCES, type NotificationPreferences } from "./types";

/**
 * GET|PUT /api/account/notifications: each user's alert emails in the active organization. A PUT may
 * send any of the three fields; the others keep their current value (a settings form that changes only
 * the digest hour must not reset the types).
 */

/** Whose preferences, where. */
export interface PreferenceScope {
  user: { id: string };
  organization: { id: string };
}

/** The preferences of one user in one organization (defaults until they change them). */
export async function readPreferences(db: Pick<Db, "select">, ctx: PreferenceScope): Promise<NotificationPreferences> {
  const [row] = await db
    .select()
    .from(notificationPreference)
    .where(
      and(
        eq(notificationPreference.userId, ctx.user.id),
        eq(notificationPreference.organizationId, ctx.organization.id),
      ),
    )
    .limit(1);
  return row
    ? {
        email: row.email,
        types: ALERT_TYPES.filter((type) => row.types.includes(type)),
        digestHourUtc: row.digestHourUtc,
      }
    : { ...DEFAULT_PREFERENCES, types: [...DEFAULT_PREFERENCES.types] };
}

/** GET /api/account/notifications: the caller's preferences in the active organization. */
export async function getPreferences(ctx: PreferenceScope & { db: Db }): Promise<NotificationPreferences> {
  return readPreferences(ctx.db, ctx);
}

/** PUT /api/account/notifications: the fields sent change, the others stay. */
export async function updatePreferences(
  ctx: PreferenceScope & { db: Db; now: () => Date },
  update: PreferencesUpdate,
): Promise<NotificationPreferences> {
  return ctx.db.transaction(async (tx) => {
    const next = { ...(await readPreferences(tx, ctx)), ...update };
    await tx
      .insert(notificationPreference)
      .values({ userId: ctx.user.id, organizationId: ctx.organization.id, ...next, updatedAt: ctx.now() })
      .onConflictDoUpdate({
        target: [notificationPreference.userId, notificationPreference.organizationId],
        set: { ...next, updatedAt: ctx.now() },
      });
    return next;
  });
}

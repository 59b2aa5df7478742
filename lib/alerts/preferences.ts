import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { notificationPreference } from "../db/schema";
import { ALERT_TYPES, DEFAULT_PREFERENCES, EMAIL_MODES, type NotificationPreferences } from "./types";

/**
 * GET|PUT /api/account/notifications: each user's alert emails in the active organization. A PUT may
 * send any of the three fields; the others keep their current value (a settings form that changes only
 * the digest hour must not reset the types).
 */

export const preferencesUpdateSchema = z.strictObject({
  email: z.enum(EMAIL_MODES).optional(),
  types: z
    .array(z.enum(ALERT_TYPES))
    .max(ALERT_TYPES.length * 2)
    .transform((types) => ALERT_TYPES.filter((type) => types.includes(type)))
    .optional(),
  digestHourUtc: z.number().int().min(0).max(23).optional(),
});

export type PreferencesUpdate = z.infer<typeof preferencesUpdateSchema>;

/** Whose preferences, where. */
export interface PreferenceScope {
  user: { id: string };
  organization: { id: string };
}

export async function getPreferences(db: Pick<Db, "select">, ctx: PreferenceScope): Promise<NotificationPreferences> {
  const [row] = await db
    .select()
    .from(notificationPreference)
    .where(and(eq(notificationPreference.userId, ctx.user.id), eq(notificationPreference.organizationId, ctx.organization.id)))
    .limit(1);
  return row ? { email: row.email, types: ALERT_TYPES.filter((type) => row.types.includes(type)), digestHourUtc: row.digestHourUtc } : { ...DEFAULT_PREFERENCES, types: [...DEFAULT_PREFERENCES.types] };
}

export async function updatePreferences(db: Db, ctx: PreferenceScope, update: PreferencesUpdate): Promise<NotificationPreferences> {
  return db.transaction(async (tx) => {
    const next = { ...(await getPreferences(tx, ctx)), ...update };
    await tx
      .insert(notificationPreference)
      .values({ userId: ctx.user.id, organizationId: ctx.organization.id, ...next, updatedAt: new Date() })
      .onConflictDoUpdate({ target: [notificationPreference.userId, notificationPreference.organizationId], set: { ...next, updatedAt: new Date() } });
    return next;
  });
}

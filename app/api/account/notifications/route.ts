import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { getPreferences, updatePreferences } from "@/lib/alerts/preferences";

// GET /api/account/notifications — the caller's alert-email preferences in the active organization.
// PUT /api/account/notifications — change them (any of email, types, digestHourUtc; the rest stay).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getNotifications, handler: (ctx) => getPreferences(ctx) },
  PUT: { operation: OPERATIONS.updateNotifications, handler: (ctx, { body }) => updatePreferences(ctx, body) },
});

import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { getPreferences, updatePreferences } from "@/lib/alerts/preferences";
import { preferencesUpdateSchema } from "@/lib/schemas/alerts";

// GET /api/account/notifications — the caller's alert-email preferences in the active organization.
// PUT /api/account/notifications — change them (any of email, types, digestHourUtc; the rest stay).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { permission: { account: ["read"] }, handler: async (ctx) => jsonResponse(await getPreferences(ctx)) },
  PUT: {
    permission: { account: ["read"] },
    handler: async (ctx, request) =>
      jsonResponse(await updatePreferences(ctx, await parseBody(request, preferencesUpdateSchema))),
  },
});

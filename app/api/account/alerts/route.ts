import { accountRoute } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { listAlerts, parseAlertsQuery } from "@/lib/alerts/list";

// GET /api/account/alerts — the organization's alert events, newest first (filters: type, monitorId, trackedLinkId, since).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listAlerts(ctx, parseAlertsQuery(request))),
  },
});

import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listAlerts } from "@/lib/alerts/list";

// GET /api/account/alerts — the organization's alert events, newest first (filters: type, monitorId, trackedLinkId, since).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listAlerts, handler: (ctx, { query }) => listAlerts(ctx, query) },
});

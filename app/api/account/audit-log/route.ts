import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listActivity } from "@/lib/auth/activity-log";

// GET /api/account/audit-log — the activity log at its first path, kept for the clients that use it (/activity-log is the one to use).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listAuditLog, handler: (ctx, { query }) => listActivity(ctx, query) },
});

import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listActivity } from "@/lib/auth/activity-log";

// GET /api/account/activity-log — who did what and when in the active organization.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listActivityLog, handler: (ctx, { query }) => listActivity(ctx, query) },
});

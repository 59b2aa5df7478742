import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listChecks } from "@/lib/monitor/check-history";
import { findMonitor } from "@/lib/monitor/monitors";

// GET /api/account/monitors/{id}/checks — the page's checks, newest first.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.listChecks,
    resource: (ctx, { id }) => findMonitor(ctx, id),
    handler: (ctx, { params, query }) => listChecks(ctx, params.id, query),
  },
});

import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { findLink } from "@/lib/monitor/links";
import { linkUptime } from "@/lib/stats/link-uptime";

// GET /api/account/links/{id}/uptime?days=90 — the link's state at the end of each UTC day and its live share.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.linkUptime,
    resource: (ctx, { id }) => findLink(ctx, id),
    handler: async (ctx, { params, query }) =>
      withHeaders(await linkUptime(ctx, params.id, Number(query.days)), { "Cache-Control": "private, no-store" }),
  },
});

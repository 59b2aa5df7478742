import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { findLink, linkHistory } from "@/lib/monitor/links";

// GET /api/account/links/{id}/history — the link's state changes with before/after, newest first.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.linkHistory,
    resource: (ctx, { id }) => findLink(ctx, id),
    handler: (ctx, { params, query }) => linkHistory(ctx, params.id, query),
  },
});

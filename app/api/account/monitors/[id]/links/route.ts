import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { addLink } from "@/lib/monitor/links";
import { findMonitor } from "@/lib/monitor/monitors";

// POST /api/account/monitors/{id}/links — track one more link on the page (409 for a target already tracked there).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.addLink,
    resource: (ctx, { id }) => findMonitor(ctx, id),
    handler: (ctx, { params, body }) => addLink(ctx, params.id, body),
  },
});

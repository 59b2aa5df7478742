import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listLinks } from "@/lib/monitor/links";

// GET /api/account/links — every tracked link of the organization, newest first; filters state, tag, monitorId, q.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.listLinks,
    handler: (ctx, { query: { limit, cursor, ...filters } }) => listLinks(ctx, filters, { limit, cursor }),
  },
});

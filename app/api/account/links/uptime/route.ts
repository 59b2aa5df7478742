import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { linksUptime } from "@/lib/stats/link-uptime";

// GET /api/account/links/uptime?ids=a,b,c&days=90 — the uptimes of up to 100 tracked links in one request.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.linksUptime,
    handler: async (ctx, { query }) =>
      withHeaders(await linksUptime(ctx, query.ids.split(","), Number(query.days)), {
        "Cache-Control": "private, no-store",
      }),
  },
});

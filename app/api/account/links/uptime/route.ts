import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { uptimeBatchQuerySchema } from "@/lib/schemas/stats";
import { linksUptime } from "@/lib/stats/link-uptime";

// GET /api/account/links/uptime?ids=a,b,c&days=90 — the uptimes of up to 100 tracked links in one request (viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => {
      const query = parseQuery(
        request,
        uptimeBatchQuerySchema,
        "?ids= lists 1 to 100 tracked-link ids, comma-separated; ?days= is 30, 90 or 365 (default 90).",
      );
      return jsonResponse(await linksUptime(ctx, query.ids.split(","), Number(query.days)), {
        headers: { "Cache-Control": "private, no-store" },
      });
    },
  },
});

import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { uptimeQuerySchema } from "@/lib/schemas/stats";
import { linkUptime } from "@/lib/stats/link-uptime";

// GET /api/account/links/{id}/uptime?days=90 — the link's state at the end of each UTC day and its live share (viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request, params) => {
      const readDays = () =>
        Number(parseQuery(request, uptimeQuerySchema, "?days= is 30, 90 or 365 (default 90).").days);
      return jsonResponse(await linkUptime(ctx, String(params.id), readDays), {
        headers: { "Cache-Control": "private, no-store" },
      });
    },
  },
});

import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { dailyStatsQuerySchema } from "@/lib/schemas/stats";
import { dailyStats } from "@/lib/stats/daily-query";

// GET /api/account/stats/daily?days=30|90|365 — the portfolio's tracked links per state and verdict at the end of each UTC day (viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => {
      const { days } = parseQuery(request, dailyStatsQuerySchema, "?days= is 30, 90 or 365 (default 30).");
      return jsonResponse(await dailyStats(ctx, Number(days)), { headers: { "Cache-Control": "private, no-store" } });
    },
  },
});

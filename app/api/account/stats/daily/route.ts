import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { dailyStats } from "@/lib/stats/daily-query";

// GET /api/account/stats/daily?days=30|90|365 — the portfolio's tracked links per state and verdict at the end of each UTC day.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.dailyStats,
    handler: async (ctx, { query }) =>
      withHeaders(await dailyStats(ctx, Number(query.days)), { "Cache-Control": "private, no-store" }),
  },
});

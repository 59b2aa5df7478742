import { accountRoute, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { listChecks } from "@/lib/monitor/check-history";
import { findMonitor } from "@/lib/monitor/monitors";

// GET /api/account/monitors/{id}/checks — the page's checks, newest first.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    resource: (ctx, params) => findMonitor(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(await listChecks(ctx, String(params.id), parseListQuery(request))),
  },
});

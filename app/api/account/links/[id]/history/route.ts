import { accountRoute, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { findLink, linkHistory } from "@/lib/monitor/links";

// GET /api/account/links/{id}/history — the link's state changes with before/after, newest first.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    resource: (ctx, params) => findLink(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(await linkHistory(ctx, String(params.id), parseListQuery(request))),
  },
});

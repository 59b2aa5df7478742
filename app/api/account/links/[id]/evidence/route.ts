import { accountRoute, parseListQuery } from "@/lib/auth/account-route";
import { listLinkEvidence } from "@/lib/evidence/read";
import { jsonResponse } from "@/lib/http/response";
import { findLink } from "@/lib/monitor/links";

// GET /api/account/links/{id}/evidence — the tracked link's evidence records, newest first (viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    resource: (ctx, params) => findLink(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(await listLinkEvidence(ctx, String(params.id), parseListQuery(request))),
  },
});

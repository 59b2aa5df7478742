import { accountRoute, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { requestIdOf } from "@/lib/http/request-id";
import { createAudit, listAudits, readAuditRequest } from "@/lib/account/audits";
import { listAuditsFilters } from "@/lib/schemas/audits";
import { ERRORS } from "@/lib/errors";

// GET /api/account/audits — saved audits, newest first; ?url= filters by page URL (viewer+).
// POST /api/account/audits — audit {url} or {html, domain?} and save it (member+); one unit of the daily quota.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listAudits(ctx, parseListQuery(request, listAuditsFilters))),
  },
  POST: {
    permission: { audit: ["create"] },
    requestHint: ERRORS.INVALID_REQUEST.hint,
    handler: async (ctx, request) => {
      const input = await readAuditRequest(request);
      const { audit, headers } = await createAudit(ctx, input, {
        requestId: requestIdOf(request),
        signal: request.signal,
      });
      return jsonResponse(audit, { status: 201, headers });
    },
  },
});

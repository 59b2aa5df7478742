import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { requestIdOf } from "@/lib/http/request-id";
import { createAudit, listAudits } from "@/lib/account/audits";

// GET /api/account/audits — saved audits, newest first; ?url= filters by page URL.
// POST /api/account/audits — audit {url} or {html, domain?} and save it; one unit of the daily quota.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listAudits, handler: (ctx, { query }) => listAudits(ctx, query) },
  POST: {
    operation: OPERATIONS.createAudit,
    handler: async (ctx, { request, body }) => {
      const { audit, headers } = await createAudit(ctx, body, {
        requestId: requestIdOf(request),
        signal: request.signal,
      });
      return withHeaders(audit, headers);
    },
  },
});
